package explicit

// This file spares VC-DPOR (vcdpor.go) the closure, the Lemma 4.1 witness
// and the replay of a node whose annotated partial order grew only by events
// that change no read's visible writes (issue 20: lastzero N=11 took 40 s,
// most of it in closures that added nothing, witnesses and replays of
// single-child chains).
//
// Why the closure adds nothing. Let P be realized (a fixpoint of Closure,
// or of RelaxedClosure, with the linearization n.lin) and P' be P with new
// events E that (1) have no successor in P and no orderings among
// themselves beyond thread order, spawns, joins and initial writes (the
// placements of Extend added none: vcNode.placed is unchanged), (2) if a
// write, come after every read of their location, and (3) if a read r, come
// after every write of their location, the greatest of which is good for r.
// By (1) and (2) no read of P sees a new visible write or loses one (a
// write after r is not visible to it, and a write after r lies between no
// visible write and r), so Items 1-3 of Section 4.1 (and the rules of
// RelaxedClosure) ask nothing new of them; by (3) VisibleW(r) is that
// greatest write w < r, good: Items 1-3 hold for r. So P' is its own
// closure, and n.lin followed by E (the new initial writes first) is a
// linearization: each new event comes after its predecessors, and the last
// write of a new read's location before it is the greatest one, good for
// it. realize would keep P' as it is (Closure, Theorem 4.5, or VerifySC,
// which finds that a linearization exists), so the search is the same, in
// a possibly different but equally valid linearization. The initial
// writes are the one exception to (1): one is added with the first access
// to its location, before the first event of every thread, so no read of
// P sees it and it goes first in the linearization.
//
// Why the replay can go. The child of a read r whose linearization is its
// parent's trace followed by r runs the same events as the parent's
// execution stepped by r: the last child of a call takes that execution
// (vcNode.cont) instead of replaying its schedule from the start.

import (
	"slices"

	"mcr/explicit/apo"
	"mcr/program"
)

// realizeFast sets n.lin to the old linearization followed by the events
// of n.P numbered from old on (the initial writes among them first) and
// returns true, if those events satisfy (1)-(3) above (placed: n.placed
// before they were added); else it returns false and n is unchanged.
func (s *vcSearch) realizeFast(n *vcNode, old, placed int) bool {
	p := n.P
	if n.placed != placed || len(n.lin) != old {
		return false
	}
	for e := int32(old); e < int32(p.Len()); e++ {
		if n.ids[e].Thread < 0 {
			continue
		}
		ev := &p.Events[e]
		switch ev.Kind {
		case apo.Write:
			for r := range int32(p.Len()) { // (2)
				if x := &p.Events[r]; x.Kind == apo.Read && x.Loc == ev.Loc && !p.Before(r, e) {
					return false
				}
			}
		case apo.Read:
			if !lastWriteGood(p, e) { // (3)
				return false
			}
		}
	}
	n.lin = traceOrder(n, n.lin, old)
	s.sink.Extra("closures_spared", 1)
	return true
}

// traceOrder returns lin (a linearization of n.P's first old events)
// followed by the events numbered from old on, the initial writes among
// them first: the order of the execution lin was replayed into, extended
// by the events added since.
func traceOrder(n *vcNode, lin []int32, old int) []int32 {
	out := make([]int32, 0, n.P.Len())
	for e := int32(old); e < int32(n.P.Len()); e++ {
		if n.ids[e].Thread < 0 {
			out = append(out, e)
		}
	}
	out = append(out, lin...)
	for e := int32(old); e < int32(n.P.Len()); e++ {
		if n.ids[e].Thread >= 0 {
			out = append(out, e)
		}
	}
	return out
}

// keepTrace replaces n.lin, which realize found, by traceOrder(n, lin, old)
// if that is a linearization of n.P too (the closure may have ordered a
// new event before old ones), so that n may resume the execution lin was
// replayed into; it reports whether it did.
func keepTrace(n *vcNode, lin []int32, old int) bool {
	t := traceOrder(n, lin, old)
	if apo.Linearizes(n.P, t) != nil {
		return false
	}
	n.lin = t
	return true
}

// lastWriteGood reports whether every write of r's location is before r and
// the greatest of them is a good write of r.
func lastWriteGood(p *apo.APO, r int32) bool {
	ws := p.Writes(p.Events[r].Loc)
	top := int32(-1)
	for _, w := range ws {
		if !p.Before(w, r) {
			return false
		}
		if top < 0 || p.Before(top, w) {
			top = w
		}
	}
	if top < 0 || !slices.Contains(p.Good[r], top) {
		return false
	}
	for _, w := range ws { // top must be above every other write, not only a chain's end
		if w != top && !p.Before(w, top) {
			return false
		}
	}
	return true
}

// resume returns the execution of n's schedule sched: n.cont stepped by
// its last event if n has one (and true), else a replay (false).
func (s *vcSearch) resume(n *vcNode, sched program.Schedule) (program.Execution, bool, error) {
	if x := n.cont; x != nil && len(sched) > 0 {
		n.cont = nil
		last := sched[len(sched)-1]
		if e, st := x.Pending(last.Thread); st == program.Enabled && e.Index == last.Index && len(x.Trace().Events) == len(sched)-1 {
			x.Step(last.Thread)
			s.sink.Extra("replays_spared", 1)
			return x, true, nil
		}
	}
	n.cont = nil
	x, _, err := runSchedule(s.p, sched)
	s.sink.Extra("replays", 1)
	return x, false, err
}
