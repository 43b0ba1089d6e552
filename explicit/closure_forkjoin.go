package explicit

// This file builds the order closure starts from under SC (closure.go:
// program order, fork before the child's first event, the joined thread's
// last event before the join) in one pass each way along a linearization
// of the instance, instead of edge by edge: addEdge walks the chains for
// every fork and join, which was a quarter of VerifySC's closure on
// readers (15 threads forked and joined; issue 17). The relation is the
// same, and porder's vectors are a function of the relation, so the
// closure computed from it is the same.

import "mcr/program"

// forkJoinOrder returns the SC order of chains, forks and joins over the
// events of v, or nil if the instance's guide is not a linearization of
// every event that keeps that order (the caller then adds the edges one by
// one).
func forkJoinOrder(v *view, nodes [][]int32) *porder {
	order := make([]int32, 0, v.n)
	seen := make([]bool, v.n)
	for _, st := range v.inst.Guide {
		if st.Flush {
			continue
		}
		e := v.inst.Dense(st.Event)
		if e < 0 || seen[e] {
			return nil
		}
		seen[e] = true
		order = append(order, e)
	}
	if len(order) != v.n {
		return nil
	}
	// The order must put every event after its predecessors.
	pos := make([]int32, v.n)
	for i, e := range order {
		pos[e] = int32(i)
	}
	joins := make([][]int32, v.k) // per thread: the joins waiting for it
	for e := range int32(v.n) {
		if v.idx[e] > 0 && pos[e-1] > pos[e] {
			return nil
		}
		switch v.kind[e] {
		case program.Fork:
			if ch := v.inst.Events[e].Value; ch < 0 || int(ch) >= v.k {
				return nil
			} else if v.end(int32(ch)) > 0 && pos[e] > pos[v.start[ch]] {
				return nil
			}
		case program.Join:
			if j := v.joinOf[e]; j >= 0 && int(j) < v.k && v.end(j) > 0 {
				if pos[v.start[j+1]-1] > pos[e] {
					return nil
				}
				joins[j] = append(joins[j], e)
			}
		}
	}
	p := newPorder(nodes, v.n)
	nc := p.nc
	up := func(a, b int32) { // pred(a) grows by pred(b)
		pa, pb := p.pred[int(a)*nc:int(a)*nc+nc], p.pred[int(b)*nc:int(b)*nc+nc]
		for c, n := range pb {
			pa[c] = max(pa[c], n)
		}
	}
	down := func(a, b int32) { // succ(a) shrinks by succ(b)
		sa, sb := p.succ[int(a)*nc:int(a)*nc+nc], p.succ[int(b)*nc:int(b)*nc+nc]
		for c, n := range sb {
			sa[c] = min(sa[c], n)
		}
	}
	for _, e := range order {
		t := v.th[e]
		if v.idx[e] > 0 {
			up(e, e-1)
		} else if f := v.forkOf[t]; f >= 0 {
			up(e, f)
		}
		if v.kind[e] == program.Join {
			if j := v.joinOf[e]; v.end(j) > 0 {
				up(e, v.start[j+1]-1)
			}
		}
	}
	for i := len(order) - 1; i >= 0; i-- {
		e := order[i]
		t := v.th[e]
		if e+1 < v.start[t+1] {
			down(e, e+1)
		} else {
			for _, jn := range joins[t] {
				down(e, jn)
			}
		}
		if v.kind[e] == program.Fork {
			if ch := v.inst.Events[e].Value; v.end(int32(ch)) > 0 {
				down(e, v.start[ch])
			}
		}
	}
	return p
}
