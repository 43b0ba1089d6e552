package apo

// This file implements Realize (003_0c44ef4d03fff5a7.txt Section 4.3):
// compute the closure (Algorithm 1); if it exists, linearize it as the
// proof of Lemma 4.1 says: add e1 < e2 for every root event e1 and leaf
// event e2 unless e2 < e1 already, then take any linearization. It also
// implements Linearizes, the definition of a linearization, which tests
// use to check every witness.

import (
	"fmt"
	"slices"
)

// Realize decides whether p is realizable (Theorem 4.5) and returns a
// witness: every event of p once, in an order that refines p in which
// every read observes a good write. It returns nil and false if p is not
// realizable, and an error (wrapping ErrMalformed) if p fails Check.
func Realize(p *APO) ([]int32, bool, error) {
	q, ok, err := Closure(p)
	if err != nil || !ok {
		return nil, false, err
	}
	return Witness(q), true, nil
}

// Witness returns the linearization of a closed q that Lemma 4.1
// constructs: the order Q' = Q plus e1 < e2 for every e1 in X1 and e2 in
// X2 with not e2 <_Q e1 (the root runs as early as Q lets it), linearized
// by Kahn's algorithm, smallest event first among the ready ones. Q' is
// acyclic because X1 is a chain: a cycle would need e2 <_Q e1' <=_Q e1
// for the e1 < e2 that Q' added, which its condition excludes.
func Witness(q *APO) []int32 {
	n := q.Len()
	edge := func(x, y int32) bool {
		return x != y && (q.Before(x, y) || q.Part(x) == 1 && q.Part(y) == 2 && !q.Before(y, x))
	}
	indeg := make([]int32, n)
	for a := range int32(n) {
		for b := range int32(n) {
			if edge(a, b) {
				indeg[b]++
			}
		}
	}
	out := make([]int32, 0, n)
	var ready []int32
	for e := range n {
		if indeg[e] == 0 {
			ready = append(ready, int32(e))
		}
	}
	for len(ready) > 0 {
		k := slices.Index(ready, slices.Min(ready))
		e := ready[k]
		ready = slices.Delete(ready, k, k+1)
		out = append(out, e)
		for f := range int32(n) {
			if edge(e, f) {
				if indeg[f]--; indeg[f] == 0 {
					ready = append(ready, f)
				}
			}
		}
	}
	return out
}

// Linearizes reports why t is not a linearization of p (Section 4.1:
// every event once, t refines P, every read observes one of its good
// writes), or nil if it is one.
func Linearizes(p *APO, t []int32) error {
	n := p.Len()
	if len(t) != n {
		return fmt.Errorf("%d events for %d", len(t), n)
	}
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	for i, e := range t {
		if e < 0 || int(e) >= n || pos[e] >= 0 {
			return fmt.Errorf("event %d out of range or repeated", e)
		}
		pos[e] = i
	}
	for a := range n {
		for b := range n {
			if p.Before(int32(a), int32(b)) && pos[a] > pos[b] {
				return fmt.Errorf("%d <_P %d but %d comes first", a, b, b)
			}
		}
	}
	last := map[int32]int32{}
	for _, e := range t {
		ev := &p.Events[e]
		if ev.Kind != Read {
			if ev.Kind == Write {
				last[ev.Loc] = e
			}
			continue
		}
		w, ok := last[ev.Loc]
		if !ok || !p.good(e, w) {
			return fmt.Errorf("read %d observes %v (ok %v), not one of its good writes %v", e, w, ok, p.Good[e])
		}
	}
	return nil
}
