package explicit

// This file implements the saturation procedure Saturate(R) of seed 002
// (002_29f9f830801bf5b9.txt, Section 5.1, phase P-I of GetWitness): the
// smallest transitive relation shb containing R that, for every read eR and
// different writes eW, e'W of one location, satisfies
//
//	R1. if eW [shb] eR and e'W [rf] eR, then eW [shb] e'W;
//	R2. if e'W [shb] eW and e'W [rf] eR, then eR [shb] eW.
//
// As in Section 7 of the paper (Nidhugg/rfsc), an RMW or CAS pair is one
// node that reads and writes its location, and a lock is a location that
// acquires read-and-write (each reads the release it follows, or init) and
// releases write. A node is kept as its two events: orders into a node
// target its first event, orders out of it leave from its last, so nothing
// can come between the halves of a pair. A failed trylock (LockFail) is a
// plain read of its lock that reads an acquire's write (Section 7: a
// trylock is an RMW of the lock, a failed one a failed CAS), so R2 puts it
// before the release of the section it reads.

import "mcr/program"

// saturation holds shb over the events of a reads-from SC instance.
type saturation struct {
	v       *view
	p       *porder
	readers []int32   // reads and acquires
	writers [][]int32 // per location or lock: writes, releases and acquires
}

// first and last return the first and last event of e's node.
func (s *saturation) first(e int32) int32 {
	if s.v.kind[e] == program.Write && s.v.inst.Events[e].Is(program.RMWWrite) {
		return e - 1
	}
	return e
}

func (s *saturation) last(e int32) int32 {
	if s.v.rmw[e] {
		return e + 1
	}
	return e
}

// ownWrite returns the write of reader r's own node (its RMW write half,
// or the acquire itself), or -1.
func (s *saturation) ownWrite(r int32) int32 {
	switch {
	case s.v.rmw[r]:
		return r + 1
	case s.v.kind[r] == program.Acquire:
		return r
	}
	return -1
}

// newSaturation returns ≤τ ∪ rf (program order, fork/join, reads-from) as
// an order, or false if it is already cyclic or v's context is done (the
// caller tells them apart with v.stopped).
func newSaturation(v *view) (*saturation, bool) {
	nodes := make([][]int32, v.k)
	for t := range v.k {
		for e := v.start[t]; e < v.start[t+1]; e++ {
			nodes[t] = append(nodes[t], e)
		}
	}
	s := &saturation{v: v, p: newPorder(nodes, v.n), writers: make([][]int32, v.d)}
	c := closer{v: v, p: s.p}
	if !c.forkJoin() {
		return nil, false
	}
	for e := range int32(v.n) {
		switch v.kind[e] {
		case program.Read, program.LockFail:
			s.readers = append(s.readers, e)
		case program.Write, program.Release:
			s.writers[v.loc[e]] = append(s.writers[v.loc[e]], e)
		case program.Acquire:
			s.readers = append(s.readers, e)
			s.writers[v.loc[e]] = append(s.writers[v.loc[e]], e)
		}
	}
	for i, r := range s.readers {
		if i%1024 == 1023 && v.stopped("saturation") != nil {
			return nil, false // each addEdge may walk every chain (tas_forever.c)
		}
		if src := v.src[r][0]; src >= 0 {
			if _, ok := s.p.addEdge(s.last(src), s.first(r)); !ok {
				return nil, false
			}
		}
	}
	return s, true
}

// saturate closes s.p under R1 and R2; false means shb is cyclic.
func (s *saturation) saturate() (bool, error) {
	p := s.p
	for changed := true; changed; {
		if err := s.v.stopped("saturation"); err != nil {
			return false, err
		}
		changed = false
		add := func(a, b int32) bool {
			ch, ok := p.addEdge(a, b)
			changed = changed || ch
			return ok
		}
		steps := 0
		for _, r := range s.readers {
			src, own := s.v.src[r][0], s.ownWrite(r)
			for _, w := range s.writers[s.v.loc[r]] {
				// A round is O(reads · writes) addEdge calls: look at ctx
				// within it, counting pairs, not reads (tas_forever.c: one
				// read faces 100,000 writes; polling every 256 reads ran
				// 3 s past --timeout).
				if steps++; steps%1024 == 0 {
					if err := s.v.stopped("saturation"); err != nil {
						return false, err
					}
				}
				if w == src || w == own {
					continue
				}
				if src == program.InitSource {
					// init [shb] every write: R1 makes any write before r a
					// cycle, R2 puts r before every write.
					if p.before(s.last(w), s.first(r)) || !add(s.last(r), s.first(w)) {
						return false, nil
					}
					continue
				}
				// R1: eW [shb] eR and e'W [rf] eR imply eW [shb] e'W.
				if p.before(s.last(w), s.first(r)) && !add(s.last(w), s.first(src)) {
					return false, nil
				}
				// R2: e'W [shb] eW and e'W [rf] eR imply eR [shb] eW.
				if p.before(s.last(src), s.first(w)) && !add(s.last(r), s.first(w)) {
					return false, nil
				}
			}
		}
	}
	return true, nil
}
