package main

// This file implements `mcr crosscheck`: random consistency instances
// (program.RandomInstance), every backend on each, every witness validated,
// and a table of agreement and time per backend (DESIGN.md, "Correctness
// strategy"). Each failing instance is written to --out as an instance file
// whose comment records the answers, ready to become a regression test.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"mcr/parallel"
	"mcr/program"
)

type crosscheckFlags struct {
	mm, kind                      string
	count                         int
	seed                          uint64
	threads, events, vars, locks  string // "N" or "MIN-MAX"
	values                        int
	perturb                       string // a probability, or "auto"
	workers                       int
	out, backend                  string
	timeout, qTimeout             time.Duration
	json                          bool
	threadsR, eventsR, varsR, lkR span
	files                         []string // instance files given as arguments, instead of random ones
}

// span is an inclusive range of sizes; each instance draws uniformly.
type span struct{ lo, hi int }

func (s span) draw(rng *rand.Rand) int { return s.lo + rng.IntN(s.hi-s.lo+1) }

func (s span) String() string {
	if s.lo == s.hi {
		return strconv.Itoa(s.lo)
	}
	return fmt.Sprintf("%d-%d", s.lo, s.hi)
}

// parseSpan parses "N" or "MIN-MAX" with min <= N.
func parseSpan(flag, v string, min int) (span, error) {
	lo, hi, isRange := strings.Cut(v, "-")
	a, err1 := strconv.Atoi(strings.TrimSpace(lo))
	b, err2 := a, error(nil)
	if isRange {
		b, err2 = strconv.Atoi(strings.TrimSpace(hi))
	}
	if err1 != nil || err2 != nil || a < min || b < a || b > 1000 {
		return span{}, fmt.Errorf("--%s %q: want N or MIN-MAX with %d <= MIN <= MAX <= 1000", flag, v, min)
	}
	return span{a, b}, nil
}

// parseKind parses --kind.
func parseKind(v string) (program.Constraint, bool) {
	switch v {
	case "rf", "reads-from":
		return program.ReadsFrom, true
	case "goodwrites", "good", "good-writes", "apo":
		return program.GoodWrites, true
	}
	return 0, false
}

func init() { commands = append(commands, newCrosscheckCmd) }

func newCrosscheckCmd() *cobra.Command {
	var f crosscheckFlags
	cmd := &cobra.Command{
		Use:   "crosscheck",
		Short: "Decide random consistency instances with every backend and compare",
		Long: `crosscheck generates random consistency instances of one memory model and
constraint kind (realizable ones from random executions, unrealizable ones by
perturbing sources), decides each with every selected backend that supports
it, validates every witness, and prints per backend the agreement and the
time (median, p95, max). Every disagreement or invalid witness is written to
--out as an instance file for 'mcr verify'. Instance i of a run is the same
for every --workers.

Instances are generated, decided and counted one at a time: memory does not
grow with --count (the summary lists the first 1000 failures and undecided
answers by instance number and counts the rest; the times of more than
100000 runs per backend go into a histogram with 1% wide buckets, so the
median and p95 are then exact to 1%). --timeout or Ctrl-C stops the run
with the counts of the instances decided so far.

Exit codes: 0 all agree, 1 disagreement or invalid witness, 2 bad input,
3 a backend could not decide or the run was cut (--timeout, interruption).

With arguments (instance files, or directories whose *.json files are
taken, e.g. what 'mcr check --dump-instances DIR' writes), those instances
are decided instead of random ones; their memory model and constraint kind
come from the files (all must have the same) and the generation flags are
not used.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := instanceFiles(args)
			if err != nil {
				return badInput(err)
			}
			f.files = files
			return runCrosscheck(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.mm, "mm", "sc", "memory model: sc, tso or pso")
	fl.StringVar(&f.kind, "kind", "rf", "constraint kind: rf (reads-from) or goodwrites; or apo: random annotated partial orders (seed 003 Sec. 4, --threads = root + leaves, --mm sc) as good-writes instances, with Realize beside the backends")
	fl.IntVar(&f.count, "count", 1000, "number of instances")
	fl.Uint64Var(&f.seed, "seed", 1, "random seed")
	fl.StringVar(&f.threads, "threads", "3", "threads per instance, N or MIN-MAX")
	fl.StringVar(&f.events, "events", "6", "events per thread before the random cut, N or MIN-MAX")
	fl.StringVar(&f.vars, "vars", "2", "memory locations, N or MIN-MAX")
	fl.StringVar(&f.locks, "locks", "1", "locks, N or MIN-MAX")
	fl.IntVar(&f.values, "values", 2, "distinct values written")
	fl.StringVar(&f.perturb, "perturb", "auto", "probability that an instance's sources are perturbed, then often unrealizable; auto: 0.6 for rf, 0.8 for goodwrites (about half of the instances unrealizable)")
	fl.IntVar(&f.workers, "workers", 0, "parallel workers (default: number of CPUs)")
	fl.StringVar(&f.out, "out", "crosscheck-failures", "directory for the instance files of failures")
	fl.StringVar(&f.backend, "backend", "all", backendHelp())
	fl.DurationVar(&f.timeout, "timeout", 0, "stop the run after this long (e.g. 30s, 5m), with the counts so far; 0 = no limit")
	fl.DurationVar(&f.qTimeout, "query-timeout", 10*time.Second, "time limit per backend and instance")
	fl.BoolVar(&f.json, "json", false, "write one JSON summary record to stdout")
	return cmd
}

// crossResult is what crosscheck learns of one instance; it is tallied
// (crossTally) as soon as the instance is decided, then dropped.
type crossResult struct {
	done   bool
	events int
	outs   []outcome // without witnesses
	j      judgement
	file   string // the failure's instance file, or ""
}

// crossFailure is one failing instance in the summary.
type crossFailure struct {
	Index    int      `json:"index"`
	File     string   `json:"file"`
	Problems []string `json:"problems"`
}

// backendStats is one row of the table.
type backendStats struct {
	Backend  string  `json:"backend"`
	Runs     int     `json:"runs"`
	Agree    int     `json:"agree"` // verdict equal to the reference verdict
	Unknown  int     `json:"unknown"`
	Invalid  int     `json:"invalid"`
	MedianMs float64 `json:"median_ms"`
	P95Ms    float64 `json:"p95_ms"`
	MaxMs    float64 `json:"max_ms"`
	TotalMs  float64 `json:"total_ms"`
	Note     string  `json:"note,omitempty"`
}

// crossSummary is the --json output of crosscheck.
type crossSummary struct {
	Type          string         `json:"type"`
	MM            string         `json:"mm"`
	Kind          string         `json:"kind"`
	Seed          uint64         `json:"seed"`
	Count         int            `json:"count"`
	Done          int            `json:"done"`
	Threads       string         `json:"threads"`
	EventsPer     string         `json:"events_per_thread"`
	Vars          string         `json:"vars"`
	Locks         string         `json:"locks"`
	MeanEvents    float64        `json:"mean_events"`
	Realizable    int            `json:"realizable"`
	Unrealizable  int            `json:"unrealizable"`
	Undecided     int            `json:"undecided"`
	Disagreements int            `json:"disagreements"`
	Invalid       int            `json:"invalid_witnesses"`
	Seconds       float64        `json:"seconds"`
	Backends      []backendStats `json:"backends"`
	Failures      []crossFailure `json:"failures"`
	Unknowns      []crossUnknown `json:"unknowns"`
	// FailuresOmitted and UnknownsOmitted count the failures and undecided
	// answers beyond the first maxListed (by instance number) listed above.
	FailuresOmitted int `json:"failures_omitted,omitempty"`
	UnknownsOmitted int `json:"unknowns_omitted,omitempty"`
}

// crossUnknown is one backend that could not decide one instance.
type crossUnknown struct {
	Index   int    `json:"index"`
	Backend string `json:"backend"`
	Error   string `json:"error"`
}

func runCrosscheck(cmd *cobra.Command, f *crosscheckFlags) error {
	m, ok := program.ParseMemoryModel(f.mm)
	if !ok {
		return badInput(fmt.Errorf("--mm %q: want sc, tso or pso", f.mm))
	}
	c, ok := parseKind(f.kind)
	if !ok {
		return badInput(fmt.Errorf("--kind %q: want rf, goodwrites or apo", f.kind))
	}
	if f.kind == "apo" && m != program.SC {
		return badInput(fmt.Errorf("--kind apo: annotated partial orders are SC only (--mm sc)"))
	}
	var err error
	for _, s := range []struct {
		flag, v string
		min     int
		dst     *span
	}{{"threads", f.threads, 1, &f.threadsR}, {"events", f.events, 1, &f.eventsR}, {"vars", f.vars, 1, &f.varsR}, {"locks", f.locks, 0, &f.lkR}} {
		if *s.dst, err = parseSpan(s.flag, s.v, s.min); err != nil {
			return badInput(err)
		}
	}
	perturb := map[program.Constraint]float64{program.ReadsFrom: 0.6, program.GoodWrites: 0.8}[c]
	if f.perturb != "auto" {
		if perturb, err = strconv.ParseFloat(f.perturb, 64); err != nil || perturb < 0 || perturb > 1 {
			return badInput(fmt.Errorf("--perturb %q: want a probability or auto", f.perturb))
		}
	}
	if len(f.files) > 0 {
		if m, c, err = filesModel(f.files); err != nil {
			return badInput(err)
		}
		f.count, f.mm, f.kind = len(f.files), m.String(), map[program.Constraint]string{program.ReadsFrom: "rf", program.GoodWrites: "goodwrites"}[c]
	}
	if f.count < 1 || f.values < 1 {
		return badInput(fmt.Errorf("--count and --values must be positive"))
	}
	sel, note, err := selectBackends(f.backend)
	if err != nil {
		return badInput(err)
	}
	run := supporting(sel, &program.Instance{Model: m, Constraint: c})
	if len(run) == 0 {
		return badInput(fmt.Errorf("no selected backend (%s) decides %s %s instances", f.backend, m, c))
	}
	if f.kind == "apo" {
		run = append(run, realizeColumn)
	}
	if note != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), "mcr:", note)
	}
	ctx, stop := runContext(f.timeout) // --query-timeout applies per backend and instance inside
	defer stop()
	bar := countBar(f.count)
	start := time.Now()
	// Stream: each instance is generated, decided and tallied by its
	// worker, then dropped, so that memory does not depend on --count.
	tally := newCrossTally(run)
	parallel.ForEach(ctx, parallel.Workers(f.workers), f.count, func(_, i int) {
		tally.add(i, crossOne(ctx, f, m, c, perturb, run, i))
		if bar != nil {
			_ = bar.Add(1)
		}
	})
	if bar != nil {
		_ = bar.Finish()
	}
	sum := tally.summary(f, m, c, run)
	sum.Seconds = time.Since(start).Seconds()
	out := cmd.OutOrStdout()
	if f.json {
		_ = json.NewEncoder(out).Encode(sum)
	} else {
		printCrosscheck(out, f, parallel.Workers(f.workers), sum)
	}
	switch {
	case len(sum.Failures) > 0:
		return &exitError{code: exitFinding}
	case sum.Done < sum.Count || sum.Undecided > 0 || slices.ContainsFunc(sum.Backends, func(b backendStats) bool { return b.Unknown > 0 }):
		return &exitError{code: exitIncomplete}
	}
	return nil
}

// crossOne generates instance i (from the seed and i alone), decides it
// with every backend of run, and writes it to f.out if they fail.
func crossOne(ctx context.Context, f *crosscheckFlags, m program.MemoryModel, c program.Constraint, perturb float64, run []backend, i int) crossResult {
	rng := rand.New(rand.NewPCG(f.seed, uint64(i)))
	var inst *program.Instance
	if len(f.files) > 0 {
		var err error
		if inst, err = program.ReadInstanceFile(f.files[i]); err != nil { // read before: cannot fail but for a race with the file system
			return crossResult{done: true, j: judgement{Verdict: unknown, Problems: []string{err.Error()}}}
		}
	} else if f.kind == "apo" {
		var err error
		if inst, run, err = apoInstance(rng, f, run, i); err != nil {
			return crossResult{done: true, j: judgement{Verdict: unknown, Problems: []string{"bad annotated partial order: " + err.Error()}}}
		}
	} else {
		o := program.RandomOptions{Threads: f.threadsR.draw(rng), Events: f.eventsR.draw(rng), Vars: f.varsR.draw(rng),
			Locks: f.lkR.draw(rng), Values: f.values, Model: m, Constraint: c, Perturb: perturb}
		inst, _ = program.RandomInstance(rng, o)
		inst.Name = fmt.Sprintf("crosscheck-%s-%s-seed%d-%d", m, c, f.seed, i)
	}
	r := crossResult{events: inst.NumEvents()}
	for _, b := range run {
		r.outs = append(r.outs, decide(ctx, b, inst, f.qTimeout))
	}
	if ctx.Err() != nil {
		return r // interrupted: the answers may be cut short
	}
	r.done = true
	r.j = judge(r.outs, nil)
	if len(r.j.Problems) > 0 {
		r.file = writeFailure(f, inst, i, r)
	}
	for k := range r.outs {
		r.outs[k].Witness = nil
	}
	return r
}

// writeFailure writes inst to f.out with a comment that records the run,
// the problems and every answer, and returns the file name (or why it could
// not be written).
func writeFailure(f *crosscheckFlags, inst *program.Instance, i int, r crossResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mcr crosscheck --mm %s --kind %s --seed %d (instance %d): %s.", inst.Model, f.kind, f.seed, i,
		strings.Join(r.j.Problems, "; "))
	for _, o := range r.outs {
		fmt.Fprintf(&b, " %s: %s", o.Backend, o.Verdict)
		if len(o.Witness) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(o.Witness, ", "))
		}
		if o.Error != "" {
			fmt.Fprintf(&b, " (%s)", o.Error)
		}
		b.WriteString(".")
	}
	data, err := program.EncodeInstance(inst)
	if err != nil {
		return "not written: " + err.Error()
	}
	comment, _ := json.Marshal(b.String())
	// EncodeInstance starts with "{\n"; the comment goes first.
	data = bytes.Replace(data, []byte("{\n"), append(append([]byte("{\n  \"comment\": "), comment...), ",\n"...), 1)
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return "not written: " + err.Error()
	}
	path := filepath.Join(f.out, inst.Name+".json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "not written: " + err.Error()
	}
	return path
}

// maxListed bounds the failures and undecided answers a summary lists.
const maxListed = 1000

// crossTally is what a run keeps: counters, the time distribution of each
// backend, and the first maxListed failures and undecided answers; the
// workers add to it under its lock.
type crossTally struct {
	mu       sync.Mutex
	s        crossSummary // counts, Failures and Unknowns so far
	events   int64
	lat      []latencies // per backend of run
	position map[string]int
}

func newCrossTally(run []backend) *crossTally {
	t := &crossTally{lat: make([]latencies, len(run)), position: map[string]int{}}
	t.s.Backends = make([]backendStats, len(run))
	t.s.Failures, t.s.Unknowns = []crossFailure{}, []crossUnknown{}
	for k, b := range run {
		t.position[b.Name] = k
	}
	return t
}

// add counts instance i's result; an instance cut short by an interruption
// (not done) counts for nothing.
func (t *crossTally) add(i int, r crossResult) {
	if !r.done {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s := &t.s
	s.Done++
	t.events += int64(r.events)
	switch r.j.Verdict {
	case realizable:
		s.Realizable++
	case unrealizable:
		s.Unrealizable++
	default:
		s.Undecided++
	}
	for k, o := range r.outs {
		st := &s.Backends[k]
		st.Runs++
		t.lat[k].add(o.Ms)
		switch {
		case o.Invalid != "":
			st.Invalid++
			s.Invalid++
		case o.Verdict == unknown:
			st.Unknown++
			s.Unknowns = append(s.Unknowns, crossUnknown{Index: i, Backend: o.Backend, Error: o.Error})
			t.trimUnknowns(false)
		case o.Verdict == r.j.Verdict:
			st.Agree++
		}
	}
	if len(r.j.Problems) > 0 {
		if slices.ContainsFunc(r.j.Problems, func(p string) bool { return strings.HasPrefix(p, "disagreement") }) {
			s.Disagreements++
		}
		s.Failures = append(s.Failures, crossFailure{Index: i, File: r.file, Problems: r.j.Problems})
		t.trimFailures(false)
	}
}

// trimFailures keeps the maxListed failures of smallest index (what a run
// lists does not depend on the workers' timing); it sorts and cuts when the
// list has doubled, or always when final.
func (t *crossTally) trimFailures(final bool) {
	s := &t.s
	if !final && len(s.Failures) < 2*maxListed {
		return
	}
	slices.SortFunc(s.Failures, func(a, b crossFailure) int { return a.Index - b.Index })
	if len(s.Failures) > maxListed {
		s.FailuresOmitted += len(s.Failures) - maxListed
		s.Failures = slices.Clip(s.Failures[:maxListed])
	}
}

// trimUnknowns does the same for the undecided answers, by instance and
// backend.
func (t *crossTally) trimUnknowns(final bool) {
	s := &t.s
	if !final && len(s.Unknowns) < 2*maxListed {
		return
	}
	slices.SortFunc(s.Unknowns, func(a, b crossUnknown) int {
		if a.Index != b.Index {
			return a.Index - b.Index
		}
		return t.position[a.Backend] - t.position[b.Backend]
	})
	if len(s.Unknowns) > maxListed {
		s.UnknownsOmitted += len(s.Unknowns) - maxListed
		s.Unknowns = slices.Clip(s.Unknowns[:maxListed])
	}
}

// summary completes the counts into the run's summary.
func (t *crossTally) summary(f *crosscheckFlags, m program.MemoryModel, c program.Constraint, run []backend) crossSummary {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.trimFailures(true)
	t.trimUnknowns(true)
	s := t.s
	s.Type, s.MM, s.Seed, s.Count = "crosscheck", m.String(), f.seed, f.count
	s.Threads, s.EventsPer, s.Vars, s.Locks = f.threadsR.String(), f.eventsR.String(), f.varsR.String(), f.lkR.String()
	if f.kind == "apo" {
		s.Kind = "apo"
	} else if c == program.GoodWrites {
		s.Kind = "goodwrites"
	} else {
		s.Kind = "rf"
	}
	if s.Done > 0 {
		s.MeanEvents = float64(t.events) / float64(s.Done)
	}
	s.Backends = slices.Clone(s.Backends)
	for k, b := range run {
		st, l := &s.Backends[k], &t.lat[k]
		st.Backend = b.Name
		st.MedianMs, st.P95Ms = l.percentile(0.5), l.percentile(0.95)
		st.MaxMs, st.TotalMs = l.max, l.total
		if b.Note != nil {
			st.Note = b.Note()
		}
	}
	return s
}

// Latency distributions: exact up to maxExact runs, then a histogram.
const (
	maxExact   = 100000
	latMinMs   = 0.001 // decide's resolution (1 µs); smaller times fall in bucket 0
	latGrowth  = 1.01  // each bucket is 1% wider than the one before
	latBuckets = 3000  // up to latMinMs * 1.01^3000, about 10^10 ms
)

var latLogGrowth = math.Log(latGrowth)

// latencies is one backend's distribution of times (ms): the values
// themselves while there are at most maxExact of them (percentiles as
// before, nearest rank), then a histogram of buckets latGrowth wide, whose
// percentiles are within 1% of the nearest-rank value.
type latencies struct {
	exact      []float64
	hist       []int64 // nil while exact
	n          int64
	max, total float64
}

func (l *latencies) add(ms float64) {
	l.n++
	l.max, l.total = max(l.max, ms), l.total+ms
	if l.hist == nil {
		if len(l.exact) < maxExact {
			l.exact = append(l.exact, ms)
			return
		}
		l.hist = make([]int64, latBuckets)
		for _, v := range l.exact {
			l.hist[bucket(v)]++
		}
		l.exact = nil
	}
	l.hist[bucket(ms)]++
}

// bucket returns the histogram bucket of ms: bucket k > 0 holds
// (latMinMs*1.01^(k-1), latMinMs*1.01^k].
func bucket(ms float64) int {
	if ms <= latMinMs {
		return 0
	}
	k := int(math.Ceil(math.Log(ms/latMinMs) / latLogGrowth))
	return min(max(k, 1), latBuckets-1)
}

// percentile returns the nearest-rank p-quantile (0 if empty); from the
// histogram, the upper bound of the quantile's bucket (at most the maximum).
func (l *latencies) percentile(p float64) float64 {
	if l.hist == nil {
		x := slices.Clone(l.exact)
		slices.Sort(x)
		return percentile(x, p)
	}
	rank := max(int64(math.Ceil(p*float64(l.n)))-1, 0)
	var seen int64
	for k, c := range l.hist {
		if seen += c; seen > rank {
			return min(latMinMs*math.Pow(latGrowth, float64(k)), l.max)
		}
	}
	return l.max
}

// percentile returns the nearest-rank p-quantile of sorted x (0 if empty).
func percentile(x []float64, p float64) float64 {
	if len(x) == 0 {
		return 0
	}
	k := int(math.Ceil(p*float64(len(x)))) - 1
	return x[max(k, 0)]
}

func printCrosscheck(w io.Writer, f *crosscheckFlags, workers int, s crossSummary) {
	if len(f.files) > 0 {
		fmt.Fprintf(w, "mcr crosscheck: %d of %d %s %s instances from files (mean %.1f events); %d workers, %.1fs\n",
			s.Done, s.Count, s.MM, s.Kind, s.MeanEvents, workers, s.Seconds)
	} else {
		fmt.Fprintf(w, "mcr crosscheck: %d of %d %s %s instances, seed %d; %s threads, %s events per thread (mean %.1f events), %s vars, %s locks; %d workers, %.1fs\n",
			s.Done, s.Count, s.MM, s.Kind, s.Seed, s.Threads, s.EventsPer, s.MeanEvents, s.Vars, s.Locks, workers, s.Seconds)
	}
	pct := func(n int) float64 { return 100 * float64(n) / float64(max(s.Done, 1)) }
	fmt.Fprintf(w, "verdicts: %d realizable (%.1f%%), %d unrealizable (%.1f%%), %d undecided\n",
		s.Realizable, pct(s.Realizable), s.Unrealizable, pct(s.Unrealizable), s.Undecided)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "backend\truns\tagree\tunknown\tinvalid\tmedian ms\tp95 ms\tmax ms\ttotal s")
	for _, b := range s.Backends {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t%.1f\t%.1f\n", b.Backend, b.Runs, b.Agree, b.Unknown, b.Invalid,
			b.MedianMs, b.P95Ms, b.MaxMs, b.TotalMs/1000)
	}
	_ = tw.Flush()
	for _, b := range s.Backends {
		if b.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", b.Backend, b.Note)
		}
	}
	fmt.Fprintf(w, "disagreements: %d, invalid witnesses: %d\n", s.Disagreements, s.Invalid)
	for k, fl := range s.Failures {
		if k == 20 {
			fmt.Fprintf(w, "  ... %d more (see %s)\n", len(s.Failures)-k+s.FailuresOmitted, f.out)
			break
		}
		fmt.Fprintf(w, "  instance %d -> %s: %s\n", fl.Index, fl.File, strings.Join(fl.Problems, "; "))
	}
	for k, u := range s.Unknowns {
		if k == 20 {
			fmt.Fprintf(w, "  ... %d more undecided\n", len(s.Unknowns)-k+s.UnknownsOmitted)
			break
		}
		fmt.Fprintf(w, "  instance %d: %s could not decide: %s\n", u.Index, u.Backend, u.Error)
	}
}

// countBar returns a progress bar on stderr when it is a terminal, else nil.
func countBar(n int) *progressbar.ProgressBar {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	return progressbar.NewOptions(n, progressbar.OptionSetWriter(os.Stderr), progressbar.OptionSetDescription("crosscheck"),
		progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionShowCount())
}

// instanceFiles lists the instance files args name: files as given, and
// the *.json files of directories, sorted.
func instanceFiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		ms, err := filepath.Glob(filepath.Join(a, "*.json"))
		if err != nil {
			return nil, err
		}
		if len(ms) == 0 {
			return nil, fmt.Errorf("%s: no *.json instance files", a)
		}
		slices.Sort(ms)
		out = append(out, ms...)
	}
	return out, nil
}

// filesModel reads every file (so that a bad one is bad input before any
// is decided) and returns their common memory model and constraint kind.
func filesModel(files []string) (program.MemoryModel, program.Constraint, error) {
	var m program.MemoryModel
	var c program.Constraint
	for i, name := range files {
		inst, err := program.ReadInstanceFile(name)
		if err != nil {
			return m, c, err
		}
		if i == 0 {
			m, c = inst.Model, inst.Constraint
		} else if inst.Model != m || inst.Constraint != c {
			return m, c, fmt.Errorf("%s is a %s %s instance, %s a %s %s one: give files of one kind", name, inst.Model, inst.Constraint, files[0], m, c)
		}
	}
	return m, c, nil
}
