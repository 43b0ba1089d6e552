package explicit

// This file decides most unrealizable mutations of RVF-SMC (rvfsmc.go,
// seed 000 Algorithm 2, lines 19-22) without a VerifySC query: a cheap
// negative answer in the spirit of seed 000 Section 4.2 ("2. Closure").
//
// A call's children ask for witnesses of (X', GoodW') = (E(σ̃) ∪ {r},
// GoodW ∪ {(r, G)}) for each read r and value group G. Every witness π of
// it restricted to E(σ̃) is a witness of the call's own (X, GoodW): r (and
// the write half of an RMW or CAS) is the last event of its thread and no
// read of X has it among its good writes, so removing it changes no read's
// latest write, and lifts no lock condition. Hence π contains every order
// P0 that all witnesses of (X, GoodW) have; we take for P0 program order,
// fork and join, w before a read whose only good write is w (an acquire
// whose only good release is w), and a read whose only good write is init
// before every write of its location: a part of the closure of (X,
// GoodW), computed as vector clocks in one pass over σ̃ (a witness of it,
// so every such order goes forward in σ̃). As r reads in π the latest
// write before it, some w of G is not hidden from r in P0: there is no
// write w2 of r's location with w <_P0 w2 <=_P0 pred(r), pred(r) being
// r's program-order predecessor (or the fork of its thread), which comes
// before r in π (for init: no write <=_P0 pred(r) at all). When every w of
// G is hidden, the instance has no witness: the answer VerifySC would
// give, so the children, and everything counted but the queries, are the
// same. Under explore.Options.Validate VerifySC is asked anyway and a
// witness counts as a decider error (checkNegative).
//
// P0 is computed once per call, on its first query, and serves every read
// and value group of the call. On lastzero (N=11) it answers all 16,687
// negative queries, each of which cost an instance, a view and a closure
// of its own.

import (
	"slices"

	"mcr/program"
)

// rvfBase is the order P0 over the positions of σ̃, as vector clocks
// (row i at flat[i*k:]), and per location the join of the rows of its
// init-only reads (initRd; shared with the bases extending it, so never
// changed in place: a changed entry is a new list with a new clock).
type rvfBase struct {
	flat   []int32
	k      int
	initRd []initClock
	index  map[program.Loc]int // loc -> its entry of initRd, during newRVFBase's pass
}

type initClock struct {
	loc program.Loc
	c   []int32
}

// newRVFBase returns P0 for the trace tr of a call whose reads and
// acquires have the good writes good. h indexes tr. If up is not nil, it
// is P0 of a prefix of tr under the same good writes (the base of the
// view tr's view extends, rvfsmc_view.go) and only the rows of the
// events after it are computed, appended to up's in place as the views
// append their orders (one O(|σ̃| · threads) pass per call was a tenth of
// rvf's time on lastzero, issue 17).
func newRVFBase(up *rvfBase, tr *program.Trace, h *syncOrder, good map[program.EventID][]program.EventID) *rvfBase {
	k := h.K
	b := &rvfBase{k: k}
	if up != nil && up.k == k {
		b.flat, b.initRd = up.flat, up.initRd
	} else {
		b.flat = make([]int32, 0, (len(tr.Events)+16)*k)
	}
	for i := len(b.flat) / k; i < len(tr.Events); i++ {
		e := &tr.Events[i]
		b.flat = slices.Grow(b.flat, k)[:(i+1)*k]
		row := b.row(int32(i))
		clear(row)
		if p := h.prev(int32(i)); p >= 0 {
			join(row, b.row(p))
		}
		switch e.Kind {
		case program.Join:
			if end := h.Last(program.ThreadID(e.Value)); e.Value >= 0 && end >= 0 && end < int32(i) {
				join(row, b.row(end))
			}
		case program.Read, program.Acquire:
			if g := good[e.ID()]; len(g) == 1 && g[0] != program.InitID {
				if w := h.pos(g[0]); w >= 0 && w < int32(i) {
					join(row, b.row(w))
				}
			}
		case program.Write:
			if j := b.initOf(e.Loc); j >= 0 {
				join(row, b.initRd[j].c)
			}
		}
		row[e.Thread] = e.Index + 1
		if e.Kind == program.Read {
			if g := good[e.ID()]; len(g) == 1 && g[0] == program.InitID {
				c := make([]int32, k)
				j := b.initOf(e.Loc)
				if j >= 0 {
					copy(c, b.initRd[j].c)
				}
				join(c, row)
				b.initRd = slices.Clone(b.initRd)
				if j >= 0 {
					b.initRd[j].c = c
				} else {
					b.initRd = append(b.initRd, initClock{e.Loc, c})
					if b.index != nil {
						b.index[e.Loc] = len(b.initRd) - 1
					}
				}
			}
		}
	}
	b.index = nil
	return b
}

// initOf returns the index of loc's entry in b.initRd, -1 if it has none.
// A long list is searched through a map built for the pass (b.index).
func (b *rvfBase) initOf(loc program.Loc) int {
	if len(b.initRd) > 32 {
		if b.index == nil {
			b.index = make(map[program.Loc]int, len(b.initRd))
			for j := range b.initRd {
				b.index[b.initRd[j].loc] = j
			}
		}
		if j, ok := b.index[loc]; ok {
			return j
		}
		return -1
	}
	for j := range b.initRd {
		if b.initRd[j].loc == loc {
			return j
		}
	}
	return -1
}

func (b *rvfBase) row(i int32) []int32 { return b.flat[int(i)*b.k : int(i+1)*b.k] }

// before reports whether position i is at or before position j in P0.
func (b *rvfBase) atMost(tr *program.Trace, i, j int32) bool {
	e := &tr.Events[i]
	return b.row(j)[e.Thread] > e.Index
}

// join makes row at least c, entry by entry.
func join(row, c []int32) {
	for t, n := range c {
		row[t] = max(row[t], n)
	}
}

// unrealizable reports whether the pending read r can read no write of
// group in any witness of the call's instance extended by r, by the
// argument of the file comment. ws are the trace positions of the writes
// of r's location, h indexes tr. False means "maybe".
func (b *rvfBase) unrealizable(tr *program.Trace, h *syncOrder, ws []int32, r *program.Event, group []program.EventID) bool {
	if r.Kind == program.Acquire && len(group) == 1 && group[0] == program.InitID {
		// r holds its mutex to the end of every witness, so every other
		// acquire a of it comes before r, and a release of a's section
		// comes between a and r (else r waits forever): the mutex's
		// latest release before r is not init. writesOf gives the
		// acquires of r's mutex for an acquire.
		return len(ws) > 0
	}
	if r.Kind != program.Read || len(group) == 0 {
		return false
	}
	pred := h.Last(r.Thread)
	if pred < 0 && int(r.Thread) < len(h.Fork) {
		pred = h.Fork[r.Thread]
	}
	if pred < 0 {
		return false // nothing comes before r: nothing is hidden
	}
	for _, g := range group {
		w := int32(-1) // init
		if g != program.InitID {
			if w = h.pos(g); w < 0 {
				return false
			}
		}
		hidden := false
		for _, w2 := range ws {
			if w2 != w && (w < 0 || b.atMost(tr, w, w2)) && b.atMost(tr, w2, pred) {
				hidden = true
				break
			}
		}
		if !hidden {
			return false
		}
	}
	return true
}

// writesOf returns the trace positions of the writes to r's location (of
// the acquires of r's mutex, for an acquire).
func writesOf(tr *program.Trace, r *program.Event) []int32 {
	want := program.Write
	if r.Kind == program.Acquire {
		want = program.Acquire
	}
	var ws []int32
	for i := range tr.Events {
		if e := &tr.Events[i]; e.Kind == want && e.Loc == r.Loc {
			ws = append(ws, int32(i))
		}
	}
	return slices.Clip(ws)
}

// checkNegative asks the decider, under explore.Options.Validate, about
// a mutation the closure of the call ruled out: a witness there is a bug
// of the filter, counted as a decider error (the child is not explored
// either way, so the counts are those without Validate).
func (s *rvfSMC) checkNegative(q *rvfQuery, group []program.EventID) {
	if !s.cfg.validate {
		return
	}
	s.good[q.r.ID()] = group
	w, err := s.decideGroup(q, group)
	delete(s.good, q.r.ID())
	if err == nil && w != nil {
		s.sink.Extra("decider_errors", 1)
	}
}
