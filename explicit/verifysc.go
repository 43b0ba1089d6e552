package explicit

// This file implements VerifySC, Algorithm 1 of seed 000
// (000_1fb260b9b3a323b2.txt, Section 4.1): deciding VSC(X, GoodW) by
// enumerating witness states, i.e. pairs (executed lower set of (X, PO),
// memory map). The paper's memory map holds the thread of each location's
// active write, which with the lower set names the write; we hold the
// write itself, canonicalised: writes that are good writes of exactly the
// same reads are interchangeable (every later step asks of the active
// write only which reads may read it), so a class representative stands
// for all (with value-based good writes, the writes of one value). With k
// threads, n events and d locations there are at most n^k * k^d states:
// polynomial for a fixed number of threads and locations.
//
// With the practical heuristics of Section 4.2:
//  1. greedy steps: an executable read is taken alone, and so is a write
//     when both it and the active write of its location are good writes of
//     no remaining read; we also take alone every other event that cannot
//     hurt (release, fork, join, begin, end, fence; not a release of a lock
//     that a failed trylock reads, which may need its section open);
//  2. closure (closure.go): the search only takes P-minimal events;
//  3. guidance by an auxiliary trace (Instance.Guide): if it is a witness it
//     is returned at once, otherwise the worklist is a stack and extensions
//     are pushed in reverse guide order. Without a guide, a linearization
//     of the closure (threads round robin) stands in for it.
//
// Appendix A: an RMW/CAS read is executable only if its write half is
// executable right after it, and both are taken as one step; an acquire
// needs its lock free (and, when constrained, its lock's last release among
// its sources); fork and join extend the program order. A failed trylock
// (program.LockFail) needs its lock held by one of its sources (acquires;
// 002_29f9f830801bf5b9.txt Section 7); closure puts one with a single
// source inside that source's section.

import (
	"context"
	"slices"

	"mcr/program"
)

// VerifySC is the VerifySC decider (SC, good-writes or reads-from). The
// switches turn the Section 4.2 heuristics off for ablation.
type VerifySC struct {
	NoGreedy  bool // no greedy steps
	NoClosure bool // no closure
	NoGuide   bool // ignore Instance.Guide
	// MaxStates bounds the witness states one query inserts (0: no
	// bound); a query that would insert more gives up with ErrStates.
	// The search is exponential in the number of threads (n^k lower
	// sets): the budget lets a portfolio hand the hard queries to Z3.
	MaxStates int
}

// Name implements program.Decider.
func (d *VerifySC) Name() string { return "verifysc" }

// Decide implements program.Decider.
func (d *VerifySC) Decide(ctx context.Context, inst *program.Instance) (program.InstanceAnswer, error) {
	return program.NewInstanceAnswer(d.decide(ctx, inst))
}

// decide is Decide's search: a witness and true, or false if there is none.
func (d *VerifySC) decide(ctx context.Context, inst *program.Instance) (program.Witness, bool, error) {
	if inst.Model != program.SC {
		return nil, false, unsupported("verifysc", inst)
	}
	if err := inst.Check(); err != nil {
		return nil, false, err
	}
	v := newView(inst)
	v.ctx = ctx
	s := &scSearch{v: v, opts: *d, tick: ticker{ctx: ctx, name: "verifysc"}, readsOf: make([][]int32, v.d),
		tracked: make([]bool, v.d), tryFail: make([]bool, v.d), rank: make([]int32, v.n)}
	for e := range int32(v.n) {
		switch v.kind[e] {
		case program.Read:
			s.readsOf[v.loc[e]] = append(s.readsOf[v.loc[e]], e)
		case program.Acquire:
			s.tracked[v.loc[e]] = s.tracked[v.loc[e]] || v.src[e] != nil
		case program.LockFail:
			s.tryFail[v.loc[e]] = true
		}
		s.rank[e] = int32(v.n) + e
	}
	if !d.NoGuide {
		for pos, st := range inst.Guide {
			if e := inst.Dense(st.Event); !st.Flush && e >= 0 && s.rank[e] >= int32(v.n) {
				s.rank[e] = int32(pos)
			}
		}
		if w, ok := s.followGuide(); ok {
			return w, true, nil
		}
	}
	if !d.NoClosure {
		p, ok, err := closureSC(v)
		if err != nil || !ok {
			return nil, false, err // no closure: no witness
		}
		s.p = p
		if d.NoGuide || len(inst.Guide) == 0 {
			// No auxiliary trace: a linearization of the closure, threads
			// interleaved round robin, stands in for one.
			rr := make([]int32, v.n)
			glue := make([]int32, v.n)
			for e := range int32(v.n) {
				rr[e] = v.idx[e]*int32(v.k) + v.th[e]
				glue[e] = -1
			}
			for pos, e := range p.linearize(rr, glue) {
				s.rank[e] = int32(pos)
			}
		}
	}
	s.classes() // after closure, which answers most negative instances alone
	return s.run()
}

type scSearch struct {
	v       *view
	opts    VerifySC
	p       *porder // closure, or nil
	tick    ticker
	readsOf [][]int32 // per location: its reads
	tracked []bool    // per lock: some acquire is constrained, so its last release is state
	tryFail []bool    // per lock: some failed trylock needs it held, so a release is no greedy step
	rank    []int32   // per event: position in the guide (n+e if absent)
	canon   []int32   // per write or release: its class representative
	canonIn []int32   // per location or lock: the representative of init
	tr      trail
	arena   []int32 // see carve
	block   int     // states per arena block
}

// classes computes the representatives of writes (and releases) with the
// same readers, init first.
func (s *scSearch) classes() {
	v := s.v
	s.canon, s.canonIn = make([]int32, v.n), make([]int32, v.d)
	rep := map[string]int32{}
	sig := func(l int32, rd []int32) string { return string(key(nil, []int32{l}, rd)) }
	for l := range int32(v.d) {
		s.canonIn[l] = program.InitSource
		rep[sig(l, v.initRd[l])] = program.InitSource
	}
	for e := range int32(v.n) {
		if k := v.kind[e]; k != program.Write && k != program.Release {
			continue
		}
		k := sig(v.loc[e], v.readers[e])
		r, ok := rep[k]
		if !ok {
			r = e
			rep[k] = e
		}
		s.canon[e] = r
	}
}

// scState is a witness state with the trail node of its prefix.
type scState struct {
	prefix, mem []int32
	node        int32
}

func (s *scSearch) run() (program.Witness, bool, error) {
	v := s.v
	// Line 1: S <- {ε}; Done <- {ε}.
	root := &scState{prefix: make([]int32, v.k), mem: make([]int32, v.d), node: -1}
	for l := range root.mem {
		root.mem[l] = s.canonIn[l]
	}
	done := map[string]bool{}
	var kb []byte
	done[string(key(kb, root.prefix, root.mem))] = true
	stack := []scState{*root}
	var cands []int32
	next := make([]int32, v.k+v.d) // τ_e before it is known to be new
	// Line 2: while S is not empty.
	for len(stack) > 0 {
		if err := s.tick.tick(); err != nil {
			return nil, false, err
		}
		// Line 3: extract τ (last in, first out, so that guidance works).
		x := &scState{}
		*x = stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		// Line 4: all events executed: τ is a witness.
		if s.complete(x.prefix) {
			return s.tr.witness(v, x.node), true, nil
		}
		// Line 5: the events executable in τ, or one greedy event.
		cands = s.executable(x, cands[:0])
		if !s.opts.NoGreedy {
			if e := s.greedy(x, cands); e >= 0 {
				cands = append(cands[:0], e)
			}
		}
		slices.SortFunc(cands, func(a, b int32) int { return int(s.rank[b] - s.rank[a]) })
		for _, e := range cands {
			// Line 6: τ_e <- τ ∘ e, into next: most are not new, and
			// allocating each was a third of the search's time.
			s.apply(x, e, next[:v.k], next[v.k:])
			// Lines 7-8: insert τ_e if its witness state is new.
			kb = key(kb, next[:v.k], next[v.k:])
			if !done[string(kb)] {
				if s.opts.MaxStates > 0 && len(done) >= s.opts.MaxStates {
					return nil, false, ErrStates
				}
				done[string(kb)] = true
				buf := s.carve(len(next))
				copy(buf, next)
				stack = append(stack, scState{prefix: buf[:v.k:v.k], mem: buf[v.k:], node: s.step(x.node, e)})
			}
		}
	}
	// Line 9: no witness.
	return nil, false, nil
}

func (s *scSearch) complete(prefix []int32) bool {
	for t := range int32(s.v.k) {
		if prefix[t] < s.v.end(t) {
			return false
		}
	}
	return true
}

// held reports whether location l is held after the prefix: some
// unexecuted read has all its good writes executed (Section 4.1).
func (s *scSearch) held(l int32, prefix []int32) bool {
	for _, r := range s.readsOf[l] {
		if !s.v.done(r, prefix) && s.v.allDone(r, prefix) {
			return true
		}
	}
	return false
}

// executable appends the events executable in x (an RMW read stands for
// the pair).
func (s *scSearch) executable(x *scState, out []int32) []int32 {
	v := s.v
	for t := range int32(v.k) {
		if x.prefix[t] == v.end(t) {
			continue
		}
		if e := v.start[t] + x.prefix[t]; s.canExec(e, x) {
			out = append(out, e)
		}
	}
	return out
}

func (s *scSearch) canExec(e int32, x *scState) bool {
	v := s.v
	if !v.lowerOK(e, x.prefix) || s.p != nil && !s.p.minimal(e, x.prefix) {
		return false
	}
	l := v.loc[e]
	switch v.kind[e] {
	case program.Read:
		// (1) A read needs an active good write.
		if !contains(v.src[e], x.mem[l]) {
			return false
		}
		if v.rmw[e] {
			// Appendix A: the write half must be executable right after.
			t := v.th[e]
			x.prefix[t]++
			ok := (s.p == nil || s.p.minimal(e+1, x.prefix)) && !s.held(l, x.prefix)
			x.prefix[t]--
			return ok
		}
	case program.Write:
		// (2) A write needs its location not held.
		return !s.held(l, x.prefix)
	case program.Acquire:
		return v.lockFree(l, x.prefix) && (v.src[e] == nil || contains(v.src[e], x.mem[l]))
	case program.LockFail:
		return v.failOK(e, x.prefix)
	}
	return true
}

// greedy returns an event to take alone (Section 4.2, "1. Limiting the
// search space"), or -1.
func (s *scSearch) greedy(x *scState, cands []int32) int32 {
	v := s.v
	best := int32(-1)
	for _, e := range cands {
		switch v.kind[e] {
		case program.Read:
			if v.rmw[e] {
				continue
			}
		case program.Release:
			if v.kind[e] == program.Release && s.tryFail[v.loc[e]] {
				continue // a failed trylock may still need the section open
			}
		case program.Fork, program.Join, program.Begin, program.End, program.Fence:
		default:
			continue
		}
		if best < 0 || s.rank[e] < s.rank[best] {
			best = e
		}
	}
	if best >= 0 {
		return best // (1) a read (or another harmless event)
	}
	for _, e := range cands {
		if v.kind[e] == program.Write && !v.inst.Events[e].Is(program.RMWWrite) {
			l := v.loc[e]
			if s.noRemainingReader(x.mem[l], l, x.prefix) && s.noRemainingReader(e, l, x.prefix) {
				return e // (2) a write that overwrites a useless active write uselessly
			}
		}
	}
	return -1
}

// noRemainingReader reports whether write w (init if negative) of location
// l is a good write of no unexecuted read.
func (s *scSearch) noRemainingReader(w, l int32, prefix []int32) bool {
	rd := s.v.initRd[l]
	if w >= 0 {
		rd = s.v.readers[w]
	}
	for _, r := range rd {
		if !s.v.done(r, prefix) {
			return false
		}
	}
	return true
}

// apply writes the prefix and memory of x ∘ e into prefix and mem.
func (s *scSearch) apply(x *scState, e int32, prefix, mem []int32) {
	v := s.v
	copy(prefix, x.prefix)
	copy(mem, x.mem)
	t, l := v.th[e], v.loc[e]
	prefix[t]++
	switch v.kind[e] {
	case program.Write:
		mem[l] = s.canon[e]
	case program.Release:
		if s.tracked[l] {
			mem[l] = s.canon[e]
		}
	case program.Read:
		if v.rmw[e] {
			prefix[t]++
			mem[l] = s.canon[e+1]
		}
	}
}

// step returns the trail node of e (with its write half, for an RMW read)
// after node.
func (s *scSearch) step(node, e int32) int32 {
	node = s.tr.add(node, e, false)
	if s.v.kind[e] == program.Read && s.v.rmw[e] {
		node = s.tr.add(node, e+1, false)
	}
	return node
}

// carve returns n int32s from the search's arena: the states' vectors are
// allocated in blocks, not one by one, of 8 states first, then twice as
// many each time up to 1,024.
func (s *scSearch) carve(n int) []int32 {
	if len(s.arena) < n {
		s.block = min(max(2*s.block, 8), 1024)
		s.arena = make([]int32, s.block*n)
	}
	b := s.arena[:n:n]
	s.arena = s.arena[n:]
	return b
}

// followGuide replays the guide's thread events (Section 4.2, "3."): if
// they are all the events and every read finds a good write active, the
// guide is a witness.
func (s *scSearch) followGuide() (program.Witness, bool) {
	v := s.v
	if len(v.inst.Guide) == 0 {
		return nil, false
	}
	x := &scState{prefix: make([]int32, v.k), mem: make([]int32, v.d), node: -1}
	for l := range x.mem {
		x.mem[l] = program.InitSource
	}
	want := int32(-1) // the write half that must come next
	for _, st := range v.inst.Guide {
		if st.Flush {
			continue
		}
		e := v.inst.Dense(st.Event)
		if e < 0 || x.prefix[v.th[e]] != v.idx[e] || want >= 0 && e != want || !v.lowerOK(e, x.prefix) {
			return nil, false
		}
		l := v.loc[e]
		switch v.kind[e] {
		case program.Read:
			if !contains(v.src[e], x.mem[l]) {
				return nil, false
			}
		case program.Acquire:
			if !v.lockFree(l, x.prefix) || v.src[e] != nil && !contains(v.src[e], x.mem[l]) {
				return nil, false
			}
		case program.LockFail:
			if !v.failOK(e, x.prefix) {
				return nil, false
			}
		}
		want = -1
		if v.rmw[e] {
			want = e + 1
		}
		x.node = s.tr.add(x.node, e, false)
		x.prefix[v.th[e]]++
		if k := v.kind[e]; k == program.Write || k == program.Release && s.tracked[l] {
			x.mem[l] = e
		}
	}
	if want >= 0 || !s.complete(x.prefix) {
		return nil, false
	}
	return s.tr.witness(v, x.node), true
}
