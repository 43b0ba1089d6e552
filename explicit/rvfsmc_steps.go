package explicit

// This file implements lines 1-11 of an RVF-SMC call (rvfsmc.go; seed 000
// Algorithm 2) with the reads that have one source stepped in place.
//
// Along one execution most calls of RVF-SMC have exactly one child: the
// first read r of lines 6-11 is not in C, every source it can see writes
// the same value as the active write of σ̃ (or it is an acquire that can
// only follow the last release of its mutex), so its one value group gives
// the child σ̃∘r (the auxiliary trace, no VerifySC), and after that child
// the loop of line 13 ends unless a descendant set r's backtrack signal.
// A call costs O(|σ̃|) (the guide, must-happen-before, the causal map's
// counts), so an execution of m reads cost O(m·|σ̃|): on 14 threads
// filling a hash table (indexer.c's shape) about 200 calls per execution,
// mcr 7x rf's time (issue 17).
//
// steps runs such an r at once on the same execution, as the call's own
// child would, and keeps the call's level (its σ̃, the reads of lines 6-11
// and r's ancestor entry) on a stack instead of recursing. When the
// calls below have finished, the levels are resumed deepest first, as the
// recursion would return to them: a level whose signal is unset ends as
// its loop would (lines 15-16; its other reads are pruned by backtrack
// signals); one whose signal is set runs the rest of its loop
// (mutateAll) with C(r) set (lines 29-30). The order of children, and so
// the executions and findings, are those of the recursion; only levels
// whose loop continues cost a call. A level with no other read to mutate
// needs no entry (forced_reads: its loop ends after r anyway).
//
// Resumed levels that find nothing (issue 17; filesystem.c at 26 threads:
// 18,408 levels resumed and 28,139 runs from the start for 508 executions
// in 60 s, where rf needs one run per execution). Threads t and t+13 start
// their block search at the same block b. The level that stepped t's
// acquire r of b's mutex is signalled once a descendant sees t+13's
// acquire of it pending (signal), so the level mutates its other reads in
// turn, each child run from the start, with C(r) forbidding every release
// of b in the level's σ̃. In a child of another thread's read, r can only
// follow a release of b made after σ̃, which needs a later acquire of b; if
// t+13's acquire was mutated before (C forbids it the same releases), no
// thread the trace shows can make one, and the subtree ends without a
// leaf. A sound cut would need "no thread acquires b after σ̃ in any trace
// of the subtree", and the explorer knows nothing of a thread's code
// beyond its next event: any running thread may still reach b (a search
// that fails elsewhere goes on to the next block). The necessary condition
// it can check, every other thread finished or stuck, holds at no resumed
// level of these programs; so none is cut, and the cost is paid per run
// instead (views, singleWriters' allocations, the signals above).

import (
	"slices"

	"mcr/program"
	"mcr/program/explore"
)

// rvfLevel is a call whose first read was stepped in place: its σ̃, the
// reads of its lines 6-11 (the stepped one first), the ancestor entry of
// that read, and how many good-writes entries the enclosing call had set
// before it (steps' set).
type rvfLevel struct {
	tr     *program.Trace
	mutate []program.Event
	call   rvfCall
	anc    *rvfAncestor
	set    int
}

// steps is lines 1-11 of the call on x, which has run σ, and the rest of
// the call, with reads of one source stepped in place (see the file
// comment). C is the call's causal map; sw, if not nil, has followed x's
// trace so far (the parent's, handed on with x); v, if not nil, is a view
// of a prefix of x's trace (rvfsmc_view.go). It returns true if the
// exploration must stop.
func (s *rvfSMC) steps(x program.Execution, C rvfCausal, sw *singleWriters, v *rvfTrace, learn contLearn) bool {
	var (
		mutate []program.Event
		wait   []program.Event // for rvfCall: the waiting threads' events
		quiet  bool
		set    []program.EventID // reads stepped here, whose good writes this call set
		levels []rvfLevel
		// per thread: the pending event it signalled for last, and the
		// innermost ancestor then
		signalled []signalMark
		tries     trylockScan
	)
	if v != nil { // a view of a prefix of x's trace: its events were looked at
		tries = trylockScan{seen: len(v.tr.Events), try: v.try}
	}
	up := s.anc
	defer func() {
		for _, id := range set {
			delete(s.good, id)
		}
		s.anc = up
	}()
	for {
		n := len(x.Trace().Events)
		extendNoReads(x) // line 1
		tr := x.Trace()
		if learn.key != "" {
			s.learnCont(learn, tr, n, x)
			learn = contLearn{}
		}
		// Lines 2-5: the writes of σ̂ (and pending RMWs, Appendix A) are new
		// sources for the ancestors' reads of their location.
		for i := n; i < len(tr.Events); i++ {
			if e := &tr.Events[i]; e.Kind == program.Write || e.Kind == program.Release {
				s.signal(e.Thread, locKey{e.Loc, e.Kind == program.Release})
			}
		}
		mutate = mutate[:0] // lines 6-11
		quiet, wait = true, wait[:0]
		for t := 0; t < x.Threads(); t++ {
			e, st := x.Pending(program.ThreadID(t))
			switch {
			case st == program.Finished || st == program.Absent || st == program.Stuck:
			case st == program.Waiting && (e.Kind == program.Acquire || e.Kind == program.Join):
				wait = append(wait, e)
			case st != program.Enabled || !readLike(&e):
				quiet = false
			case e.Kind == program.Read && e.Is(program.CAS) && !s.casArgsKnown(x, []program.Event{e}):
				quiet = false
			}
			if pendingSignals(&e) {
				// A thread still at the event it was at in the last round
				// signalled the ancestors up to that round's innermost
				// already: only the levels added since need it (indexer:
				// 14 threads at acquires, each walking every ancestor
				// in every round, cost a twentieth of rvf's time).
				stop := (*rvfAncestor)(nil)
				if t < len(signalled) && signalled[t].id == e.ID() && signalled[t].ok {
					stop = signalled[t].top
				}
				s.signalUpTo(program.ThreadID(t), locKey{e.Loc, e.Kind == program.Acquire}, stop)
				for len(signalled) <= t {
					signalled = append(signalled, signalMark{})
				}
				signalled[t] = signalMark{e.ID(), s.anc, true}
			}
			if st != program.Enabled || !readLike(&e) {
				continue
			}
			if _, ok := C[e.ID()]; ok {
				mutate = append(mutate, e)
			} else {
				mutate = append([]program.Event{e}, mutate...)
			}
		}
		if over, _ := x.Done(); over || len(mutate) == 0 || !s.mayStep(C, &mutate[0]) || len(mutate) > 1 && !s.casArgsKnown(x, mutate) {
			break // before singleWriters' pass over the trace, which costs
		}
		if sw == nil {
			sw = newSingleWriters(s.good)
		}
		sw.add(tr)
		r := mutate[0]
		w, ok := sw.onlySource(&r)
		if !ok {
			break
		}
		if len(mutate) == 1 {
			s.sink.Extra("forced_reads", 1)
		} else {
			a := &rvfAncestor{thread: r.Thread, loc: locKey{r.Loc, r.Kind == program.Acquire}, up: s.anc}
			l := rvfLevel{tr: snapshot(tr), mutate: slices.Clone(mutate), anc: a, set: len(set)}
			l.call = rvfCall{all: l.mutate, wait: slices.Clone(wait), quiet: quiet && !tries.in(tr)}
			levels = append(levels, l)
			s.anc = a
			s.sink.Extra("stepped_reads", 1)
		}
		s.good[r.ID()] = []program.EventID{w}
		set = append(set, r.ID())
		x.Step(r.Thread)
		if s.ctx.Err() != nil {
			s.sink.Stop(explore.StopReason(s.ctx), false)
			return true
		}
		if s.sink.done() {
			return true
		}
	}
	tr := snapshot(x.Trace()) // x runs on below (args, a child), so keep σ̃ as it is now
	if s.cfg.validate {       // O(|σ̃|) per call: a check of the implementation
		s.checkValues(tr)
	}
	try := tries.in(tr) // noteTrylocks, incrementally
	if try {
		s.sink.Extra("trylocks", 1)
		s.sink.Stop(explore.TrylocksNotExplored, true)
	}
	call := &rvfCall{all: slices.Clone(mutate), wait: slices.Clone(wait), quiet: quiet && !try}
	var deepest *rvfTrace // the view of tr, if it is not a leaf
	if over, _ := x.Done(); !over && len(mutate) > 0 {
		deepest = traceView(v, tr, s.slab)
	}
	stop := s.mutateAll(tr, deepest, x, sw, mutate, call, C, len(levels) == 0) // C comes back as it was: the levels' C
	for k := len(levels) - 1; k >= 0; k-- {
		l := &levels[k]
		for _, id := range set[l.set:] {
			delete(s.good, id)
		}
		set = set[:l.set]
		s.anc = l.anc.up
		if stop {
			continue // only restore
		}
		if !l.anc.signal.Load() {
			s.sink.Extra("pruned_by_backtrack", float64(len(l.mutate)-1))
			continue
		}
		s.sink.Extra("levels_resumed", 1)
		if deepest == nil {
			deepest = traceView(v, tr, s.slab)
		}
		lv := deepest.prefix(l.tr)
		mark := len(s.cundo)
		s.setC(C, l.mutate[0].ID(), lv.threadCounts()) // lines 29-30
		stop = s.mutateAll(l.tr, lv, nil, nil, l.mutate[1:], &l.call, C, false)
		if !stop { // as mutateAll's
			s.restoreC(C, mark)
		}
	}
	return stop
}

// trylockScan is explore.HasTrylock over a growing trace, each event
// looked at once (it was once per stepped read: indexer's 400 events
// 80,000 times).
type trylockScan struct {
	seen int
	try  bool
}

func (ts *trylockScan) in(tr *program.Trace) bool {
	for ; ts.seen < len(tr.Events); ts.seen++ {
		if explore.IsTrylock(&tr.Events[ts.seen]) {
			ts.try = true
		}
	}
	return ts.try
}

type signalMark struct {
	id  program.EventID
	top *rvfAncestor
	ok  bool
}

// pendingSignals reports whether a pending e is a new source for the
// ancestors' reads of its location (lines 3-5 with Appendix A): an RMW or
// CAS read, or an acquire, enabled or waiting (see signal).
func pendingSignals(e *program.Event) bool {
	return e.Kind == program.Read && (e.Is(program.RMW) || e.Is(program.CAS)) || e.Kind == program.Acquire
}

// snapshot returns tr as it is now: an execution appends to its trace,
// and the copy keeps the events and threads it has.
func snapshot(tr *program.Trace) *program.Trace {
	snap := *tr
	snap.Events = snap.Events[:len(snap.Events):len(snap.Events)]
	snap.Threads = snap.Threads[:len(snap.Threads):len(snap.Threads)]
	return &snap
}

// threadCounts returns the number of events of each thread of tr.
func threadCounts(tr *program.Trace) []int32 {
	cnt := make([]int32, len(tr.Threads))
	for i := range tr.Events {
		cnt[tr.Events[i].Thread]++
	}
	return cnt
}

// casArgsKnown reports whether the pending CAS reads of mutate have their
// expected values without running them (learnCASArgs): a resumed level
// has no execution to run them on.
func (s *rvfSMC) casArgsKnown(x program.Execution, mutate []program.Event) bool {
	for i := range mutate {
		if mutate[i].Kind == program.Read && mutate[i].Is(program.CAS) {
			pa, ok := x.(program.PendingArgs)
			return ok && pa.PendingArgs() && !s.cfg.validate
		}
	}
	return true
}

// mayStep reports the conditions of stepping r in place on r alone: a
// plain read (no RMW, CAS, no dereference a null prediction may be asked
// about) or an acquire (no trylock), that C leaves undefined (lines 15-16
// apply to it).
func (s *rvfSMC) mayStep(C rvfCausal, r *program.Event) bool {
	switch {
	case r.Kind == program.Acquire:
		if r.Is(program.Try) {
			return false
		}
	case r.Kind != program.Read || r.Is(program.RMW) || r.Is(program.CAS) || s.cfg.PredictNull && r.Is(program.Deref):
		return false
	}
	_, ok := C[r.ID()]
	return !ok
}

// singleWriters follows, over a growing trace, which locations (and
// mutexes) have totally ordered writes (releases): each must happen
// before the next; their last write, and must-happen-before as vector
// clocks, for onlySource. Must-happen-before here is program order, fork,
// join, and the order of a release before an acquire whose good writes are
// that release alone: every witness of the call's (X, GoodW) keeps it, so
// a critical section entered after another sees the writes made in it in
// that order (a loop inside a critical section that another thread
// entered before: issue 17).
type singleWriters struct {
	idx   [2]map[program.Loc]int32 // per location (0) and mutex (1): its entry in ws
	ws    []lastWrite
	rel   map[uint64][]int32 // the clock of each release, by eventKey
	good  map[program.EventID][]program.EventID
	clock [][]int32 // per thread: events of each thread before its next one
	seen  int       // events of the trace added
	k     int       // threads of the trace: the width rows are allocated at
	slab  []int32   // where new rows are cut from (one allocation for many)
}

// lastWrite is what singleWriters knows of the writes of one location
// (releases of one mutex).
type lastWrite struct {
	maxW    []int32 // per thread: 1 + index of its last write there
	last    program.EventID
	ordered bool // every write must happen before the next
}

// eventKey packs an event identity into a map key of the fast kind.
func eventKey(id program.EventID) uint64 {
	return uint64(uint32(id.Thread))<<32 | uint64(uint32(id.Index))
}

// newSingleWriters follows a trace whose reads and acquires have the good
// writes good (read only; entries set later must not change earlier ones).
func newSingleWriters(good map[program.EventID][]program.EventID) *singleWriters {
	return &singleWriters{idx: [2]map[program.Loc]int32{{}, {}}, rel: map[uint64][]int32{}, good: good}
}

// widen returns c extended with zeros to length n, allocating at most once
// for the trace's threads (sw.k): rows grew one thread at a time before.
func (sw *singleWriters) widen(c []int32, n int) []int32 {
	if len(c) >= n {
		return c
	}
	if cap(c) < n {
		d := sw.row(max(n, sw.k))[:len(c)]
		copy(d, c)
		c = d
	}
	return c[:n]
}

// row returns a zeroed row of n entries (capacity n), cut from sw.slab: a
// replay's pass over a long trace makes a row per location and release
// (indexer.c: 256 locations and mutexes initialised by main), a fifth of
// rvf's time there as separate allocations (issue 17).
func (sw *singleWriters) row(n int) []int32 {
	if len(sw.slab) < n {
		sw.slab = make([]int32, max(16*n, 256))
	}
	c := sw.slab[:n:n]
	sw.slab = sw.slab[n:]
	return c
}

func (sw *singleWriters) clockOf(t program.ThreadID) []int32 {
	for int(t) >= len(sw.clock) {
		sw.clock = append(sw.clock, nil)
	}
	return sw.clock[t]
}

// join makes thread t's clock at least c.
func (sw *singleWriters) join(t program.ThreadID, c []int32) {
	own := sw.widen(sw.clockOf(t), len(c))
	for u, n := range c {
		own[u] = max(own[u], n)
	}
	sw.clock[t] = own
}

func (sw *singleWriters) add(tr *program.Trace) {
	sw.k = max(sw.k, len(tr.Threads))
	if sw.seen == 0 && len(sw.ws) == 0 {
		// Sized for the trace so far (its writes and releases bound the
		// entries): the maps grew entry by entry.
		var nw, nr int
		for i := range tr.Events {
			switch tr.Events[i].Kind {
			case program.Write:
				nw++
			case program.Release:
				nr++
			}
		}
		nw, nr = min(nw, 4096), min(nr, 4096)
		sw.idx = [2]map[program.Loc]int32{make(map[program.Loc]int32, nw), make(map[program.Loc]int32, nr)}
		sw.rel = make(map[uint64][]int32, nr)
		sw.ws = make([]lastWrite, 0, nw+nr)
		// Rows for the trace so far: a clock per thread and per release,
		// and the last writes of each location and mutex. A fixed chunk of
		// 1,024 entries was three times what lastzero's calls used, and
		// clearing it a tenth of their allocation (issue 17).
		sw.slab = make([]int32, min((sw.k+nw+2*nr)*sw.k, 1<<16))
	}
	for ; sw.seen < len(tr.Events); sw.seen++ {
		e := &tr.Events[sw.seen]
		if e.Kind == program.Acquire {
			if g := sw.good[e.ID()]; len(g) == 1 && g[0] != program.InitID {
				sw.join(e.Thread, sw.rel[eventKey(g[0])])
			}
		}
		sw.join(e.Thread, nil)
		c := sw.widen(sw.clock[e.Thread], int(e.Thread)+1)
		c[e.Thread] = e.Index + 1
		sw.clock[e.Thread] = c
		switch e.Kind {
		case program.Fork:
			sw.join(program.ThreadID(e.Value), c)
		case program.Join:
			if e.Value >= 0 {
				sw.join(e.Thread, sw.clockOf(program.ThreadID(e.Value)))
			}
		case program.Release:
			rc := sw.row(len(c))
			copy(rc, c)
			sw.rel[eventKey(e.ID())] = rc
			sw.written(1, e, c)
		case program.Write:
			sw.written(0, e, c)
		}
	}
}

// written records e, a write of its location (kind 0) or a release of its
// mutex (kind 1), whose thread's clock is c.
func (sw *singleWriters) written(kind int, e *program.Event, c []int32) {
	i, ok := sw.idx[kind][e.Loc]
	if !ok {
		i = int32(len(sw.ws))
		sw.idx[kind][e.Loc] = i
		sw.ws = append(sw.ws, lastWrite{})
	}
	lw := &sw.ws[i]
	ordered := true
	for u, n := range lw.maxW {
		if u != int(e.Thread) && (u >= len(c) || c[u] < n) {
			ordered = false
			break
		}
	}
	lw.maxW = sw.widen(lw.maxW, int(e.Thread)+1)
	lw.maxW[e.Thread] = e.Index + 1
	lw.ordered = ordered // the earlier writes are hidden by this one
	lw.last = e.ID()
}

// before reports whether w must happen before the next event of thread t.
func (sw *singleWriters) before(w program.EventID, t program.ThreadID) bool {
	c := sw.clockOf(t)
	return int(w.Thread) < len(c) && c[w.Thread] > w.Index
}

// onlySource reports whether r, pending after the trace sw has added, can
// read one source only, and which: init if nothing wrote its location (no
// release of its mutex), else the last write (release) if the writes so
// far each must happen before the next and the last must happen before r.
// That write hides the earlier ones and init, so VisibleW(r) of lines
// 17-18 has one value group, holding the active write of σ̃, and its child
// is σ̃∘r. (A write that only the release-acquire order of this
// must-happen-before hides may still be counted visible by sources; its
// group has no witness, since every witness keeps that order.)
func (sw *singleWriters) onlySource(r *program.Event) (program.EventID, bool) {
	kind := 0
	if r.Kind == program.Acquire {
		kind = 1
	}
	i, ok := sw.idx[kind][r.Loc]
	if !ok {
		return program.InitID, true
	}
	if lw := &sw.ws[i]; lw.ordered && sw.before(lw.last, r.Thread) {
		return lw.last, true
	}
	return program.EventID{}, false
}
