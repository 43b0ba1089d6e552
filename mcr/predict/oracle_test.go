package predict

// This file tests prediction against a brute-force oracle: every feasible
// prefix of a small trace, explored state by state, and every conflicting
// pair co-enabled in one of them. The oracle reads the original trace (not
// the windows of window.go): in value mode a read must find its traced
// value in memory, in reads-from mode the write it reads from in the trace
// (program.RF) must be the last one executed on its location.

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"mcr/program"
	"mcr/program/tracefile"
)

// oracle is an execution state over a trace.
type oracle struct {
	t      *program.Trace
	rf     []int32 // reads-from mode: each read's write, else nil
	pos    [][]int32
	forkOf []int32
	next   []int32
	mem    map[program.Loc]int64 // value, or in reads-from mode the last writer (-1 initially)
	holder map[program.Loc]program.ThreadID
}

func newOracle(t *program.Trace, readsFrom bool) *oracle {
	o := &oracle{t: t, pos: t.Index(), forkOf: make([]int32, len(t.Threads)), next: make([]int32, len(t.Threads)),
		mem: map[program.Loc]int64{}, holder: map[program.Loc]program.ThreadID{}}
	o.pos = append(o.pos, make([][]int32, len(t.Threads)-len(o.pos))...)
	for i := range o.forkOf {
		o.forkOf[i] = -1
	}
	for i, e := range t.Events {
		if e.Kind == program.Fork {
			o.forkOf[e.Value] = int32(i)
		}
	}
	if readsFrom {
		o.rf = program.RF(t)
	}
	return o
}

func (o *oracle) load(l program.Loc) int64 {
	if v, ok := o.mem[l]; ok {
		return v
	}
	if o.rf != nil {
		return -1
	}
	return 0
}

// ready reports whether thread th's next event p may run as far as program
// order, fork and join go.
func (o *oracle) ready(th int) (int32, bool) {
	if int(o.next[th]) >= len(o.pos[th]) {
		return -1, false
	}
	p := o.pos[th][o.next[th]]
	e := &o.t.Events[p]
	if f := o.forkOf[th]; f >= 0 && o.next[o.t.Events[f].Thread] <= o.t.Events[f].Index {
		return p, false
	}
	if e.Kind == program.Join && int(o.next[e.Value]) < len(o.pos[e.Value]) {
		return p, false
	}
	return p, true
}

// canExec reports whether thread th's next event can execute.
func (o *oracle) canExec(th int) (int32, bool) {
	p, ok := o.ready(th)
	if !ok {
		return p, false
	}
	e := &o.t.Events[p]
	switch e.Kind {
	case program.Acquire:
		_, held := o.holder[e.Loc]
		return p, !held
	case program.Read:
		if o.rf != nil {
			return p, o.load(e.Loc) == int64(o.rf[p])
		}
		return p, o.load(e.Loc) == e.Value
	}
	return p, true
}

func (o *oracle) exec(p int32) {
	e := &o.t.Events[p]
	switch e.Kind {
	case program.Acquire:
		o.holder[e.Loc] = e.Thread
	case program.Release:
		delete(o.holder, e.Loc)
	case program.Write:
		if o.rf != nil {
			o.mem[e.Loc] = int64(p)
		} else {
			o.mem[e.Loc] = e.Value
		}
	}
	o.next[e.Thread]++
}

// coEnabled returns the conflicting pairs of next events, both ready.
func (o *oracle) coEnabled() [][2]int32 {
	var out [][2]int32
	for th := range o.next {
		p, ok := o.ready(th)
		for u := th + 1; ok && u < len(o.next); u++ {
			if q, ok := o.ready(u); ok && program.Conflicts(&o.t.Events[p], &o.t.Events[q]) {
				out = append(out, [2]int32{min(p, q), max(p, q)})
			}
		}
	}
	return out
}

func (o *oracle) key() string {
	var b strings.Builder
	fmt.Fprint(&b, o.next)
	locs := make([]program.Loc, 0, len(o.mem))
	for l := range o.mem {
		locs = append(locs, l)
	}
	slices.Sort(locs)
	for _, l := range locs {
		fmt.Fprintf(&b, " %d=%d", l, o.mem[l])
	}
	return b.String()
}

func (o *oracle) clone() *oracle {
	c := *o
	c.next = slices.Clone(o.next)
	c.mem = map[program.Loc]int64{}
	for k, v := range o.mem {
		c.mem[k] = v
	}
	c.holder = map[program.Loc]program.ThreadID{}
	for k, v := range o.holder {
		c.holder[k] = v
	}
	return &c
}

// oracleRaces returns every racing pair of trace positions of t.
func oracleRaces(t *program.Trace, readsFrom bool) map[[2]int32]bool {
	races := map[[2]int32]bool{}
	seen := map[string]bool{}
	stack := []*oracle{newOracle(t, readsFrom)}
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[o.key()] {
			continue
		}
		seen[o.key()] = true
		for _, p := range o.coEnabled() {
			races[p] = true
		}
		for th := range o.next {
			if p, ok := o.canExec(th); ok {
				c := o.clone()
				c.exec(p)
				stack = append(stack, c)
			}
		}
	}
	return races
}

// siteOf names the site of event p as window.go does.
func siteOf(t *program.Trace, p int32) Site {
	e := &t.Events[p]
	if e.Pos.Line != 0 {
		return Site{Line: e.Pos.Line, Col: e.Pos.Col}
	}
	return Site{Var: t.LocName(e.Loc)}
}

// racyFlags renders racy events per location pair: "A|B: event flags ...".
type racyFlags map[[2]Site]map[int64]uint8

func (r racyFlags) add(key [2]Site, ev int64, f uint8) {
	if r[key] == nil {
		r[key] = map[int64]uint8{}
	}
	r[key][ev] |= f
}

func (r racyFlags) String() string {
	var lines []string
	for key, evs := range r {
		var parts []string
		for e, f := range evs {
			parts = append(parts, fmt.Sprintf("%d:%d", e, f))
		}
		slices.Sort(parts)
		lines = append(lines, fmt.Sprintf("%s|%s: %s", key[0], key[1], strings.Join(parts, " ")))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// observe adds the racy flags of window w's location pairs (an
// Options.observe hook).
func (r racyFlags) observe(w *window, k *knowledge) {
	for _, g := range k.groups {
		key := [2]Site{w.sites[g.sites[0]], w.sites[g.sites[1]]}
		for p, f := range g.flags {
			r.add(key, w.global[p], f)
		}
	}
}

// subsetOf reports whether every flag of r is in s.
func (r racyFlags) subsetOf(s racyFlags) bool {
	for key, evs := range r {
		for e, f := range evs {
			if s[key][e]&f != f {
				return false
			}
		}
	}
	return true
}

func oracleFlags(t *program.Trace, readsFrom bool) racyFlags {
	out := racyFlags{}
	for p := range oracleRaces(t, readsFrom) {
		s, u := siteOf(t, p[0]), siteOf(t, p[1])
		if u.less(s) {
			s, u = u, s
		}
		out.add([2]Site{s, u}, int64(p[0]), racyFlag)
		out.add([2]Site{s, u}, int64(p[1]), racyFlag|laterFlag)
	}
	return out
}

// predicted runs a prediction on t and returns its racy events per location
// pair (trace positions) and the result.
func predicted(t *testing.T, tr *program.Trace, opts Options) (racyFlags, *Result) {
	t.Helper()
	out := racyFlags{}
	opts.observe = out.observe
	res, err := Trace(context.Background(), tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Stats; !s.Complete || s.Invalid > 0 || len(res.Disagreements) > 0 {
		for _, d := range res.Disagreements {
			t.Logf("disagreement %s %v %v", d.Query, d.Events, d.Answers)
		}
		t.Fatalf("complete %v (%s), %d invalid, %d disagreements", s.Complete, s.Stopped, s.Invalid, len(res.Disagreements))
	}
	return out, res
}

// randomTrace generates a small trace with tracefile.Synthetic.
func randomTrace(t *testing.T, format string, seed int64) *program.Trace {
	t.Helper()
	var buf bytes.Buffer
	cfg := tracefile.SynthConfig{Format: format, Events: 14 + int(seed%3)*4, Threads: 3, Vars: 2, Locks: 1 + int(seed%2), Seed: seed}
	if err := tracefile.Synthetic(&buf, cfg); err != nil {
		t.Fatal(err)
	}
	tr, _, err := tracefile.Read(fmt.Sprintf("synthetic-%s-%d", format, seed), &buf, tracefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// testConfigs are the decider configurations compared with the oracle.
func testConfigs(t *testing.T) map[string]Options {
	exact := Options{MaxQueries: -1, CountQueries: -1, Workers: 2, Window: 0, QueryTimeout: time.Minute, CheckAll: true}
	out := map[string]Options{}
	add := func(name, decider string, noShortcuts bool) {
		o := exact
		o.Decider, o.NoShortcuts = decider, noShortcuts
		out[name] = o
	}
	add("explicit", "explicit", false)
	add("explicit-all", "explicit", true)
	// the defaults' caps must count these traces exactly
	out["explicit-defaults"] = Options{Decider: "explicit", Workers: 2, Window: 0, CheckAll: true}
	if d, err := Deciders["z3"].New(time.Second); err == nil {
		d.(interface{ Close() }).Close()
		add("z3", "z3", false)
		add("both-all", Both, true)
	}
	return out
}

// TestOracle compares the racy events of every location pair with the
// oracle's on random traces, with and without values.
func TestOracle(t *testing.T) {
	n := int64(30)
	if testing.Short() {
		n = 8
	}
	cfgs := testConfigs(t)
	for seed := int64(1); seed <= n; seed++ {
		for _, format := range []string{tracefile.FormatVals, tracefile.FormatSTD} {
			tr := randomTrace(t, format, seed)
			rf := format == tracefile.FormatSTD
			want := oracleFlags(tr, rf)
			for name, opts := range cfgs {
				opts.ReadsFrom = rf
				got, res := predicted(t, tr, opts)
				if got.String() != want.String() {
					t.Errorf("%s seed %d %s: racy events\n%s\nwant\n%s", format, seed, name, got, want)
				}
				if len(res.Races) != len(want) {
					t.Errorf("%s seed %d %s: %d races, want %d", format, seed, name, len(res.Races), len(want))
				}
			}
		}
	}
}

// TestWindowsSound predicts with small windows: every racy event must be
// racy in the whole trace, every witness, put after the trace's events
// before its window, must replay on the whole trace, and no race of the
// whole trace between events in no common window may be lost silently
// (windowsLose).
func TestWindowsSound(t *testing.T) {
	n := int64(30)
	if testing.Short() {
		n = 8
	}
	for seed := int64(1); seed <= n; seed++ {
		for _, format := range []string{tracefile.FormatVals, tracefile.FormatSTD} {
			tr := randomTrace(t, format, seed)
			rf := format == tracefile.FormatSTD
			whole := oracleFlags(tr, rf)
			pairs := oracleRaces(tr, rf)
			for _, size := range []int{3, 5, 8} {
				opts := testConfigs(t)["explicit"]
				opts.ReadsFrom, opts.Window = rf, size
				got, res, spans := windowed(t, tr, opts)
				if msg := windowsLose(tr, pairs, got, res, spans); msg != "" {
					t.Errorf("%s seed %d window %d: %s", format, seed, size, msg)
				}
				if !got.subsetOf(whole) {
					t.Errorf("%s seed %d window %d: racy events\n%s\nnot within the whole trace's\n%s", format, seed, size, got, whole)
				}
				for _, r := range res.Races {
					if err := replayWhole(tr, rf, r.Witness); err != nil {
						t.Errorf("%s seed %d window %d: race %v: %v", format, seed, size, r.Sites, err)
					}
					// the trace-order prefix is in Start, not listed
					if ev := r.Witness.Events; len(ev) > 2 && ev[0] == r.Witness.Start {
						t.Errorf("%s seed %d window %d: race %v: witness lists event %d, the next of its prefix", format, seed, size, r.Sites, ev[0])
					}
				}
			}
		}
	}
}

// replayWhole replays a windowed race witness on the whole trace: the
// trace's first Start events, then the witness's events, the last two
// being the racing pair, both ready at the end.
func replayWhole(tr *program.Trace, readsFrom bool, w Witness) error {
	o := newOracle(tr, readsFrom)
	exec := func(p int32) error {
		e := &tr.Events[p]
		if o.next[e.Thread] != e.Index {
			return fmt.Errorf("%s out of order", tr.Describe(int(p)))
		}
		if _, ok := o.canExec(int(e.Thread)); !ok {
			return fmt.Errorf("%s cannot execute", tr.Describe(int(p)))
		}
		o.exec(p)
		return nil
	}
	for p := int32(0); p < int32(w.Start); p++ {
		if err := exec(p); err != nil {
			return fmt.Errorf("prefix: %v", err)
		}
	}
	var steps []int32
	for _, e := range w.Events {
		steps = append(steps, int32(e))
	}
	if len(steps) < 2 {
		return fmt.Errorf("witness without targets")
	}
	for _, p := range steps[:len(steps)-2] {
		if err := exec(p); err != nil {
			return err
		}
	}
	a, b := steps[len(steps)-2], steps[len(steps)-1]
	for _, p := range []int32{a, b} {
		if q, ok := o.ready(int(tr.Events[p].Thread)); !ok || q != p {
			return fmt.Errorf("target %s is not ready", tr.Describe(int(p)))
		}
	}
	if !program.Conflicts(&tr.Events[a], &tr.Events[b]) {
		return fmt.Errorf("targets do not conflict")
	}
	return nil
}

// windowed runs a windowed prediction on t like predicted, but accepts an
// incomplete result whose only reason is far pairs; it also returns each
// window's first and last event (trace positions).
func windowed(t *testing.T, tr *program.Trace, opts Options) (racyFlags, *Result, [][2]int64) {
	t.Helper()
	out := racyFlags{}
	var spans [][2]int64
	opts.observe = func(w *window, k *knowledge) {
		last := int64(-1)
		for _, g := range w.global {
			last = max(last, g)
		}
		spans = append(spans, [2]int64{w.start, last})
		out.observe(w, k)
	}
	res, err := Trace(context.Background(), tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Stats; !s.Complete && s.FarOpen == 0 || s.Invalid > 0 || len(res.Disagreements) > 0 {
		t.Fatalf("complete %v (%s), %d invalid, %d disagreements", s.Complete, s.Stopped, s.Invalid, len(res.Disagreements))
	}
	return out, res, spans
}

// windowsLose returns what a windowed result claims wrongly about the
// whole trace's racing pairs whose events share no window: a complete
// result must report their location pair, and unless that pair's counts
// are lower bounds, the later event must count as racing with an earlier
// one.
func windowsLose(tr *program.Trace, pairs map[[2]int32]bool, got racyFlags, res *Result, spans [][2]int64) string {
	races := map[[2]Site]*Race{}
	for _, r := range res.Races {
		races[r.Sites] = r
	}
	for p := range pairs {
		a, b := int64(p[0]), int64(p[1])
		if slices.ContainsFunc(spans, func(s [2]int64) bool { return s[0] <= a && b <= s[1] }) {
			continue
		}
		key := [2]Site{siteOf(tr, p[0]), siteOf(tr, p[1])}
		if key[1].less(key[0]) {
			key[0], key[1] = key[1], key[0]
		}
		r := races[key]
		switch {
		case r == nil && res.Stats.Complete:
			return fmt.Sprintf("events %d and %d race in the whole trace, share no window, and their location pair %v is missing from a complete result", a, b, key)
		case r != nil && !r.AtLeast && got[key][b]&laterFlag == 0:
			return fmt.Sprintf("events %d and %d race in the whole trace, share no window, and %v's counts are not lower bounds without %d", a, b, key, b)
		}
	}
	return ""
}

// TestCountCap caps the counting queries at one per location pair, with
// every pair sent to the decider: a pair the cap leaves undecided is
// counted in CountCapped and makes its location pair's counts lower
// bounds; without the cap nothing is capped.
func TestCountCap(t *testing.T) {
	capped := 0
	for seed := int64(1); seed <= 3; seed++ {
		var buf bytes.Buffer
		cfg := tracefile.SynthConfig{Format: tracefile.FormatVals, Events: 60, Threads: 4, Vars: 2, Locks: 1, Seed: seed}
		if err := tracefile.Synthetic(&buf, cfg); err != nil {
			t.Fatal(err)
		}
		tr, _, err := tracefile.Read("count-cap", &buf, tracefile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, limit := range []int{1, -1} {
			opts := Options{Decider: "explicit", Workers: 1, Window: 0, NoShortcuts: true, CountQueries: limit}
			res, err := Trace(context.Background(), tr, opts)
			if err != nil {
				t.Fatal(err)
			}
			s := res.Stats
			atLeast := slices.ContainsFunc(res.Races, func(r *Race) bool { return r.AtLeast })
			switch {
			case s.CountCap != limit || !s.Complete:
				t.Errorf("seed %d cap %d: count_cap %d, complete %v", seed, limit, s.CountCap, s.Complete)
			case limit < 0 && (s.CountCapped > 0 || atLeast):
				t.Errorf("seed %d without a cap: %d capped, lower bounds %v", seed, s.CountCapped, atLeast)
			case s.CountCapped > 0 != atLeast:
				t.Errorf("seed %d cap %d: %d capped but lower bounds %v", seed, limit, s.CountCapped, atLeast)
			}
			if limit > 0 && s.CountCapped > 0 {
				capped++
			}
		}
	}
	if capped == 0 {
		t.Errorf("no trace needed more than one counting query: the test tests nothing")
	}
}
