package explicit

// This file implements the partial order that closures and saturation grow:
// the nodes are covered by chains (threads, store buffers), each totally
// ordered, and the order is kept transitively closed as two vector clocks
// per node (seed 004 Section 4.3 computes closure the same way, with one
// clock entry per chain).

// porder is a strict partial order over nodes 0..n-1 that contains the
// chain orders. pred[a*nc+c] is the number of nodes of chain c that are <=
// a; succ[a*nc+c] is the position of the first node of chain c that is >=
// a (len(chain c) if none).
type porder struct {
	nc    int
	chain []int32   // per node
	pos   []int32   // per node: position in its chain
	nodes [][]int32 // per chain: its nodes in order
	pred  []int32
	succ  []int32
}

// newPorder returns the order that is the union of the chains.
func newPorder(nodes [][]int32, n int) *porder {
	nc := len(nodes)
	p := &porder{nc: nc, chain: make([]int32, n), pos: make([]int32, n), nodes: nodes,
		pred: make([]int32, n*nc), succ: make([]int32, n*nc)}
	for c, ns := range nodes {
		for q, a := range ns {
			p.chain[a], p.pos[a] = int32(c), int32(q)
		}
	}
	for a := range n {
		for c := range nc {
			p.succ[a*nc+c] = int32(len(nodes[c]))
		}
		c := int(p.chain[a])
		p.pred[a*nc+c] = p.pos[a] + 1
		p.succ[a*nc+c] = p.pos[a]
	}
	return p
}

// before reports a <_P b.
func (p *porder) before(a, b int32) bool {
	return a != b && p.pred[int(b)*p.nc+int(p.chain[a])] > p.pos[a]
}

// addEdge adds a <_P b and closes transitively. It reports whether the
// order changed and false in ok if the edge closes a cycle (b <=_P a).
func (p *porder) addEdge(a, b int32) (changed, ok bool) {
	if a == b || p.before(b, a) {
		return false, false
	}
	if p.before(a, b) {
		return false, true
	}
	nc := p.nc
	pa := p.pred[int(a)*nc : int(a)*nc+nc]
	sb := p.succ[int(b)*nc : int(b)*nc+nc]
	// Every node >= b now has every node <= a below it. Along a chain the
	// clocks grow, so a chain's walk stops at the first node that already
	// has them.
	for c := range nc {
		for q := sb[c]; q < int32(len(p.nodes[c])); q++ {
			x := int(p.nodes[c][q]) * nc
			grew := false
			for c2 := range nc {
				if pa[c2] > p.pred[x+c2] {
					p.pred[x+c2] = pa[c2]
					grew = true
				}
			}
			if !grew {
				break
			}
		}
	}
	for c := range nc {
		for q := pa[c] - 1; q >= 0; q-- {
			x := int(p.nodes[c][q]) * nc
			shrank := false
			for c2 := range nc {
				if sb[c2] < p.succ[x+c2] {
					p.succ[x+c2] = sb[c2]
					shrank = true
				}
			}
			if !shrank {
				break
			}
		}
	}
	return true, true
}

// minimal reports whether every node below a in chains other than a's is
// among the first done[c] nodes of its chain: a may come next.
func (p *porder) minimal(a int32, done []int32) bool {
	row := p.pred[int(a)*p.nc : int(a)*p.nc+p.nc]
	own := p.chain[a]
	for c, k := range row {
		if int32(c) != own && k > done[c] {
			return false
		}
	}
	return true
}

// linearize returns a linearization of all nodes, preferring at each step
// the available node of lowest rank; glue[a] >= 0 names a node that must
// come right after a (the write half of an RMW).
func (p *porder) linearize(rank []int32, glue []int32) []int32 {
	done := make([]int32, p.nc)
	var out []int32
	total := 0
	for _, ns := range p.nodes {
		total += len(ns)
	}
	for len(out) < total {
		best := int32(-1)
		for c, ns := range p.nodes {
			if int(done[c]) == len(ns) {
				continue
			}
			a := ns[done[c]]
			if p.minimal(a, done) && (best < 0 || rank[a] < rank[best]) {
				best = a
			}
		}
		if best < 0 {
			return nil // cannot happen for an acyclic order
		}
		for a := best; a >= 0; a = glue[a] {
			out = append(out, a)
			done[p.chain[a]]++
		}
	}
	return out
}

// clone returns a copy of p that can grow independently.
func (p *porder) clone() *porder {
	c := *p
	c.pred = append([]int32(nil), p.pred...)
	c.succ = append([]int32(nil), p.succ...)
	return &c
}
