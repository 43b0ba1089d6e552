package explicit

// This file implements closure: a cheap partial order that every witness
// must refine, computed as a fixpoint of ordering rules; when the rules
// produce a cycle the instance has no witness.
//
//   - closureSC: seed 000 Section 4.2 ("2. Closure"), conditions (1)-(4)
//     over good-writes sets, for VerifySC; the lock condition of Appendix A
//     (release <_P acquire for an acquire's only release).
//   - closureRelaxed: seed 004 Section 4.3, conditions (1)-(3) over a
//     reads-from function, for VerifyTSO and VerifyPSO, on thread events
//     and memory-writes (flush nodes); Remark 1 for locks.
//
// Both add fork/join orders and one rule of our own for locks (rule L):
// two critical sections of a lock in different threads never overlap, so
// if acq1 <_P rel2 then rel1 <_P acq2, and a section never released comes
// after every other. Every rule only adds orders that all witnesses have,
// so closure is sound; it is not complete.

import "mcr/program"

// closureSC returns the closure of an SC instance (nodes are events, chains
// are threads), or false if it has none.
func closureSC(v *view) (*porder, bool, error) {
	nodes := make([][]int32, v.k)
	for t := range v.k {
		for e := v.start[t]; e < v.start[t+1]; e++ {
			nodes[t] = append(nodes[t], e)
		}
	}
	p := forkJoinOrder(v, nodes) // along the guide (closure_forkjoin.go)
	c := closer{v: v, p: p, node: func(e int32) int32 { return e }}
	if p == nil {
		p = newPorder(nodes, v.n)
		c.p = p
		if !c.forkJoin() {
			return nil, false, nil
		}
	}
	ok, err := c.saturate(c.goodWritesRules)
	if !ok {
		return nil, false, err
	}
	return p, true, nil
}

// closureRelaxed returns the closure of a reads-from TSO or PSO instance.
// Nodes are events (0..n-1) and memory-writes (flushNode); chains are the
// threads, then the store-buffer chains, so that a state's done vector is
// its prefix followed by its flushed counts.
func closureRelaxed(v *view) (*porder, bool, error) {
	nodes := make([][]int32, v.k+len(v.chains))
	for t := range v.k {
		for e := v.start[t]; e < v.start[t+1]; e++ {
			nodes[t] = append(nodes[t], e)
		}
	}
	for c, ws := range v.chains {
		for _, w := range ws {
			nodes[v.k+c] = append(nodes[v.k+c], v.flushNode(w))
		}
	}
	p := newPorder(nodes, v.n+v.numWrites())
	c := closer{v: v, p: p, node: v.flushNode}
	if !c.forkJoin() {
		return nil, false, nil
	}
	// Program order between the halves of writes and the drains: a write's
	// memory-write follows it; an event that drains its buffers follows the
	// memory-write of its thread's last earlier write of each chain.
	for t := range int32(v.k) {
		last := map[int32]int32{} // chain -> last write so far
		for e := v.start[t]; e < v.start[t+1]; e++ {
			if v.drains(e) {
				for _, w := range last {
					if !c.edge(v.flushNode(w), e) {
						return nil, false, nil
					}
				}
			}
			if v.kind[e] == program.Write {
				if !c.edge(e, v.flushNode(e)) {
					return nil, false, nil
				}
				last[v.chainOf[e]] = e
			}
		}
	}
	ok, err := c.saturate(c.readsFromRules)
	if !ok {
		return nil, false, err
	}
	return p, true, nil
}

// saturate applies readRules to every read (with the writes of its
// location) and the lock rules until a pass adds no edge. It returns false
// when a rule finds a cycle (err nil: no closure exists) or the context
// stopped the computation (err says why; a cut is never "no closure").
func (c *closer) saturate(readRules func(r int32, writes []int32) bool) (bool, error) {
	v := c.v
	writes := v.writesByLoc()
	for c.changed = true; c.changed; {
		if err := v.stopped("closure"); err != nil {
			return false, err
		}
		c.changed = false
		for r := range int32(v.n) {
			if v.kind[r] == program.Read && !readRules(r, writes[v.loc[r]]) {
				return false, c.err
			}
		}
		if !c.lockRules() {
			return false, nil
		}
	}
	return true, nil
}

// closer holds the state of one closure computation. node maps a write to
// the node that makes it visible (itself under SC, its memory-write under
// TSO/PSO).
type closer struct {
	v       *view
	p       *porder
	node    func(w int32) int32
	changed bool
	// steps counts the (read, write) pairs the rules looked at, err is the
	// context's error once poll saw it: a rule that returns false with err
	// set was stopped, it found no cycle.
	steps int
	err   error
}

// poll counts n more (read, write) pairs and looks at the context every
// 1,024: one pass of the rules is O(reads · good writes · writes), and
// polling once a pass ran minutes past --timeout (pthread-ext/05_tas: one
// pass over 45,000 reads of a lock word with 16,000 writes). It reports
// false when the closure must stop, with c.err set.
func (c *closer) poll(n int) bool {
	if c.steps += n; c.steps < 1024 {
		return true
	}
	c.steps = 0
	c.err = c.v.stopped("closure")
	return c.err == nil
}

// edge adds a <_P b, noting a change; false means a cycle.
func (c *closer) edge(a, b int32) bool {
	ch, ok := c.p.addEdge(a, b)
	c.changed = c.changed || ch
	return ok
}

// forkJoin adds fork -> first event of the child, last event (and last
// memory-writes) of a joined thread -> join.
func (c *closer) forkJoin() bool {
	v := c.v
	for e := range int32(v.n) {
		switch v.kind[e] {
		case program.Fork:
			if ch := int32(v.inst.Events[e].Value); v.end(ch) > 0 && !c.edge(e, v.start[ch]) {
				return false
			}
		case program.Join:
			j := v.joinOf[e]
			if v.end(j) > 0 && !c.edge(v.start[j+1]-1, e) {
				return false
			}
			if v.inst.Model != program.SC {
				for _, ch := range v.thChain[j] {
					ws := v.chains[ch]
					if !c.edge(v.flushNode(ws[len(ws)-1]), e) {
						return false
					}
				}
			}
		}
	}
	return true
}

// goodWritesRules applies conditions (1)-(4) of seed 000 Section 4.2 to read
// r. writes are all writes to r's location.
func (c *closer) goodWritesRules(r int32, writes []int32) bool {
	v, p := c.v, c.p
	good := v.src[r]
	// Cl(r) = GoodW(r) ∩ VisibleW_P(r).
	var cl []int32
	for _, w := range good {
		if !c.poll(len(writes)) {
			return false
		}
		if c.visible(r, w, writes) {
			cl = append(cl, w)
		}
	}
	// (1) Cl(r) is not empty.
	if len(cl) == 0 {
		return false
	}
	below := func(a, b int32) bool {
		return a == program.InitSource && b != program.InitSource || a >= 0 && b >= 0 && p.before(a, b)
	}
	// (2) A least element of Cl(r) comes before r.
	if least := extreme(cl, below, true); least >= 0 && !c.edge(least, r) {
		return false
	}
	// (3) A bad write before r comes before a greatest element of Cl(r).
	if greatest, ok := extremeOK(cl, below, false); ok {
		for _, wb := range writes {
			if !c.poll(len(good)) {
				return false
			}
			if !contains(good, wb) && p.before(wb, r) && (greatest == program.InitSource || !c.edge(wb, greatest)) {
				return false
			}
		}
	}
	// (4) A bad write after all of Cl(r) comes after r.
	for _, wb := range writes {
		if !c.poll(len(good) + len(cl)) {
			return false
		}
		if contains(good, wb) {
			continue
		}
		after := true
		for _, w := range cl {
			if !below(w, wb) {
				after = false
				break
			}
		}
		if after && !c.edge(r, wb) {
			return false
		}
	}
	return true
}

// visible reports w ∈ VisibleW_P(r) (seed 000 Section 2): r is not before
// w, and no write to the location lies between w and r.
func (c *closer) visible(r, w int32, writes []int32) bool {
	p := c.p
	if w >= 0 && p.before(r, w) {
		return false
	}
	for _, w2 := range writes {
		if w2 != w && (w < 0 || p.before(w, w2)) && p.before(w2, r) {
			return false
		}
	}
	return true
}

// extreme returns the least (or greatest) element of set under below, or
// -2 if there is none or it is init (nothing to order).
func extreme(set []int32, below func(a, b int32) bool, least bool) int32 {
	x, ok := extremeOK(set, below, least)
	if !ok || x == program.InitSource {
		return -2
	}
	return x
}

func extremeOK(set []int32, below func(a, b int32) bool, least bool) (int32, bool) {
	for _, a := range set {
		all := true
		for _, b := range set {
			if a != b && (least && !below(a, b) || !least && !below(b, a)) {
				all = false
				break
			}
		}
		if all {
			return a, true
		}
	}
	return 0, false
}

// readsFromRules applies conditions (1)-(3) of seed 004 Section 4.3 to read
// r of a TSO/PSO instance. writes are all writes to r's location.
func (c *closer) readsFromRules(r int32, writes []int32) bool {
	if !c.poll(len(writes)) {
		return false
	}
	v := c.v
	s := v.src[r][0]
	t := v.th[r]
	if s == program.InitSource {
		// No own write may precede r, no memory-write of another thread may
		// precede it, and all come after it.
		if v.ownPrev[r] >= 0 {
			return false
		}
		for _, w := range writes {
			if v.th[w] == t {
				continue
			}
			if c.p.before(c.node(w), r) || !c.edge(r, c.node(w)) {
				return false
			}
		}
		return true
	}
	if v.th[s] == t && s != v.ownPrev[r] {
		return false // an own write that is not the last one before r
	}
	wm := c.node(s)
	// (1) A remote write is in memory before r, after r's own earlier writes.
	if v.th[s] != t {
		if !c.edge(wm, r) {
			return false
		}
		if o := v.ownPrev[r]; o >= 0 && !c.edge(c.node(o), wm) {
			return false
		}
	}
	for _, w := range writes {
		if w == s || v.th[w] == t {
			continue
		}
		// (2) Another thread's memory-write before r is before wM.
		if c.p.before(c.node(w), r) && !c.edge(c.node(w), wm) {
			return false
		}
		// (3) Another thread's memory-write after wM is after r.
		if c.p.before(wm, c.node(w)) && !c.edge(r, c.node(w)) {
			return false
		}
	}
	return true
}

// lockRules applies the lock conditions: an acquire's only release comes
// before it (seed 000 Appendix A, seed 004 Remark 1), an acquire of init
// comes before every release of its lock, a failed trylock with one
// source comes inside its section (002_29f9f830801bf5b9.txt Section 7),
// and rule L.
func (c *closer) lockRules() bool {
	v, p := c.v, c.p
	for a := range int32(v.n) {
		if v.kind[a] == program.LockFail && len(v.src[a]) == 1 {
			// A failed trylock falls in the section of its only source.
			h := v.src[a][0]
			if !c.edge(h, a) {
				return false
			}
			if rel := v.crit[v.loc[h]][v.sec[h]].rel; rel >= 0 && !c.edge(a, rel) {
				return false
			}
			continue
		}
		if v.kind[a] != program.Acquire || len(v.src[a]) != 1 {
			continue
		}
		if s := v.src[a][0]; s >= 0 {
			if !c.edge(s, a) {
				return false
			}
		} else {
			for _, cs := range v.crit[v.loc[a]] {
				if cs.rel >= 0 && cs.acq != a && !c.edge(a, cs.rel) {
					return false
				}
			}
		}
	}
	for l := range v.d {
		cs := v.crit[l]
		for i := range cs {
			for j := range cs {
				c1, c2 := cs[i], cs[j]
				if v.th[c1.acq] == v.th[c2.acq] {
					continue
				}
				if c1.rel < 0 {
					// c1 holds the lock to the end: c2 is entirely before it.
					if c2.rel < 0 || !c.edge(c2.rel, c1.acq) {
						return false
					}
					continue
				}
				if c2.rel >= 0 && p.before(c1.acq, c2.rel) && !c.edge(c1.rel, c2.acq) {
					return false
				}
			}
		}
	}
	return true
}

// writesByLoc returns the writes of each location.
func (v *view) writesByLoc() [][]int32 {
	out := make([][]int32, v.d)
	for e := range int32(v.n) {
		if v.kind[e] == program.Write {
			out[v.loc[e]] = append(out[v.loc[e]], e)
		}
	}
	return out
}

// numWrites returns the number of writes (memory-write nodes).
func (v *view) numWrites() int {
	n := 0
	for _, ws := range v.chains {
		n += len(ws)
	}
	return n
}

// flushNode returns the node of write w's memory-write: events come first,
// then the memory-writes chain by chain.
func (v *view) flushNode(w int32) int32 {
	if v.flushBase == nil {
		v.flushBase = make([]int32, len(v.chains)+1)
		for c, ws := range v.chains {
			v.flushBase[c+1] = v.flushBase[c] + int32(len(ws))
		}
	}
	return int32(v.n) + v.flushBase[v.chainOf[w]] + v.ord[w]
}
