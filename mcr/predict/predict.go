package predict

// This file implements the driver: read a window, show what the shortcuts
// show, decide the remaining candidate pairs location by location in
// parallel, ask about dereferenced reads, merge the window's findings, and
// go on to the next window.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"mcr/parallel"
	"mcr/program"
	"mcr/program/tracefile"
)

// chunkSize is the number of candidate pairs handed to the workers at
// once.
const chunkSize = 1024

// File predicts on the trace file at path, read window by window. Errors:
// the file cannot be read or is malformed (*tracefile.ParseError), it is
// not an execution (*InputError), or a decider cannot be created. An
// interruption through ctx is no error: the result is then incomplete.
func File(ctx context.Context, path string, fopts tracefile.Options, opts Options) (*Result, error) {
	r, err := tracefile.Open(path, fopts)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	src := &fileSource{r: r, name: path, names: r.LocNames()}
	return run(ctx, src, r.Format(), !r.Meta().Values, nil, opts)
}

// Trace predicts on a trace in memory, which carries values (use
// Options.ReadsFrom otherwise). Its Init gives initial values; when nil,
// a location's first read before any write gives its initial value.
// Errors as for File.
func Trace(ctx context.Context, t *program.Trace, opts Options) (*Result, error) {
	if err := t.Check(); err != nil {
		return nil, &InputError{Where: t.File, Msg: err.Error()}
	}
	return run(ctx, &traceSource{t: t}, "memory", false, t.Init, opts)
}

// driver is one prediction.
type driver struct {
	opts    Options
	workers []*worker
	guard   *memGuard // nil without a query memory limit
	tally   *tally
	races   map[[2]Site]*Race
	threads map[[2]Site]map[string]bool
	nulls   map[Site]*NullDeref
	later   map[Site]bool // sites of events racing with an earlier one
	// unresolved are location pairs with candidates left undecided in a
	// window where they had no witness.
	unresolved map[[2]Site]bool
	// counted are the racy flags counted in the last window; farKeys and
	// farNulls the location pairs and null sites of far pairs that may
	// change their counts (overlap.go).
	counted  seen
	farKeys  map[[2]Site]bool
	farNulls map[Site]bool
	// grace bounds the witness checks after an interruption (reportCtx).
	grace       context.Context
	graceCancel context.CancelFunc
}

// graceReport is how long an interrupted prediction goes on checking the
// witnesses of what it has found, so that it reports those races instead
// of none. A witness check is linear in the window (a second for a million
// events), so the checks need a bound of their own.
var graceReport = 300 * time.Millisecond

// reportCtx returns the context of witness checks: ctx until it is done,
// then one that ends graceReport after the first call that saw it done.
func (d *driver) reportCtx(ctx context.Context) context.Context {
	if ctx.Err() == nil {
		return ctx
	}
	if d.grace == nil {
		d.grace, d.graceCancel = context.WithTimeout(context.Background(), graceReport)
	}
	return d.grace
}

func run(ctx context.Context, src source, format string, noValues bool, init func(program.Loc) int64, opts Options) (*Result, error) {
	start := time.Now()
	names, err := opts.deciderNames()
	if err != nil {
		return nil, err
	}
	rf := noValues || opts.ReadsFrom
	stats := &Stats{File: src.File(), Format: format, Mode: "values", Decider: opts.Decider, Window: opts.window(), Complete: true}
	if rf {
		stats.Mode = "reads-from"
	}
	if stats.Decider == "" {
		stats.Decider = Auto
	}
	stats.CountCap = opts.CountQueries
	if stats.CountCap == 0 {
		stats.CountCap = DefaultCountQueries
	}
	d := &driver{opts: opts, tally: &tally{stats: stats, phases: phaseTimer{}, solver: map[string]*SolverStats{}},
		races: map[[2]Site]*Race{}, threads: map[[2]Site]map[string]bool{}, nulls: map[Site]*NullDeref{}, later: map[Site]bool{}, unresolved: map[[2]Site]bool{},
		farKeys: map[[2]Site]bool{}, farNulls: map[Site]bool{}}
	for _, n := range names {
		d.tally.solver[n] = &SolverStats{}
	}
	d.workers, err = newWorkers(parallel.Workers(opts.Workers), names, opts.queryTimeout(), opts.queryRlimit())
	if err != nil {
		return nil, err
	}
	defer closeWorkers(d.workers)
	defer func() {
		if d.graceCancel != nil {
			d.graceCancel()
		}
	}()
	d.guard = newMemGuard(opts.queryMemory(), slices.Contains(names, "z3"))
	st := newStream(src, rf, opts.window(), opts.overlap(), init)
	for ctx.Err() == nil {
		t0 := time.Now()
		w, err := st.next(ctx)
		d.tally.phase("read", t0)
		if stopped(ctx, err) {
			break // the events read so far are counted, not analysed
		}
		if err != nil {
			d.guard.close()
			return nil, err
		}
		if w == nil {
			break
		}
		d.window(ctx, w)
		stats.Events, stats.Threads, stats.Reentrant = st.n, len(src.Threads()), st.dropped
		if opts.Progress != nil {
			opts.Progress(*stats)
		}
	}
	if err := ctx.Err(); err != nil {
		d.incomplete(fmt.Sprintf("interrupted: %v", err))
	}
	stats.MemoryStops = d.guard.close()
	return d.result(start, st, src), nil
}

// window analyses one window and merges its findings.
func (d *driver) window(ctx context.Context, w *window) {
	k := newKnowledge(w)
	d.tally.do(func(s *Stats) {
		s.Windows++
		s.PeakWindow = max(s.PeakWindow, len(w.t.Events))
		for _, acc := range w.locs {
			s.Accesses += int64(len(acc))
		}
	})
	if !d.opts.NoShortcuts {
		t0 := time.Now()
		n := w.sweep(ctx, k)
		d.tally.phase("sweep", t0)
		d.tally.do(func(s *Stats) { s.Swept += n })
	}
	var pr pruning
	var chunk [][2]int32
	locs := w.sortedLocs()
	var gen *pairGen // the location being enumerated, nil between locations
	for ctx.Err() == nil {
		// A chunk holds the candidates of consecutive locations, each
		// location's closest first.
		t0 := time.Now()
		chunk = chunk[:0]
		for len(chunk) < chunkSize && (gen != nil || len(locs) > 0) && ctx.Err() == nil {
			if gen == nil {
				gen, locs = &pairGen{acc: w.locs[locs[0]], d: 1}, locs[1:]
			}
			var more bool
			if chunk, more = w.candidates(ctx, gen, chunk, chunkSize, &pr); !more {
				gen = nil // exhausted
			}
		}
		d.tally.phase("candidates", t0)
		if len(chunk) == 0 || ctx.Err() != nil {
			break
		}
		d.tally.do(func(s *Stats) { s.Candidates += int64(len(chunk)) })
		parallel.ForEach(ctx, len(d.workers), len(chunk), func(wi, i int) {
			d.pair(ctx, d.workers[wi], w, k, chunk[i][0], chunk[i][1])
		})
	}
	d.tally.do(func(s *Stats) {
		s.Pairs, s.PrunedMHB, s.PrunedLockset = s.Pairs+pr.pairs, s.PrunedMHB+pr.mhb, s.PrunedLockset+pr.lockset
	})
	d.nullDerefs(ctx, w)
	if d.opts.observe != nil {
		d.opts.observe(w, k)
	}
	d.collect(ctx, w, k)
	d.settleFar(w, k)
}

// pair decides candidate pair (a, b), a < b, unless it can teach nothing.
func (d *driver) pair(ctx context.Context, wk *worker, w *window, k *knowledge, a, b int32) {
	if ctx.Err() != nil {
		return
	}
	if k.known(a, b) {
		d.tally.do(func(s *Stats) { s.Known++ })
		return
	}
	if !d.opts.NoShortcuts {
		// The forced clocks first (cheap), then the schedules, then the
		// value-mode cone, which rarely shows more than the clocks and
		// costs as much as a schedule.
		t0 := time.Now()
		if w.fc.forces(ctx, w, a, b) {
			d.tally.phase("fast", t0)
			d.tally.do(func(s *Stats) { s.MustOrder++ })
			return
		}
		if ctx.Err() != nil {
			return // forces gave up: nothing is known of the pair
		}
		pr, ok := w.traceOrder(&wk.sc, a, b)
		if !ok {
			pr.sched, ok = w.greedy(ctx, &wk.sc, a, b)
		}
		if ok && d.opts.CheckAll {
			if _, err := checkWitness(ctx, w.t, w.ids(pr.schedule(raceGoal(a, b))), raceGoal(a, b)); stopped(ctx, err) {
				return
			} else if err != nil {
				d.internal("shortcut", w, raceGoal(a, b), err)
				ok = false
			}
		}
		if ok {
			k.race(a, b, pr)
			w.coEnabledAfter(k, pr.prefix, pr.sched[:len(pr.sched)-2])
			d.tally.phase("fast", t0)
			d.tally.do(func(s *Stats) { s.Fast++ })
			return
		}
		if w.valueCone(ctx, &wk.sc, a, b) {
			d.tally.phase("fast", t0)
			d.tally.do(func(s *Stats) { s.MustOrder++ })
			return
		}
		d.tally.phase("fast", t0)
		if ctx.Err() != nil {
			return
		}
	}
	if ok, counting := k.startQuery(a, b, d.opts.maxQueries(), d.opts.countQueries()); !ok {
		d.tally.do(func(s *Stats) {
			s.Undecided++
			if counting {
				s.CountCapped++
			}
		})
		return
	}
	switch v, sched := d.ask(ctx, wk, w, raceGoal(a, b)); v {
	case sat:
		k.race(a, b, proof{sched: sched})
		if !d.opts.NoShortcuts {
			w.coEnabled(k, sched[:len(sched)-2])
		}
	case unknown:
		k.undecided(a, b)
		d.tally.do(func(s *Stats) { s.Undecided++ })
	}
}

// internal records a schedule of this package that the checker rejected:
// a bug, reported like a decider's invalid witness.
func (d *driver) internal(who string, w *window, g goal, err error) {
	dis := &Disagreement{Query: "race", Answers: map[string]string{who: "invalid witness: " + err.Error()}}
	if !g.isRace() {
		dis.Query = "null-dereference"
	}
	for _, p := range g.targets() {
		dis.Events = append(dis.Events, w.step(p))
	}
	d.tally.mu.Lock()
	defer d.tally.mu.Unlock()
	d.tally.stats.Invalid++
	d.tally.dis = append(d.tally.dis, dis)
}

// undecidedWhy says what left pairs undecided, from the statistics: the
// queries too big to ask, and the deciders' give-ups by reason (auto's
// state budget is no reason: z3 takes those queries over), else the query
// caps.
func (d *driver) undecidedWhy() string {
	d.tally.mu.Lock()
	defer d.tally.mu.Unlock()
	var parts []string
	if n := d.tally.stats.TooBig; n > 0 {
		parts = append(parts, fmt.Sprintf("%d queries above --max-query-events", n))
	}
	for _, name := range slices.Sorted(maps.Keys(d.tally.solver)) {
		rs := d.tally.solver[name].Reasons
		for _, r := range slices.Sorted(maps.Keys(rs)) {
			if (r == reasonStates || r == reasonBudget) && d.opts.auto() {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s gave up %d: %s", name, rs[r], r))
		}
	}
	if len(parts) == 0 {
		return "query caps"
	}
	return strings.Join(parts, ", ")
}

func (d *driver) incomplete(why string) {
	d.tally.do(func(s *Stats) {
		s.Complete = false
		if s.Stopped == "" {
			s.Stopped = why
		}
	})
}

// finishWitness checks, trims and re-checks a schedule of w (positions,
// targets last) and converts it for the report; false if the checker
// rejects it (recorded as an internal error) or ctx is done before it is
// checked (the schedule is then untrimmed if ctx stops the trimming).
func (d *driver) finishWitness(ctx context.Context, w *window, sched []int32, g goal) (Witness, bool) {
	t0 := time.Now()
	defer d.tally.phase("check", t0)
	if _, err := checkWitness(ctx, w.t, w.ids(sched), g); stopped(ctx, err) {
		return Witness{}, false
	} else if err != nil {
		d.internal("witness", w, g, err)
		return Witness{}, false
	}
	if trimmed, ok := w.trim(ctx, sched, g); ok && len(trimmed) < len(sched) {
		if _, err := checkWitness(ctx, w.t, w.ids(trimmed), g); err == nil {
			sched = trimmed
		} else if !stopped(ctx, err) {
			d.internal("trimmed witness", w, g, err)
		}
	}
	return w.witness(sched, d.opts.witnessTail()), true
}

// collect merges the window's location pairs into the result. Once ctx is
// done it checks witnesses for graceReport more, shortest first (each can
// take a second on a window of a million events): the location pairs left
// then are counted in the racy events but not reported, and the result is
// incomplete anyway.
func (d *driver) collect(ctx context.Context, w *window, k *knowledge) {
	var racy, later int64
	prev := d.counted
	d.counted = seen{all: map[int64]uint8{}, pairs: map[[2]Site]map[int64]uint8{}}
	for p, f := range k.flags {
		f = d.counted.fresh(w, w.global[p], f, prev.all, d.counted.all)
		if f&racyFlag != 0 {
			racy++
		}
		if f&laterFlag != 0 {
			later++
			d.later[w.sites[w.site[p]]] = true
		}
	}
	d.tally.do(func(s *Stats) { s.RacyEvents += racy; s.LaterEvents += later; s.LaterSites = len(d.later) })
	groups := make([]*group, 0, len(k.groups))
	for _, g := range k.groups {
		groups = append(groups, g)
	}
	// A fixed order (and under interruption the cheapest witnesses first)
	// so that what an interrupted run reports depends on the time only.
	cut := ctx.Err() != nil
	slices.SortFunc(groups, func(a, b *group) int {
		if cut {
			if la, lb := a.proof.length(), b.proof.length(); la != lb {
				return int(la - lb)
			}
		}
		return slices.Compare(a.sites[:], b.sites[:])
	})
	for _, g := range groups {
		key := [2]Site{w.sites[g.sites[0]], w.sites[g.sites[1]]}
		next := map[int64]uint8{}
		d.counted.pairs[key] = next
		if !g.found() {
			if g.capped {
				d.unresolved[key] = true
			}
			continue
		}
		r := d.races[key]
		if r == nil {
			rctx := d.reportCtx(ctx)
			if rctx.Err() != nil {
				continue
			}
			// one witness per location pair: the first window's
			wit, ok := d.finishWitness(rctx, w, g.proof.schedule(g.best), g.best)
			if !ok {
				continue
			}
			r = &Race{Sites: key, Accesses: [2]Step{w.step(g.best.race[0]), w.step(g.best.race[1])}, Witness: wit}
			d.races[key] = r
			d.threads[key] = map[string]bool{}
		}
		for p, f := range g.flags {
			if f = d.counted.fresh(w, w.global[p], f, prev.pairs[key], next); f == 0 {
				continue
			}
			if f&racyFlag != 0 {
				r.RacyEvents++
			}
			if f&laterFlag != 0 {
				r.LaterEvents++
			}
			d.threads[key][w.t.ThreadName(w.t.Events[p].Thread)] = true
		}
		r.AtLeast = r.AtLeast || g.capped
	}
}

// result assembles the final result.
func (d *driver) result(start time.Time, st *stream, src source) *Result {
	d.farResult()
	for key := range d.unresolved {
		if r := d.races[key]; r != nil {
			r.AtLeast = true
		} else {
			d.incomplete("candidate pairs of location pairs without a witness left undecided (" + d.undecidedWhy() +
				"; raise --max-queries, --max-query-events, --query-timeout, --query-memory or --query-rlimit)")
		}
	}
	res := &Result{Races: []*Race{}, NullDerefs: []*NullDeref{}, Disagreements: d.tally.dis}
	for key, r := range d.races {
		for t := range d.threads[key] {
			r.Threads = append(r.Threads, t)
		}
		slices.Sort(r.Threads)
		res.Races = append(res.Races, r)
	}
	slices.SortFunc(res.Races, func(a, b *Race) int {
		switch {
		case a.Sites[0] != b.Sites[0]:
			return siteCmp(a.Sites[0], b.Sites[0])
		default:
			return siteCmp(a.Sites[1], b.Sites[1])
		}
	})
	for _, n := range d.nulls {
		res.NullDerefs = append(res.NullDerefs, n)
	}
	slices.SortFunc(res.NullDerefs, func(a, b *NullDeref) int { return siteCmp(a.Site, b.Site) })
	if res.Disagreements == nil {
		res.Disagreements = []*Disagreement{}
	}
	s := d.tally.stats
	s.Events, s.Threads, s.Reentrant = st.n, len(src.Threads()), st.dropped
	s.Seconds = time.Since(start).Seconds()
	s.Phases = map[string]float64{}
	for p, t := range d.tally.phases {
		s.Phases[p] = t.Seconds()
	}
	s.Solver = map[string]SolverStats{}
	for n, v := range d.tally.solver {
		s.Solver[n] = *v
	}
	res.Stats = *s
	return res
}

func siteCmp(a, b Site) int {
	switch {
	case a.less(b):
		return -1
	case b.less(a):
		return 1
	}
	return 0
}
