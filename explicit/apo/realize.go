package apo

// This file implements Realize (003_0c44ef4d03fff5a7.txt Section 4.3):
// compute the closure (Algorithm 1); if it exists, linearize it as the
// proof of Lemma 4.1 says: add e1 < e2 for every root event e1 and leaf
// event e2 unless e2 < e1 already, then take any linearization. It also
// implements Linearizes, the definition of a linearization, which tests
// use to check every witness.

import (
	"fmt"
	"math/bits"
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
	o := q.order
	// Kahn's algorithm on Q' with in-degrees from the successor bitsets:
	// the in-degree of a leaf event b in Q' is |pred_Q(b)| plus the root
	// events Q leaves unordered with b. O(pairs of Q + n*|X1|), where
	// testing edge(a, b) for every pair was O(n^2) Before calls twice.
	root := make([]uint64, o.words)
	nroot := int32(0)
	for e := range n {
		if q.Events[e].Thread == 0 {
			root[e>>6] |= 1 << (uint(e) & 63)
			nroot++
		}
	}
	indeg := make([]int32, n)
	rootBefore := make([]int32, n) // root events a with a <_Q b
	for a := range n {
		isRoot := q.Events[a].Thread == 0
		forEach(o.row(int32(a)), func(b int) {
			indeg[b]++
			if isRoot {
				rootBefore[b]++
			}
		})
	}
	ready := make([]uint64, o.words)
	for b := range n {
		if q.Events[b].Thread != 0 {
			after := int32(0)
			for k, w := range o.row(int32(b)) {
				after += int32(bits.OnesCount64(w & root[k]))
			}
			indeg[b] += nroot - after - rootBefore[b]
		}
		if indeg[b] == 0 {
			ready[b>>6] |= 1 << (uint(b) & 63)
		}
	}
	dec := func(f int) {
		if indeg[f]--; indeg[f] == 0 {
			ready[f>>6] |= 1 << (uint(f) & 63)
		}
	}
	out := make([]int32, 0, n)
	for k := 0; k < len(ready); {
		if ready[k] == 0 {
			k++
			continue
		}
		e := k*64 + bits.TrailingZeros64(ready[k]) // the smallest ready event
		ready[k] &^= 1 << (uint(e) & 63)
		out = append(out, int32(e))
		forEach(o.row(int32(e)), dec)
		if q.Events[e].Thread == 0 {
			for f := range int32(n) {
				if q.Events[f].Thread != 0 && !o.Before(int32(e), f) && !o.Before(f, int32(e)) {
					dec(int(f))
				}
			}
		}
		k = 0 // a smaller event may have become ready

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
		var bad error
		forEach(p.order.row(int32(a)), func(b int) {
			if bad == nil && pos[a] > pos[b] {
				bad = fmt.Errorf("%d <_P %d but %d comes first", a, b, b)
			}
		})
		if bad != nil {
			return bad
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
