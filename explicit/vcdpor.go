package explicit

// This file implements VC-DPOR, Algorithms 5-7 of seed 003
// (003_0c44ef4d03fff5a7.txt, Section 5): stateless model checking under the
// value-happens-before equivalence (VHB). Two traces are VHB-equivalent
// when they have the same events, values and root sides, the same causal
// order on reads, and the same happens-before order on the events of the
// leaf threads (Section 3). A call VC-DPOR(P, C) realizes the closed
// annotated partial order P (explicit/apo: Realize, Lemma 4.1), runs the
// witness and extends it by every enabled event that is not a read
// (WExtend), extends P to the new events (Extend: a root event goes after
// its thread; a leaf write takes every place among the conflicting leaf
// events), and then gives the enabled read of the root (ExtendRoot,
// Algorithm 6: per side, local or remote, every value of a candidate
// write) and of each leaf (ExtendLeaf, Algorithm 7: every value of a
// candidate write, every place among the conflicting leaf writes), each
// closed by Closure and explored recursively. The causally-happens-before
// map C keeps a read from choosing again among writes an earlier sibling
// already offered it: C(r)(p) is the last read of thread p whose writes
// after it are still candidates for r.
//
// The implementation notes of Section 6: dynamic threads add their spawn
// and join orderings to the partial orders (apo.Local events), and the root
// is the first thread main spawns (main itself if it spawns none), found by
// running main alone to its first spawn (before it, main is the only
// thread, so that run is the same in every execution). The initial value
// of a location is a write of a virtual leaf thread ordered before every
// thread (the "salient write" of Section 3).
//
// The never-good / unobservable relaxation of Section 6 (implementation
// detail 3): Extend orders two conflicting leaf writes only if both are
// observable (apo.Observable: a good write of some read, visible to it) and
// good writes of different reads (writes good for the same reads stand for
// each other), and a leaf read with a leaf write only if the write is
// observable (the paper orders a leaf read with every conflicting leaf
// write; we extend its rule to these pairs). When a read makes writes good
// they are ordered then (orderGood). Whatever stays unordered, realize
// decides exactly: apo.RelaxedClosure (only orderings every linearization
// has; Closure when Mwidth(P|X2) = 1), the witness of Lemma 4.1 if it is
// one, else VerifySC (seed 000 Algorithm 1) on the apo.ToInstance instance.
// So the relaxation never loses a class; siblings still differ in a read's
// value, side, good writes or an ordering, so no trace is explored twice
// and there are never more executions than Mazurkiewicz classes (checked
// against dfs on random programs).
//
// Locks, as Remark 4 says: an acquire is a read of its lock and a release
// a write of it (value 0, initial release included), and an acquire's good
// writes are one release that no other acquire has. An acquire thus chooses
// the critical section it follows (its candidates, as for reads, the
// releases the CHB map leaves it); two acquires never follow the same
// release, which is mutual exclusion; critical sections are ordered by the
// partial order like any other read and write. A trylock, failed or
// successful, stops the search, incomplete, named, as rf and rvf do.
//
// Cost (issue 20). Main alone, before its first spawn, runs in place: its
// reads have one choice each (vcdpor_alone.go). A node grown only by events
// that change no read's visible writes keeps its closure and extends its
// linearization, and the last child of a call resumes the parent's
// execution instead of replaying its schedule (vcdpor_fast.go). What
// remains per node is a copy of the partial order (O(n^2/64) words) and,
// where an extension orders events, a closure and the witness of Lemma 4.1.
//
// Not supported, refused with the construct named (the search stops,
// incomplete): read-modify-writes and CAS. Races are read off the leaves as
// rvf does (an explicit MCR race query for the hb-ordered pairs, since a
// class fixes values, not sources). With --workers the children of a read
// run in parallel (vcChildren) and are committed in order: counts do not
// depend on it.

import (
	"context"
	"fmt"
	"math"
	"slices"

	"mcr/explicit/apo"
	"mcr/parallel"
	"mcr/program"
	"mcr/program/explore"
)

// VC is VC-DPOR's registry entry (`--algo vc`).
var VC = explore.Algorithm{
	Name:   "vc",
	Doc:    "VC-DPOR: value-happens-before classes with annotated partial orders, relaxed as its Section 6 says; mutexes as reads and writes of the lock (no RMW or CAS)",
	Source: "seed 003, Algorithms 5-7",
	Models: onlySC,
	Run: func(ctx context.Context, p program.Program, opts explore.Options, cfg explore.Config) *explore.Result {
		return VCDPORWorkers(ctx, p, opts, parallel.Workers(cfg.Workers))
	},
}

// VCDPOR explores p with VC-DPOR and returns the findings and statistics
// (Extra: "replays", "replays_spared" (executions resumed, not replayed),
// "closures", "closures_spared" (nodes whose closure adds nothing),
// "closures_bottom" (extensions that are not realizable), "forced_reads"
// (reads of main alone), "exact_decisions" (extensions VerifySC decided),
// "race_queries", "spawned_children" and "buffered_children" (--workers),
// and "replay_errors", 0 unless something is wrong). It stops at the first finding unless opts.KeepGoing, when ctx
// is done, and at a construct it does not support (incomplete, Stopped
// names it).
func VCDPOR(ctx context.Context, p program.Program, opts explore.Options) *explore.Result {
	return VCDPORWorkers(ctx, p, opts, 1)
}

// VCDPORWorkers is VCDPOR on workers workers: the children of a read run in
// parallel and are committed in order, so counts and findings do not depend
// on workers.
func VCDPORWorkers(ctx context.Context, p program.Program, opts explore.Options, workers int) *explore.Result {
	return runSMC("vc", opts, workers, func(root *smcCtx) {
		s := &vcSearch{ctx: ctx, p: p, sink: root, races: raceReporter{sink: root}, locs: map[vcLoc]int32{}}
		// s.root: the first call's run of main alone sets it (vcdpor_alone.go)
		n := &vcNode{P: mustAPO()}
		s.call(n, vcCHB{})
	})
}

type vcSearch struct {
	ctx   context.Context
	p     program.Program
	sink  *smcCtx
	races raceReporter
	root  program.ThreadID
	locs  map[vcLoc]int32 // dense location numbers of the partial orders
	// strict orders every pair of conflicting leaf writes (Extend as
	// Section 5 states it, without the relaxation of Section 6).
	strict bool
}

// vcNode is an annotated partial order of the search with the identity of
// each of its events (initial writes: Thread -1, Index the location).
type vcNode struct {
	P    *apo.APO
	lin  []int32 // a linearization of P, each read observing a good write (realize)
	ids  []program.EventID
	at   [][]int32 // per thread, per event index: its number in P (shared with clones: copy before changing)
	init []int32   // per location: its initial write, -1 if none yet (shared with clones: copy before changing)
	// placed counts the orderings Extend's placements added (branch), so
	// that realizeFast sees whether any was.
	placed int
	// traceLin says that lin is the execution's trace in order (realized
	// by realizeFast from such a node); cont, if not nil, is an execution
	// of lin less its last event, to resume instead of a replay.
	traceLin bool
	cont     program.Execution
}

// vcCHB is a CHB map (Section 5): per read r, per thread p, C(r)(p) as
// the number of leading events of p whose writes r has been offered
// already (0 for none, the paper's ⊥⊥). The paper keeps the last read of
// p instead and offers the writes after it; for a thread stopped at a read
// or finished the two agree (WExtend ran it up to its next read), and the
// count also covers a thread waiting at a join, whose writes after the
// join WExtend has not revealed yet. The map is never changed in place:
// it is a list of entries, the newest first, that copies share (done
// prepends one: O(threads), where a copy of the map was O(reads)).
type vcCHB struct{ head *chbEntry }

// chbEntry is C(r): lv[t+1] is C(r)(t) (0 past its end), lv[0] that of
// the initial writes.
type chbEntry struct {
	r    program.EventID
	lv   []int32
	next *chbEntry
}

// of returns C(r)'s levels (nil if r has none).
func (c vcCHB) of(r program.EventID) []int32 {
	for e := c.head; e != nil; e = e.next {
		if e.r == r {
			return e.lv
		}
	}
	return nil
}

func (c vcCHB) level(r program.EventID, t program.ThreadID) int32 {
	if lv, i := c.of(r), int(t)+1; i < len(lv) {
		return lv[i]
	}
	return 0
}

// initThread is the virtual thread of the initial writes in vcCHB.
const initThread program.ThreadID = -1

func mustAPO() *apo.APO {
	p, _ := apo.New(nil)
	return p
}

// call is VC-DPOR(P, C) (Algorithm 5) on n.P, which realize has made
// realizable (n.lin). It returns true if the search must stop.
func (s *vcSearch) call(n *vcNode, C vcCHB) bool {
	if s.ctx.Err() != nil {
		s.sink.Stop(explore.StopReason(s.ctx), false)
		return true
	}
	if s.sink.done() {
		return true
	}
	// Line 1: t' := Realize(P): the linearization realize found.
	var sched program.Schedule
	for _, e := range n.lin {
		if id := n.ids[e]; id.Thread >= 0 {
			sched = append(sched, id)
		}
	}
	x, _, err := s.resume(n, sched)
	if err == nil {
		err = s.checkValues(n, x.Trace(), len(sched))
	}
	if err != nil {
		s.sink.Extra("replay_errors", 1)
		s.sink.Stop("vc: internal error: "+err.Error(), false)
		return true
	}
	base := len(sched) // the events of x's trace that n has
	if n.P.Len() == 0 {
		var stop bool
		if base, stop = s.alone(n, x); stop { // main alone: no choice (vcdpor_alone.go)
			s.sink.Stop(explore.StopReason(s.ctx), false)
			return true
		}
	}
	// Line 2: t := WExtend(t').
	extendNoReads(x)
	tr := x.Trace()
	var reads []program.Event // the enabled reads, the root's first
	for t := 0; t < x.Threads(); t++ {
		e, st := x.Pending(program.ThreadID(t))
		if st != program.Enabled && st != program.Waiting {
			continue
		}
		if msg := vcUnsupported(&e); msg != "" {
			s.sink.Stop(msg, false)
			return true
		}
		if st == program.Enabled && (e.Kind == program.Read || e.Kind == program.Acquire) {
			if e.Thread == s.root {
				reads = append([]program.Event{e}, reads...)
			} else {
				reads = append(reads, e)
			}
		}
	}
	for i := base; i < len(tr.Events); i++ {
		if msg := vcUnsupported(&tr.Events[i]); msg != "" {
			s.sink.Stop(msg, false)
			return true
		}
	}
	if over, _ := x.Done(); over || len(reads) == 0 {
		// A maximal trace: the leaf of its class.
		return s.sink.Execution(x) || s.races.report(s.ctx, tr, newHBOrder(tr, true), seedRaces(s.ctx, s.sink, Seeder{}, tr))
	}
	// Line 3: the extensions of P to E(t).
	// The recursive calls are made once every child is known, in the
	// order of the paper's loops, so that the last of them may take x on
	// (vcdpor_fast.go): tr does not change before.
	var kids []vcCall
	for _, q := range s.extend([]*vcNode{n}, tr, tr.Events[base:]) {
		CQ := C // line 4 (never changed in place)
		for _, r := range reads {
			q.ensureInit(s, tr, &r)
		}
		for _, r := range reads {
			// Lines 5-7: ExtendRoot, then ExtendLeaf per leaf thread.
			ms, stop := s.extendRead(q, tr, CQ, r)
			if stop {
				return true
			}
			for _, m := range ms {
				kids = append(kids, vcCall{n: m, C: CQ})
			}
			CQ = CQ.done(r.ID(), tr) // Algorithm 6 line 15, Algorithm 7 line 10
		}
	}
	if k := len(kids) - 1; k >= 0 && kids[k].n.traceLin {
		kids[k].n.cont = x // its schedule is tr, then its read
	}
	var run vcChildren
	for _, k := range kids {
		if run.run(s, k.n, k.C) {
			return true
		}
	}
	return run.wait(s)
}

// vcCall is a recursive call VC-DPOR(n.P, C) to make.
type vcCall struct {
	n *vcNode
	C vcCHB
}

// vcUnsupported names a construct VC-DPOR does not take, or "".
func vcUnsupported(e *program.Event) string {
	what := ""
	switch {
	case explore.IsTrylock(e):
		// a successful one too: its failure is never asked for either
		return fmt.Sprintf("vc does not support trylocks (the other outcome of a trylock is not explored): %s at line %s; use --algo rf or dfs", e.Kind, e.Pos)
	case e.Is(program.CAS):
		what = "compare-and-swap"
	case e.Is(program.RMW) || e.Is(program.RMWWrite):
		what = "atomic read-modify-write"
	default:
		return ""
	}
	return fmt.Sprintf("vc does not support %s: %s at line %s; use --algo rf or rvf", what, e.Kind, e.Pos)
}

// checkValues reports a read of the first k events of tr whose value is
// not the one n gives it (Remark 2 says a linearization of a consistent
// annotated partial order is a trace of the program with its values).
func (s *vcSearch) checkValues(n *vcNode, tr *program.Trace, k int) error {
	if len(tr.Events) != k {
		return fmt.Errorf("the witness ran %d of %d events", len(tr.Events), k)
	}
	for i := range k {
		e := &tr.Events[i]
		if e.Kind == program.Read && n.P.Events[n.index(e.ID())].Value != e.Value {
			return fmt.Errorf("read %s returned %d, the class says %d", e.ID(), e.Value, n.P.Events[n.index(e.ID())].Value)
		}
	}
	return nil
}

// done returns C with C(r)(p) set to all the events of p in tr, for every
// thread and the initial writes (Algorithm 6 line 15, Algorithm 7 line 10:
// the last read of each thread in t, and the writes up to its next read).
func (c vcCHB) done(r program.EventID, tr *program.Trace) vcCHB {
	lv := slices.Clone(c.of(r))
	for _, e := range tr.Events {
		for int(e.Thread)+1 >= len(lv) {
			lv = append(lv, 0)
		}
		lv[e.Thread+1] = max(lv[e.Thread+1], e.Index+1)
	}
	if len(lv) == 0 {
		lv = append(lv, 0)
	}
	lv[initThread+1] = math.MaxInt32
	return vcCHB{&chbEntry{r: r, lv: lv, next: c.head}}
}

// extendRead is ExtendRoot (Algorithm 6) for a read of the root and
// ExtendLeaf (Algorithm 7) for a read of a leaf: r reads each value of its
// candidate writes M_t^C(r) (per side for the root), the good writes being
// the candidates of that value (and side); it returns the extensions that
// have a closure, realized, for the caller to explore, or true if the
// search must stop.
func (s *vcSearch) extendRead(q *vcNode, tr *program.Trace, C vcCHB, r program.Event) ([]*vcNode, bool) {
	loc := s.loc(&r)
	var cands []int32 // M_t^C(r), in the order of q's events
	for w, e := range q.P.Events {
		if e.Kind != apo.Write || e.Loc != loc {
			continue
		}
		id := q.ids[w]
		if id.Thread < 0 {
			id.Thread = initThread
		}
		if id.Index >= C.level(r.ID(), id.Thread) { // M_t^C(r)
			cands = append(cands, int32(w))
		}
	}
	if len(cands) == 0 {
		return nil, false // no choice left (the CHB map offered them all)
	}
	// r after its thread, unplaced among the leaf writes: a value none of
	// whose candidates is visible to r here has no closure (Rule1 finds no
	// good visible write, and placing r only hides more), so it is skipped.
	// base becomes the first choice's node.
	base := q.clone()
	ri := base.add(s, tr, &r)
	visible := base.P.Visible(ri)
	root := r.Thread == s.root
	var ms []*vcNode                         // the children, realized
	for side := int8(1); side <= 2; side++ { // Algorithm 6 line 4; one round for a leaf
		var y []int32
		for _, w := range cands {
			if !root || q.P.Part(w) == side {
				y = append(y, w)
			}
		}
		for _, good := range choices(q.P, r.Kind == program.Acquire, y, visible) {
			v := q.P.Events[good[0]].Value
			b := base
			if base != nil {
				b.P.SetValue(ri, v)
				base = nil
			} else {
				b = q.clone()
				ev := r
				ev.Value = v
				b.add(s, tr, &ev) // as ri in base
			}
			var fresh []int32 // the leaf writes whose readers change
			for _, w := range good {
				if b.P.Part(w) == 2 {
					fresh = append(fresh, w)
				}
			}
			b.P.SetGood(ri, side, good)
			for _, k := range s.places(b, ri) {
				for _, m := range s.orderGood(k, fresh) {
					fast := s.realizeFast(m, len(q.lin), q.placed)
					if m.traceLin = fast && q.traceLin; fast {
						ms = append(ms, m)
						continue
					}
					ok, err := s.realize(m)
					if err != nil {
						s.stopErr(err)
						return nil, true
					}
					if ok && q.traceLin {
						m.traceLin = keepTrace(m, q.lin, len(q.lin))
					}
					if ok {
						ms = append(ms, m)
					}
				}
			}
		}
		if !root {
			break
		}
	}
	return ms, false
}

// vcChildren are the recursive calls of one extendRead that run in nodes
// of their own (parallel.Tree, rfsmc_parallel.go): on another worker when
// one is free, else buffered, and committed in order, so that executions
// and findings come in the sequential order whatever the workers. With one
// worker every call runs directly.
type vcChildren struct {
	pending []vcChild
}

type vcChild struct {
	k *vcSearch
	t *parallel.Task[smcEntry]
}

// run explores n (VC-DPOR(n, C)) as a child of s; it returns true if the
// search must stop.
func (c *vcChildren) run(s *vcSearch, n *vcNode, C vcCHB) bool {
	for len(c.pending) > 0 && c.pending[0].t.Finished() {
		k := c.pending[0]
		c.pending = c.pending[1:]
		if s.sink.commit(k.k.sink, nil) || k.t.Stopped() {
			c.abandon()
			return true
		}
	}
	spawned := s.sink.spawn(func() bool { return true })
	if !spawned && len(c.pending) == 0 {
		return s.call(n, C)
	}
	k := s.fork()
	t := s.sink.start(k.sink, spawned, func() bool { return k.call(n, C) })
	c.pending = append(c.pending, vcChild{k, t})
	return false
}

// wait commits the children left, in order; it returns true if the search
// must stop.
func (c *vcChildren) wait(s *vcSearch) bool {
	for len(c.pending) > 0 {
		k := c.pending[0]
		stop := k.t.Wait()
		c.pending = c.pending[1:]
		if s.sink.commit(k.k.sink, nil) || stop {
			c.abandon()
			return true
		}
	}
	return false
}

func (c *vcChildren) abandon() {
	for _, k := range c.pending {
		k.t.Abandon()
	}
	c.pending = nil
}

// fork returns the search of a child node: its own sink and its own copy of
// the location numbering (the child's partial orders are its own).
func (s *vcSearch) fork() *vcSearch {
	k := *s
	k.sink = s.sink.child()
	k.races = raceReporter{sink: k.sink}
	k.locs = make(map[vcLoc]int32, len(s.locs))
	for l, i := range s.locs {
		k.locs[l] = i
	}
	return &k
}

// choices returns the good-writes sets a read may take from its candidates
// y: per value of D_r (sorted), the candidates of that value, less the
// values none of whose candidates is visible. An acquire (Remark 4 of seed
// 003: a lock acquire is a read of its lock, a release a write, and no two
// acquires share a good write) takes each visible candidate release alone
// that no other acquire has for a good write: an acquire chooses the
// critical section it follows, so locks become orderings between critical
// sections.
func choices(p *apo.APO, acquire bool, y, visible []int32) [][]int32 {
	var out [][]int32
	if acquire {
		for _, w := range y {
			if slices.Contains(visible, w) && !p.EverGood(w) {
				out = append(out, []int32{w})
			}
		}
		return out
	}
	var values []int64 // D_r, less the values no candidate of which is visible
	for _, w := range y {
		if v := p.Events[w].Value; !slices.Contains(values, v) && slices.Contains(visible, w) {
			values = append(values, v)
		}
	}
	slices.Sort(values)
	for _, v := range values {
		var good []int32
		for _, w := range y {
			if p.Events[w].Value == v {
				good = append(good, w)
			}
		}
		out = append(out, good)
	}
	return out
}

// extend is Extend (Section 5) of each of ns by the events evs, in order:
// each goes after its thread's events (and its spawn, or the end of the
// thread it joins); a leaf read or write is also ordered with every
// conflicting leaf event, in every way the order allows (one node per
// way). The nodes are closed (those without a closure dropped). The new
// events are writes and local events: a read is added by extendRead.
func (s *vcSearch) extend(ns []*vcNode, tr *program.Trace, evs []program.Event) []*vcNode {
	oldLin, old, placed := ns[0].lin, len(ns[0].lin), ns[0].placed
	for _, e := range evs {
		var next []*vcNode
		for _, n := range ns { // each node is the caller's or a copy: add in place
			i := n.add(s, tr, &e)
			next = append(next, s.places(n, i)...)
		}
		ns = next
	}
	out := ns[:0]
	for _, n := range ns {
		if n.traceLin = s.realizeFast(n, old, placed); n.traceLin {
			out = append(out, n)
		} else if ok, err := s.realize(n); err != nil {
			s.stopErr(err)
			return nil
		} else if ok {
			n.traceLin = keepTrace(n, oldLin, old)
			out = append(out, n)
		}
	}
	return out
}

// places returns n with its leaf event i ordered with the conflicting leaf
// events that orderPair asks for, one node per consistent choice (Extend,
// Section 5), reads before writes: the reads decide what is observable. It
// returns n itself if i is a root or local event or has nothing to order.
func (s *vcSearch) places(n *vcNode, i int32) []*vcNode {
	if n.P.Part(i) == 1 || n.P.Events[i].Kind == apo.Local {
		return []*vcNode{n}
	}
	return s.orderAll(n, []int32{i})
}

// orderGood orders each leaf write of fresh (good for a read for the
// first time) with the conflicting leaf events orderPair asks for.
func (s *vcSearch) orderGood(n *vcNode, fresh []int32) []*vcNode {
	return s.orderAll(n, fresh)
}

// orderAll orders each event of es with the conflicting leaf events
// orderPair asks for, reads first.
func (s *vcSearch) orderAll(n *vcNode, es []int32) []*vcNode {
	ns := []*vcNode{n}
	for _, reads := range []bool{true, false} {
		for _, i := range es {
			for c := range int32(n.P.Len()) {
				if c == i || n.P.Part(c) != 2 || !n.P.Conflict(c, i) { // n itself may be ordered below: ask each
					continue
				}
				if rw := n.P.Events[c].Kind == apo.Read || n.P.Events[i].Kind == apo.Read; rw == reads {
					ns = s.branch(ns, c, i)
				}
			}
		}
	}
	return ns
}

// branch returns each node of ns with a and b ordered, both ways where
// both are consistent (a node where they are ordered already, or where
// orderPair declines, as it is).
func (s *vcSearch) branch(ns []*vcNode, a, b int32) []*vcNode {
	var next []*vcNode
	for _, m := range ns {
		if m.P.Before(a, b) || m.P.Before(b, a) || !s.orderPair(m.P, a, b) {
			next = append(next, m)
			continue
		}
		m2 := m.clone()
		if m.P.Order(a, b) {
			m.placed++
			next = append(next, m)
		}
		if m2.P.Order(b, a) {
			m2.placed++
			next = append(next, m2)
		}
	}
	return next
}

// orderPair reports whether two unordered conflicting leaf events are
// ordered (Extend's "every ordering"). Section 6, implementation detail 3,
// leaves two writes unordered if both are never-good (a good write of no
// read) or one is unobservable (no linearization lets a read observe it);
// apo.Observable (good for a read and visible to it) implies ever-good, so
// two writes are ordered only if both are observable. We take the rule to
// a read and a write too: they are ordered only if the write is
// observable. The relaxation holds until a read makes a write good
// (orderGood); whatever it leaves unordered, realize decides exactly.
func (s *vcSearch) orderPair(p *apo.APO, a, b int32) bool {
	if s.strict {
		return true
	}
	ka, kb := p.Events[a].Kind, p.Events[b].Kind
	if ka == apo.Write && kb == apo.Write && p.SameReaders(a, b) {
		return false
	}
	return (ka == apo.Read || p.Observable(a)) && (kb == apo.Read || p.Observable(b))
}

// stopErr stops the search at an error of realize: a timeout or
// cancellation as such, anything else as an internal error.
func (s *vcSearch) stopErr(err error) {
	if s.ctx.Err() != nil {
		s.sink.Stop(explore.StopReason(s.ctx), false)
		return
	}
	s.sink.Stop("vc: internal error: "+err.Error(), false)
}

// realize makes n.P realizable or reports that it is not: RelaxedClosure
// (Closure, Algorithm 1, when every conflicting leaf pair is ordered), the
// witness of Lemma 4.1 if it is one, and else the instance of
// apo.ToInstance decided by VerifySC (seed 000 Algorithm 1), exact where
// the relaxation left leaf writes unordered. It sets n.lin.
func (s *vcSearch) realize(n *vcNode) (bool, error) {
	s.sink.Extra("closures", 1)
	q, ok, err := apo.RelaxedClosure(n.P)
	if err != nil {
		return false, err
	}
	if !ok {
		s.sink.Extra("closures_bottom", 1)
		return false, nil
	}
	lin := apo.Witness(q)
	if apo.Linearizes(q, lin) != nil {
		if q.Strict() {
			return false, fmt.Errorf("the witness of Lemma 4.1 is not one: %v", apo.Linearizes(q, lin))
		}
		s.sink.Extra("exact_decisions", 1)
		enc, err := apo.ToInstance(q, "vc")
		if err != nil {
			return false, err
		}
		enc.Inst.Guide = enc.WitnessOf(lin)
		ans, err := (&VerifySC{}).Decide(s.ctx, enc.Inst)
		if err != nil {
			return false, err
		}
		if !ans.Sat {
			s.sink.Extra("closures_bottom", 1)
			return false, nil
		}
		if lin, err = enc.Linearization(ans.Witness); err == nil {
			err = apo.Linearizes(q, lin)
		}
		if err != nil {
			return false, err
		}
	}
	n.P, n.lin = q, lin
	return true, nil
}

// add appends program event e to n (after an initial write of its
// location, if it is the first access to it) with its thread, spawn and
// join orderings, and returns its number.
func (n *vcNode) add(s *vcSearch, tr *program.Trace, e *program.Event) int32 {
	ev := apo.Event{Thread: 1, Kind: apo.Local}
	if e.Thread == s.root {
		ev.Thread = 0
	} else {
		ev.Thread = int32(e.Thread) + 2 // 1 is the initial writes' thread
	}
	switch e.Kind {
	case program.Read, program.Acquire: // Remark 4: an acquire reads its lock
		ev.Kind, ev.Loc, ev.Value = apo.Read, s.loc(e), e.Value
		n.ensureInit(s, tr, e)
	case program.Write, program.Release: // and a release writes it
		ev.Kind, ev.Loc, ev.Value = apo.Write, s.loc(e), e.Value
		n.ensureInit(s, tr, e)
	}
	if e.Kind.IsLock() {
		ev.Value = 0 // every release writes the same value: good writes are chosen by identity
	}
	first := n.count(e.Thread) == 0
	i := n.P.Append(ev)
	n.ids = append(n.ids, e.ID())
	n.setIndex(e.ID(), i)
	if first {
		for j := len(tr.Events) - 1; j >= 0; j-- { // its spawn
			if f := &tr.Events[j]; f.Kind == program.Fork && program.ThreadID(f.Value) == e.Thread {
				n.P.Order(n.index(f.ID()), i)
			}
		}
		for _, w := range n.init { // the initial writes go first
			if w >= 0 {
				n.P.Order(w, i)
			}
		}
	}
	if e.Kind == program.Join {
		if t := program.ThreadID(e.Value); n.count(t) > 0 {
			n.P.Order(n.at[t][n.count(t)-1], i)
		}
	}
	return i
}

// ensureInit adds the initial write of e's location (or lock: the initial
// release) to n if it has none: a write of the virtual leaf thread 1 before
// the first event of every thread.
func (n *vcNode) ensureInit(s *vcSearch, tr *program.Trace, e *program.Event) {
	loc := s.loc(e)
	if int(loc) < len(n.init) && n.init[loc] >= 0 {
		return
	}
	v := int64(0)
	if !e.Kind.IsLock() {
		v = tr.InitValue(e.Loc)
	}
	w := n.P.Append(apo.Event{Thread: 1, Kind: apo.Write, Loc: loc, Value: v})
	n.init = slices.Clone(n.init)
	for int(loc) >= len(n.init) {
		n.init = append(n.init, -1)
	}
	n.init[loc] = w
	n.ids = append(n.ids, program.EventID{Thread: -1, Index: loc})
	firsts := map[int32]bool{1: true}
	for j, f := range n.P.Events {
		if !firsts[f.Thread] {
			firsts[f.Thread] = true
			n.P.Order(w, int32(j))
		}
	}
}

func (n *vcNode) clone() *vcNode {
	k := &vcNode{P: n.P.Clone(), lin: n.lin, ids: slices.Clip(n.ids), at: slices.Clone(n.at), init: n.init, placed: n.placed, traceLin: n.traceLin}
	for t := range k.at {
		k.at[t] = slices.Clip(k.at[t]) // an append copies: n keeps its own
	}
	return k
}

// count returns the number of events of thread t in n (the events of a
// thread are added in thread order, from its first).
func (n *vcNode) count(t program.ThreadID) int {
	if int(t) >= len(n.at) || t < 0 {
		return 0
	}
	return len(n.at[t])
}

// index returns the number in n.P of the event id, which n has.
func (n *vcNode) index(id program.EventID) int32 {
	return n.at[id.Thread][id.Index]
}

// setIndex records that the event id is number i of n.P.
func (n *vcNode) setIndex(id program.EventID, i int32) {
	for int(id.Thread) >= len(n.at) {
		n.at = append(n.at, nil)
	}
	row := n.at[id.Thread]
	if int(id.Index) < len(row) {
		row = slices.Clone(row) // it may be shared with a clone
		row[id.Index] = i
	} else {
		for int(id.Index) > len(row) {
			row = append(row, -1)
		}
		row = append(row, i)
	}
	n.at[id.Thread] = row
}

// vcLoc is a location or a lock of the program.
type vcLoc struct {
	loc  program.Loc
	lock bool
}

// loc returns the dense number of e's location or lock.
func (s *vcSearch) loc(e *program.Event) int32 {
	l := vcLoc{e.Loc, e.Kind.IsLock()}
	if i, ok := s.locs[l]; ok {
		return i
	}
	i := int32(len(s.locs))
	s.locs[l] = i
	return i
}
