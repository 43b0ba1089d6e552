package explicit

// This file implements the explicit answer to MCR seed queries
// (program.SeedQuery, DESIGN.md "Exploration algorithms"): VerifySC's
// witness-state search (seed 000 Algorithm 1, states = per-thread prefix
// lengths plus the memory) over the events of a trace, with optional
// events. Every executed read must return its traced value (Φ_rw of
// 001_aa53da3bf10d3f4e.txt Section 3.2), the target read returns the new
// value, threads may stop anywhere, and the goal is a state where the
// targets are reached and every Fixed read has executed. With every event
// mandatory and good writes given this is VerifySC itself; here memory maps
// hold values, since any write of the right value will do.
//
// As in VerifySC, harmless events (plain reads, releases, forks, joins,
// fences, begin/end) are taken greedily, and the trace order guides the
// depth-first search. A found schedule is cut down to the needed events
// (the MHB lower set of the targets and Fixed reads, the writes needed
// reads read from, recursively, the write halves of needed RMWs, and the
// releases that needed acquires wait for), in search order, as the Z3
// seeder of package encode does.

import (
	"context"
	"fmt"
	"slices"

	"mcr/program"
)

// Seeder answers seed queries by explicit search; it implements
// program.SeedDecider. The zero value is ready to use and safe for
// concurrent use.
type Seeder struct {
	// MaxStates bounds the distinct states one query visits (0: no
	// bound); a query that would visit more gives up with an error
	// wrapping program.ErrUnknown (ErrStates). Memory grows with the
	// states, so the bound bounds it too.
	MaxStates int
}

// ErrStates is the reason a query stopped at Seeder.MaxStates or
// VerifySC.MaxStates; it wraps program.ErrUnknown, so program.Fallback
// asks its next decider.
var ErrStates = fmt.Errorf("explicit: state budget exhausted: %w", program.ErrUnknown)

// Name implements program.SeedDecider.
func (Seeder) Name() string { return "explicit" }

// Decide implements program.SeedDecider.
func (d Seeder) Decide(ctx context.Context, q program.SeedQuery) (program.SeedAnswer, error) {
	s, err := newSeedSearch(ctx, q)
	if err != nil {
		return program.SeedAnswer{}, err
	}
	s.maxStates = d.MaxStates
	sched, ok, err := s.run()
	if err != nil || !ok {
		return program.SeedAnswer{}, err
	}
	return program.SeedAnswer{Sat: true, Schedule: sched}, nil
}

// SeedSearch answers the seed query "can read r (a position in t.Events)
// execute and read v, every other executed read returning its traced
// value?" and returns the schedule of the needed events, ending with r.
func SeedSearch(ctx context.Context, t *program.Trace, r int, v int64) (program.Schedule, bool, error) {
	a, err := Seeder{}.Decide(ctx, program.SeedQuery{Trace: t, Read: int32(r), Value: v, Race: [2]int32{-1, -1}})
	return a.Schedule, a.Sat, err
}

// seedSearch is one query over one trace. Events are trace positions.
type seedSearch struct {
	q      program.SeedQuery
	ev     []program.Event
	k, d   int
	pos    [][]int32           // per thread: positions of its events
	loc    []int32             // per event: dense location or lock
	forkOf []int32             // per thread: position of the fork creating it, or -1
	stop   []int32             // per thread: events from this index on never execute
	crit   [][]program.Section // per lock: sections (positions)
	init   []int64             // per location: initial value
	hidden bool                // the target writes an unknown value (an RMW target)
	tick   ticker
	tr     trail
	// maxStates is Seeder.MaxStates.
	maxStates int
}

func newSeedSearch(ctx context.Context, q program.SeedQuery) (*seedSearch, error) {
	t := q.Trace
	n := int32(len(t.Events))
	for _, p := range append([]int32{q.Read, q.Race[0], q.Race[1]}, q.Fixed...) {
		if p >= n {
			return nil, fmt.Errorf("explicit seed: position %d out of range (%d events)", p, n)
		}
	}
	if q.Read >= 0 && t.Events[q.Read].Kind != program.Read {
		return nil, fmt.Errorf("explicit seed: target %s is not a read", t.Describe(int(q.Read)))
	}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("explicit seed: %v", err)
	}
	x := program.NewTraceIndex(t) // t.Check passed: x.K == len(t.Threads)
	s := &seedSearch{q: q, ev: t.Events, k: x.K, pos: x.At, loc: make([]int32, n), forkOf: x.Fork,
		tick: ticker{ctx: ctx, name: "explicit seed"}}
	s.stop = make([]int32, s.k)
	for th := range s.k {
		s.stop[th] = int32(len(s.pos[th]))
	}
	locID := map[program.Loc]int32{}
	sections := x.Sections()
	for i := range t.Events {
		e := &t.Events[i]
		if e.Kind.IsAccess() || e.Kind.IsLock() {
			l, ok := locID[e.Loc]
			if !ok {
				l = int32(len(s.init))
				locID[e.Loc] = l
				s.init = append(s.init, t.InitValue(e.Loc))
				s.crit = append(s.crit, sections[e.Loc])
			}
			s.loc[i] = l
		}
	}
	s.d = len(s.init)
	// The target read is its thread's last event; race targets are next.
	if q.Read >= 0 {
		e := &t.Events[q.Read]
		s.stop[e.Thread] = e.Index + 1
		s.hidden = program.WritesAtTarget(e, q.Value)
	}
	for _, p := range q.Race {
		if p >= 0 {
			e := &t.Events[p]
			s.stop[e.Thread] = min(s.stop[e.Thread], e.Index)
		}
	}
	s.cutIrrelevant()
	return s, nil
}

// cutIrrelevant stops every thread after the last event a solution can
// need. A found schedule is cut down to the needed events anyway (see
// schedule), and those lie within the closure of the targets and Fixed
// reads under: MHB predecessors, every write that could give a needed read
// its value (same location and value), the write half of a needed RMW, and
// the release of a needed critical section. Events beyond it only enlarge
// the search: they write no value a needed read can use and hold no lock
// a needed acquire waits for.
func (s *seedSearch) cutIrrelevant() {
	q := s.q
	wl := newWorklist(len(s.ev))
	in, push := wl.in, wl.push
	push(q.Read)
	for _, p := range q.Race {
		push(p)
	}
	for _, f := range q.Fixed {
		push(f)
	}
	if len(wl.work) == 0 {
		return
	}
	var writers map[[2]int64][]int32 // (location, value) -> writes
	for p, ok := wl.pop(); ok; p, ok = wl.pop() {
		s.pushPreds(p, push)
		e := &s.ev[p]
		switch e.Kind {
		case program.Read:
			if writers == nil {
				writers = map[[2]int64][]int32{}
				for i := range s.ev {
					if w := &s.ev[i]; w.Kind == program.Write {
						k := [2]int64{int64(s.loc[i]), w.Value}
						writers[k] = append(writers[k], int32(i))
					}
				}
			}
			v := e.Value
			if p == q.Read {
				v = q.Value
			}
			for _, w := range writers[[2]int64{int64(s.loc[p]), v}] {
				push(w)
			}
			if e.Is(program.RMW) && p != q.Read && e.Index+1 < int32(len(s.pos[e.Thread])) {
				push(s.pos[e.Thread][e.Index+1])
			}
		case program.Acquire:
			for _, c := range s.crit[s.loc[p]] {
				if c.Acq == p {
					push(c.Rel)
				}
			}
		}
	}
	last := make([]int32, s.k) // per thread: 1 + index of its last needed event
	for p, ok := range in {
		if ok {
			e := &s.ev[p]
			last[e.Thread] = max(last[e.Thread], e.Index+1)
		}
	}
	for th := range s.k {
		s.stop[th] = min(s.stop[th], last[th])
	}
}

// sstate is a search state: prefix lengths, the value of each location,
// and whether the target's location holds the target's unknown write.
type sstate struct {
	prefix []int32
	mem    []int64
	unk    int32 // location holding an unknown value, or -1
	node   int32
}

func (s *seedSearch) done(p int32, prefix []int32) bool {
	e := &s.ev[p]
	return prefix[e.Thread] > e.Index
}

// enabled reports whether p, the next event of its thread, may execute as
// far as fork, join and locks go.
func (s *seedSearch) enabled(p int32, prefix []int32) bool {
	return s.reachable(p, prefix) && s.lockFree(p, prefix)
}

// reachable reports whether p, the next event of its thread, may execute
// as far as fork and join go.
func (s *seedSearch) reachable(p int32, prefix []int32) bool {
	e := &s.ev[p]
	if e.Index == 0 {
		if f := s.forkOf[e.Thread]; f >= 0 && !s.done(f, prefix) {
			return false
		}
	}
	switch e.Kind {
	case program.Join:
		if j := e.Value; j >= 0 && int(j) < s.k && prefix[j] < int32(len(s.pos[j])) {
			return false
		}
	}
	return true
}

// lockFree reports whether p is no acquire of a held lock.
func (s *seedSearch) lockFree(p int32, prefix []int32) bool {
	if s.ev[p].Kind != program.Acquire {
		return true
	}
	for _, c := range s.crit[s.loc[p]] {
		a := &s.ev[c.Acq]
		if pr := prefix[a.Thread]; pr > a.Index && (c.Rel < 0 || pr <= s.ev[c.Rel].Index) {
			return false
		}
	}
	return true
}

// canExec reports whether p (the next event of its thread, before its
// stop) can execute in x: enabled, and a read finds its value (the target
// the new value, every other read its traced value).
func (s *seedSearch) canExec(p int32, x *sstate) bool {
	if !s.enabled(p, x.prefix) {
		return false
	}
	e := &s.ev[p]
	if e.Kind != program.Read {
		return true
	}
	l := s.loc[p]
	want := e.Value
	if p == s.q.Read {
		want = s.q.Value
	}
	if x.unk == l || x.mem[l] != want {
		return false
	}
	if e.Is(program.RMW) && p != s.q.Read {
		// The write half executes with it; it must not be cut off.
		return e.Index+1 < s.stop[e.Thread]
	}
	return true
}

func (s *seedSearch) apply(x *sstate, p int32) *sstate {
	y := &sstate{prefix: slices.Clone(x.prefix), mem: slices.Clone(x.mem), unk: x.unk}
	e := &s.ev[p]
	y.node = s.tr.add(x.node, p, false)
	y.prefix[e.Thread]++
	l := s.loc[p]
	switch e.Kind {
	case program.Write:
		y.mem[l] = e.Value
		if y.unk == l {
			y.unk = -1
		}
	case program.Read:
		switch {
		case p == s.q.Read:
			if s.hidden {
				y.unk = l
			}
		case e.Is(program.RMW):
			w := s.pos[e.Thread][e.Index+1]
			y.node = s.tr.add(y.node, w, false)
			y.prefix[e.Thread]++
			y.mem[l] = s.ev[w].Value
			if y.unk == l {
				y.unk = -1
			}
		}
	}
	return y
}

// goal reports whether x answers the query.
func (s *seedSearch) goal(x *sstate) bool {
	q := s.q
	if q.Read >= 0 && !s.done(q.Read, x.prefix) {
		return false
	}
	for _, f := range q.Fixed {
		if !s.done(f, x.prefix) {
			return false
		}
	}
	for _, p := range q.Race {
		if p < 0 {
			continue
		}
		// A race target is next in its thread; an acquire among them (a
		// deadlock query) need not find its lock free.
		if e := &s.ev[p]; x.prefix[e.Thread] != e.Index || !s.reachable(p, x.prefix) {
			return false
		}
	}
	return true
}

// harmless reports whether p can be taken alone: it changes no memory and
// holds no lock, and it is no target.
func (s *seedSearch) harmless(p int32) bool {
	e := &s.ev[p]
	switch e.Kind {
	case program.Read:
		return p != s.q.Read && !e.Is(program.RMW)
	case program.Write, program.Acquire:
		return false
	}
	return true
}

func (s *seedSearch) run() (program.Schedule, bool, error) {
	for _, f := range s.q.Fixed {
		if e := &s.ev[f]; e.Index >= s.stop[e.Thread] {
			return nil, false, nil // a fixed read after a target
		}
	}
	root := &sstate{prefix: make([]int32, s.k), mem: slices.Clone(s.init), unk: -1, node: -1}
	seen := map[[2]uint64]bool{}
	var kb []byte
	skey := func(x *sstate) []byte {
		kb = key(kb, x.prefix, []int32{x.unk})
		for _, m := range x.mem {
			kb = appendVarint(kb, m)
		}
		return kb
	}
	seen[compact(skey(root))] = true
	stack := []*sstate{root}
	var cands []int32
	for len(stack) > 0 {
		if err := s.tick.tick(); err != nil {
			return nil, false, err
		}
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.goal(x) {
			return s.schedule(x), true, nil
		}
		cands = cands[:0]
		greedy := int32(-1)
		for th := range s.k {
			if x.prefix[th] >= s.stop[th] {
				continue
			}
			p := s.pos[th][x.prefix[th]]
			if !s.canExec(p, x) {
				continue
			}
			if s.harmless(p) && (greedy < 0 || p < greedy) {
				greedy = p
			}
			cands = append(cands, p)
		}
		if greedy >= 0 {
			cands = append(cands[:0], greedy)
		}
		// Trace order first: push the latest position first.
		slices.Sort(cands)
		for i := len(cands) - 1; i >= 0; i-- {
			mark := len(s.tr.parent)
			y := s.apply(x, cands[i])
			if k := compact(skey(y)); !seen[k] {
				if s.maxStates > 0 && len(seen) >= s.maxStates {
					return nil, false, ErrStates
				}
				seen[k] = true
				stack = append(stack, y)
			} else {
				// a state seen before: its trail nodes are never read
				s.tr.parent, s.tr.code = s.tr.parent[:mark], s.tr.code[:mark]
			}
		}
	}
	return nil, false, nil
}

// compact is the visited-set entry of a state key: two independent 64-bit
// hashes of it (FNV-1a and a multiply-xorshift mix), 16 bytes instead of
// the key's hundreds on traces with many locations. This is hash
// compaction (Wolper and Leroy, as in SPIN): two distinct states share an
// entry, and the second is wrongly taken as visited, with probability
// about n²/2^128 for n states, below 10^-24 for n = 10^7.
func compact(k []byte) [2]uint64 {
	h1, h2 := uint64(14695981039346656037), uint64(0x9e3779b97f4a7c15)
	for _, b := range k {
		h1 = (h1 ^ uint64(b)) * 1099511628211
		h2 = (h2 ^ uint64(b)) * 0xff51afd7ed558ccd
		h2 ^= h2 >> 29
	}
	return [2]uint64{h1, h2 ^ uint64(len(k))}
}

func appendVarint(b []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

// schedule cuts the path to x down to the needed events (see the file
// comment), race targets last.
func (s *seedSearch) schedule(x *sstate) program.Schedule {
	var path []int32
	for node := x.node; node >= 0; node = s.tr.parent[node] {
		path = append(path, s.tr.code[node]>>1)
	}
	slices.Reverse(path)
	order := make([]int32, len(s.ev)) // 1 + position in path, 0 if absent
	for i, p := range path {
		order[p] = int32(i) + 1
	}
	q := s.q
	wl := newWorklist(len(s.ev))
	in, push := wl.in, wl.push
	push(q.Read)
	for _, f := range q.Fixed {
		push(f)
	}
	race := func(p int32) bool { return p >= 0 && (p == q.Race[0] || p == q.Race[1]) }
	for _, p := range q.Race {
		if p >= 0 {
			s.pushPreds(p, push)
		}
	}
	for {
		for p, ok := wl.pop(); ok; p, ok = wl.pop() {
			s.pushPreds(p, push)
			e := &s.ev[p]
			if e.Kind == program.Read {
				push(s.source(p, order))
				if e.Is(program.RMW) && p != q.Read {
					push(s.pos[e.Thread][e.Index+1])
				}
			}
		}
		// Of two needed sections of a lock, the earlier one's release.
		changed := false
		for _, cs := range s.crit {
			for _, c1 := range cs {
				for _, c2 := range cs {
					if c1 != c2 && in[c1.Acq] && in[c2.Acq] && order[c1.Acq] < order[c2.Acq] && c1.Rel >= 0 && !in[c1.Rel] {
						push(c1.Rel)
						changed = true
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	var out program.Schedule
	for _, p := range path {
		if in[p] && !race(p) {
			out = append(out, s.ev[p].ID())
		}
	}
	for _, p := range q.Race {
		if p >= 0 {
			out = append(out, s.ev[p].ID())
		}
	}
	return out
}

// pushPreds pushes p's immediate MHB predecessors: the previous event of
// its thread (or the fork of a thread's first event) and, for a join, the
// joined thread's last event.
func (s *seedSearch) pushPreds(p int32, push func(int32)) {
	e := &s.ev[p]
	if e.Index > 0 {
		push(s.pos[e.Thread][e.Index-1])
	} else {
		push(s.forkOf[e.Thread])
	}
	if e.Kind == program.Join && e.Value >= 0 && int(e.Value) < s.k {
		if ps := s.pos[e.Value]; len(ps) > 0 {
			push(ps[len(ps)-1])
		}
	}
}

// source returns the write that read p read in the path (by order), or -1
// for the initial value.
func (s *seedSearch) source(p int32, order []int32) int32 {
	best := int32(-1)
	l := s.loc[p]
	for w := range s.ev {
		if s.ev[w].Kind == program.Write && s.loc[w] == l && order[w] > 0 && order[w] < order[p] &&
			(best < 0 || order[w] > order[best]) {
			best = int32(w)
		}
	}
	return best
}

// worklist is a set of trace positions with a stack of those not yet
// processed.
type worklist struct {
	in   []bool
	work []int32
}

func newWorklist(n int) *worklist { return &worklist{in: make([]bool, n)} }

// push adds p (ignoring -1 and positions already in).
func (w *worklist) push(p int32) {
	if p >= 0 && !w.in[p] {
		w.in[p] = true
		w.work = append(w.work, p)
	}
}

// pop takes the next position to process.
func (w *worklist) pop() (int32, bool) {
	if len(w.work) == 0 {
		return 0, false
	}
	p := w.work[len(w.work)-1]
	w.work = w.work[:len(w.work)-1]
	return p, true
}
