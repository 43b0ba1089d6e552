package encode

import (
	"mcr/encode/z3"
)

// This file implements the lazy half of the seed formula of seed.go. Two
// parts of Φ grow quadratically with the trace: Φ_value's "no needed write
// to the location between a read and the write it reads from" (reads x
// writes of its value x writes of its location) and Φ_lock's "two needed
// critical sections of a lock do not overlap" (pairs of sections). On the
// race queries of clean.vals.txt they were 23,000 of 25,000 order atoms,
// and Z3 spent seconds setting them up for an answer found after one
// conflict. So each read's choice of write is an explicit selector
// (value), and the quadratic constraints are left out at first: after each
// satisfiable check, refine evaluates all of them on the model and asserts
// the ones it violates, and the solver (incremental) checks again. An
// unsatisfiable check of a part of Φ means Φ is unsatisfiable; a model that
// violates none of the left-out constraints is a model of Φ. Each round
// adds at least one constraint the model violated, so the loop ends.

// choice is a reads-from selector: read r reads from write w (-1: the
// initial value); sel is its boolean variable.
type choice struct {
	r, w int32
	sel  z3.Term
}

// value is Φ_value(r, v) without its interference constraints: one of r's
// selectors holds, each implying that its write is needed and precedes r.
// A write w that must-happen-before puts a write of the location between
// it and r gets no selector (nor does the initial value when a write of
// the location must precede r). Constraints of the selectors go to add.
func (e *seedEncoder) value(r int32, v int64, add func(z3.Term)) z3.Term {
	c, m, ev := e.c, e.m, e.q.Trace.Events
	ws := m.Writes[ev[r].Loc]
	hidden := e.hidden >= 0 && e.hidden != r && ev[e.hidden].Loc == ev[r].Loc
	var opts []z3.Term
	pick := func(w int32, parts ...z3.Term) {
		sel := c.BoolVar(e.n + len(e.choices))
		e.choices = append(e.choices, choice{r: r, w: w, sel: sel})
		add(c.Implies(sel, c.And(parts...)))
		opts = append(opts, sel)
	}
	for _, w := range ws {
		if ev[w].Value != v || e.excluded[w] || m.Before(r, w) || e.between(w, r) {
			continue
		}
		parts := []z3.Term{e.N(w), c.Lt(e.O(w), e.O(r))}
		if hidden {
			parts = append(parts, c.Or(c.Lt(e.O(r), e.O(e.hidden)), c.Lt(e.O(e.hidden), e.O(w))))
		}
		pick(w, parts...)
	}
	if v == e.q.Trace.InitValue(ev[r].Loc) && !e.between(-1, r) {
		var parts []z3.Term
		if hidden {
			parts = append(parts, c.Lt(e.O(r), e.O(e.hidden)))
		}
		pick(-1, parts...)
	}
	return c.Or(opts...)
}

// between reports whether must-happen-before puts a write of r's location
// between w (-1: the start) and r, so that r cannot read from w.
func (e *seedEncoder) between(w, r int32) bool {
	m, ev := e.m, e.q.Trace.Events
	for _, w2 := range m.Writes[ev[r].Loc] {
		if w2 != w && !e.excluded[w2] && (w < 0 || m.Before(w, w2)) && m.Before(w2, r) {
			return true
		}
	}
	return false
}

// interferes reports whether write w2 may come between w (-1: the start)
// and r, so that Φ_value needs a constraint on it: it is a candidate, and
// must-happen-before does not already place it before w or after r.
func (e *seedEncoder) interferes(w2, w, r int32) bool {
	m := e.m
	return w2 != w && !e.excluded[w2] && (w < 0 || !m.Before(w2, w)) && !m.Before(r, w2)
}

// read fills order and needed from a model (events that take no part stay
// unneeded) and returns the selectors' values; nil if the model cannot be
// read.
func (e *seedEncoder) read(model z3.Model, order []int64, needed []bool) []bool {
	for i := range order {
		order[i], needed[i] = 0, false
		if e.excluded[i] {
			continue
		}
		if r := e.rep[i]; r != int32(i) { // r < i: read already
			order[i], needed[i] = order[r], needed[r]
			continue
		}
		o, ok := model.Int(e.O(int32(i)))
		nv := e.forced[i]
		if !nv {
			nv, ok = model.Bool(e.N(int32(i)))
		}
		if !ok {
			return nil
		}
		order[i], needed[i] = o, nv
	}
	sel := make([]bool, len(e.choices))
	for k, ch := range e.choices {
		v, ok := model.Bool(ch.sel)
		if !ok {
			return nil
		}
		sel[k] = v
	}
	return sel
}

// refine collects in e.more the lazy constraints of Φ that the model
// (order, needed, sel) violates and returns how many; -1 if sel is nil
// (the model could not be read).
func (e *seedEncoder) refine(order []int64, needed []bool, sel []bool) int {
	if sel == nil {
		return -1
	}
	c, ev := e.c, e.q.Trace.Events
	n := len(e.more)
	// Φ_value: no needed write between a selected write and its read.
	for k, ch := range e.choices {
		if !sel[k] {
			continue
		}
		r, w := ch.r, ch.w
		for _, w2 := range e.m.Writes[ev[r].Loc] {
			if !needed[w2] || !e.interferes(w2, w, r) {
				continue
			}
			switch {
			case w < 0 && order[w2] <= order[r]:
				e.more = append(e.more, c.Implies(c.And(ch.sel, e.N(w2)), c.Lt(e.O(r), e.O(w2))))
			case w >= 0 && order[w] <= order[w2] && order[w2] <= order[r]:
				e.more = append(e.more, c.Implies(c.And(ch.sel, e.N(w2)),
					c.Or(c.Lt(e.O(w2), e.O(w)), c.Lt(e.O(r), e.O(w2)))))
			}
		}
	}
	// Φ_lock: two needed critical sections of a lock do not overlap. Only
	// sections of the cone take part (the others are excluded), and a pair
	// whose order must-happen-before fixes is left out: if s1's release is
	// MHB-before s2's acquire, a needed s2 needs s1's release (N is closed
	// under MHB predecessors) and Φ_mhb orders them.
	released := func(s, t Section) bool { // s is released before t is acquired
		return s.Rel >= 0 && needed[s.Rel] && order[s.Rel] < order[t.Acq]
	}
	var secs []Section
	for _, l := range e.locks {
		secs = secs[:0]
		for _, s := range e.secs[l] {
			if needed[s.Acq] && !e.isTarget(s.Acq) {
				secs = append(secs, s)
			}
		}
		for x, s1 := range secs {
			for _, s2 := range secs[x+1:] {
				if !e.lockPair(s1, s2) || released(s1, s2) || released(s2, s1) {
					continue
				}
				e.more = append(e.more, c.Implies(c.And(e.N(s1.Acq), e.N(s2.Acq)),
					c.Or(e.releasedBefore(s1, s2), e.releasedBefore(s2, s1))))
			}
		}
	}
	return len(e.more) - n
}

// isTarget reports whether i is a race target: an acquire that is one (a
// deadlock query) is the thread's next event, not executed, and holds
// nothing yet.
func (e *seedEncoder) isTarget(i int32) bool {
	return e.q.Race[0] >= 0 && e.q.Race[1] >= 0 && e.isRace(i)
}

// lockPair reports whether Φ_lock constrains the sections s1 and s2 of a
// lock (see refine).
func (e *seedEncoder) lockPair(s1, s2 Section) bool {
	m, ev := e.m, e.q.Trace.Events
	return ev[s1.Acq].Thread != ev[s2.Acq].Thread && !e.excluded[s1.Acq] && !e.excluded[s2.Acq] &&
		!(s1.Rel >= 0 && m.Before(s1.Rel, s2.Acq)) && !(s2.Rel >= 0 && m.Before(s2.Rel, s1.Acq))
}
