package apo

// This file implements what the never-good / unobservable relaxation of
// 003_0c44ef4d03fff5a7.txt (Section 6, implementation detail 3) needs:
// annotated partial orders whose conflicting leaf writes need not be
// ordered. Closure (Algorithm 1) and the witness of Lemma 4.1 rest on
// Mwidth(P|X2) = 1 (the writes of a location are two chains), so a relaxed
// order is decided in three steps:
//
//  1. RelaxedClosure adds orderings every linearization has (sound for any
//     partial order; with Mwidth 1 Closure itself is used), or finds none
//     exists (⊥);
//  2. the witness of Lemma 4.1 is tried (Linearizes checks it);
//  3. if it is not one, an exact decider answers (explicit.VCDPOR hands the
//     instance of ToInstance to VerifySC, seed 000 Algorithm 1).
//
// So the relaxation changes which partial orders the search keeps, never
// whether a realizable one is kept.

import (
	"fmt"

	"mcr/program"
)

// Strict reports whether Mwidth(P|X2) = 1: every pair of conflicting leaf
// events is ordered (the shape Closure and Lemma 4.1 require).
func (p *APO) Strict() bool {
	_, _, unordered := p.unorderedLeafPair()
	return !unordered
}

// EverGood reports whether w is a good write of some read (the opposite of
// the paper's never-good).
func (p *APO) EverGood(w int32) bool {
	for _, g := range p.Good {
		for _, x := range g {
			if x == w {
				return true
			}
		}
	}
	return false
}

// SameReaders reports whether writes a and b are good writes of the same
// reads (then either may stand for the other wherever a read observes one).
func (p *APO) SameReaders(a, b int32) bool {
	for r := range p.Good {
		if p.good(int32(r), a) != p.good(int32(r), b) {
			return false
		}
	}
	return true
}

// Observable reports whether some read r may observe w: w is a good
// write of r and visible to it (w ∈ GoodW(r) ∩ VisibleW_P(r): not r < w
// and no write w' with w < w' < r). A write that is not observable is
// unobservable in the sense of Section 6 (implementation detail 3): no
// linearization of P, in which every read observes a good write, lets a
// read observe it; a never-good write is unobservable. Adding orderings
// only makes writes unobservable; adding reads can undo it.
func (p *APO) Observable(w int32) bool {
	e := &p.Events[w]
	if e.Kind != Write {
		return false
	}
	for r := range p.Events {
		x := int32(r)
		if p.Events[x].Kind == Read && p.Events[x].Loc == e.Loc && !p.Before(x, w) && p.good(x, w) && !p.hidden(w, x) {
			return true
		}
	}
	return false
}

// RelaxedClosure strengthens p by orderings that every linearization of p
// (every total order refining P in which each read observes a good write)
// has, until none applies; it returns nil and false if it finds there is
// no linearization. For a read r with G = GoodW(r) ∩ VisibleW(r) (the
// observation of r lies in G in every linearization):
//
//   - G is empty: ⊥ (Algorithm 2 line 2);
//   - no write of G is before r and G has a least element m: m < r (the
//     observation o is before r and m <= o; Rule1, Algorithm 2);
//   - a bad visible write w that every write of G precedes cannot precede
//     the observation, so r < w (Rule2, Algorithm 3, is the case of a
//     maximal w);
//   - a bad visible write w < r must precede the observation: the writes
//     of G not below w are the candidates; none: ⊥; a greatest one M:
//     w < M (Rule3, Algorithm 4, orders w below the maximal write of the
//     other part, which is M or above it).
//
// With Mwidth(P|X2) = 1 it is Closure. p must pass CheckRelaxed; p is not
// changed. The result need not be closed in the sense of Section 4.1, so
// its Lemma 4.1 witness must be checked (Linearizes).
func RelaxedClosure(p *APO) (*APO, bool, error) {
	if err := p.CheckRelaxed(); err != nil {
		return nil, false, err
	}
	if p.Strict() {
		return Closure(p)
	}
	q := p.Clone()
	ok, err := q.fixpoint(func(r int32) (int32, int32, bool, error) {
		from, to, ok := q.necessary(r)
		return from, to, ok, nil
	})
	if err != nil || !ok {
		return nil, false, err
	}
	return q, true, nil
}

// necessary returns one ordering from < to that RelaxedClosure's rules
// derive for r and P does not have yet (from = -1: none), or false for ⊥.
func (q *APO) necessary(r int32) (int32, int32, bool) {
	vis := q.Visible(r)
	var g []int32
	for _, w := range vis {
		if q.good(r, w) {
			g = append(g, w)
		}
	}
	if len(g) == 0 {
		return 0, 0, false
	}
	before := false
	for _, w := range g {
		before = before || q.Before(w, r)
	}
	if !before {
		if m, ok := q.least(g); ok {
			return m, r, true
		}
	}
	for _, w := range vis {
		if q.good(r, w) {
			continue
		}
		var cands []int32 // the good writes w may precede
		for _, x := range g {
			if !q.Before(x, w) {
				cands = append(cands, x)
			}
		}
		if !q.Before(w, r) {
			if len(cands) == 0 && !q.Before(r, w) {
				return r, w, true
			}
			continue
		}
		if len(cands) == 0 {
			return 0, 0, false
		}
		if m, ok := q.greatest(cands); ok && !q.Before(w, m) {
			return w, m, true
		}
	}
	return -1, -1, true
}

// least returns the element of ws below every other, if there is one.
func (q *APO) least(ws []int32) (int32, bool) { return q.extreme(ws, false) }

// greatest returns the element of ws above every other, if there is one.
func (q *APO) greatest(ws []int32) (int32, bool) { return q.extreme(ws, true) }

func (q *APO) extreme(ws []int32, top bool) (int32, bool) {
	for _, m := range ws {
		all := true
		for _, w := range ws {
			if w != m && (top && !q.Before(w, m) || !top && !q.Before(m, w)) {
				all = false
				break
			}
		}
		if all {
			return m, true
		}
	}
	return 0, false
}

// Linearization maps a witness of enc.Inst back to the linearization of
// enc.APO it contains (flag events dropped), or fails if it is not a
// permutation of the APO's events.
func (enc *Encoding) Linearization(w program.Witness) ([]int32, error) {
	at := make(map[[2]int32]int32, len(enc.At))
	for i, id := range enc.At {
		at[[2]int32{int32(id.Thread), id.Index}] = int32(i)
	}
	out := make([]int32, 0, len(enc.At))
	for _, st := range w {
		if i, ok := at[[2]int32{int32(st.Event.Thread), st.Event.Index}]; ok {
			out = append(out, i)
		}
	}
	if len(out) != len(enc.At) {
		return nil, fmt.Errorf("apo: the witness has %d of %d events", len(out), len(enc.At))
	}
	return out, nil
}
