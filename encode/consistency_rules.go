package encode

// This file implements the conditional constraints of the consistency
// encodings over the order skeleton (consistency_order.go):
//
//   - Φ_rf: every read reads from one of its allowed sources. A reads-from
//     instance (VSC-rf, 002_29f9f830801bf5b9.txt Section 5; VTSO-rf and
//     VPSO-rf, 004_fe58e94b2666f77b.txt Section 2.1) gives one source, a
//     good-writes instance (000_1fb260b9b3a323b2.txt Section 4) a set;
//     under TSO/PSO a read may also read its own buffer.
//   - Φ_lock: critical sections of a lock do not overlap, and an acquire
//     with sources finds one of them as the lock's last release.
//
// Every formula is built with the skeleton's simplifications, so pairs the
// skeleton already orders (program order, fork/join, FIFO, fences) cost
// nothing.

import (
	"slices"

	"mcr/program"
)

// rules holds the per-location data the constraints need.
type rules struct {
	*skeleton
	writes  [][]int32 // per location: its writes
	rels    [][]int32 // per lock: its releases
	locks   [][]int32 // per lock: its acquires and releases (failed trylocks read them)
	acqs    [][]int32 // per lock: its acquires, sorted
	crits   [][]crit  // per lock: its critical sections
	ownPrev []int32   // per read: its thread's latest earlier write to its location, or -1
	bad     []int32   // window's scratch list
}

// crit is a critical section: acquire and release events (rel = -1 if its
// thread never releases the lock).
type crit struct{ acq, rel int32 }

// newRules collects what the rules need.
func newRules(s *skeleton) *rules {
	inst := s.inst
	d := len(inst.Locs)
	r := &rules{skeleton: s, writes: make([][]int32, d), rels: make([][]int32, d), crits: make([][]crit, d),
		locks: make([][]int32, d), acqs: make([][]int32, d),
		ownPrev: make([]int32, len(inst.Events))}
	for t := range inst.Threads {
		lastW := map[program.Loc]int32{}
		open := map[program.Loc]int{} // lock -> index of its open section in crits
		for i := inst.Start[t]; i < inst.Start[t+1]; i++ {
			e := &inst.Events[i]
			r.ownPrev[i] = -1
			switch e.Kind {
			case program.Read:
				if w, ok := lastW[e.Loc]; ok {
					r.ownPrev[i] = w
				}
			case program.Write:
				lastW[e.Loc] = i
			case program.Acquire:
				open[e.Loc] = len(r.crits[e.Loc])
				r.crits[e.Loc] = append(r.crits[e.Loc], crit{acq: i, rel: -1})
			case program.Release:
				r.crits[e.Loc][open[e.Loc]].rel = i
			}
		}
	}
	for i := range inst.Events {
		switch e := &inst.Events[i]; e.Kind {
		case program.Write:
			r.writes[e.Loc] = append(r.writes[e.Loc], int32(i))
		case program.Release:
			r.rels[e.Loc] = append(r.rels[e.Loc], int32(i))
			r.locks[e.Loc] = append(r.locks[e.Loc], int32(i))
		case program.Acquire:
			r.acqs[e.Loc] = append(r.acqs[e.Loc], int32(i))
			r.locks[e.Loc] = append(r.locks[e.Loc], int32(i))
		}
	}
	return r
}

// constraints returns the conjuncts of Φ_rf ∧ Φ_lock, and false if one of
// them is false already on the skeleton (the instance has no witness).
func (r *rules) constraints(b *budget) ([]form, bool, error) {
	var out []form
	add := func(f form) (bool, error) {
		switch f.op {
		case opFalse:
			return false, nil
		case opTrue:
			return true, nil
		}
		out = append(out, f.conjuncts()...)
		return true, b.spend(f.size())
	}
	inst := r.inst
	for i := range inst.Events {
		e := &inst.Events[i]
		var f form
		switch {
		case e.Kind == program.Read:
			f = r.readForm(int32(i))
		case e.Kind == program.Acquire && inst.Sources[i] != nil:
			f = r.acquireForm(int32(i))
		case e.Kind == program.LockFail:
			f = r.lockFailForm(int32(i))
		default:
			continue
		}
		if ok, err := add(f); !ok || err != nil {
			return nil, ok, err
		}
		if err := b.poll(); err != nil {
			return nil, false, err
		}
	}
	for _, cs := range r.crits {
		for a := range cs {
			for c := a + 1; c < len(cs); c++ {
				if ok, err := add(or(r.relBefore(cs[a], cs[c]), r.relBefore(cs[c], cs[a]))); !ok || err != nil {
					return nil, ok, err
				}
			}
			if err := b.poll(); err != nil {
				return nil, false, err
			}
		}
	}
	return out, true, nil
}

// soleSources adds to the skeleton, before it is closed, the edge from
// each read's only source to the read (its memory-write under TSO/PSO,
// unless the read may take it from its own buffer): the unit every such
// read's rule implies, which propagate would find only after the rules
// were built over an open skeleton. On a long instance whose reads each
// have one source (a reads-from instance) the closed skeleton then
// decides most atoms as they are built, instead of building millions and
// deciding them after (a 20,000-event chain: 50 M atoms, all decided).
func (r *rules) soleSources() {
	for i := range r.inst.Events {
		e := &r.inst.Events[i]
		src := r.inst.Sources[i]
		if e.Kind != program.Read || len(src) != 1 || src[0] == program.InitSource {
			continue
		}
		if p := r.ownPrev[i]; r.relaxed && p >= 0 && src[0] == p && !program.Drains(e) {
			continue // it may read p from its buffer
		}
		if m, R := r.mem[src[0]], r.node[i]; m != R {
			r.edge(m, R)
		}
	}
}

// relBefore is "section a ends before section b begins".
func (r *rules) relBefore(a, b crit) form {
	if a.rel < 0 {
		return formFalse
	}
	return r.lt(r.node[a.rel], r.node[b.acq])
}

// readForm is Φ_rf for read i: r reads from its own buffer, or from
// memory:
//
//   - from its own buffer (TSO/PSO; not for RMW and CAS reads, which drain the
//     buffer): its thread's latest earlier write p to the location is a
//     source and is not flushed yet, O_r < F_p (004_fe58e94b2666f77b.txt
//     Section 2.1, event (2));
//   - from memory (SC, and TSO/PSO when the thread's buffer holds no write
//     to the location): p, if any, is flushed before O_r, and the last
//     memory-write of the location before O_r is a source (window).
func (r *rules) readForm(i int32) form {
	e := &r.inst.Events[i]
	src := r.inst.Sources[i]
	R, p := r.node[i], r.ownPrev[i]
	if p >= 0 && len(src) == 1 && src[0] == program.InitSource {
		return formFalse // p is in the buffer or in memory
	}
	buf := formFalse
	if r.relaxed && p >= 0 && member(src, p) && !program.Drains(e) {
		buf = r.lt(R, r.mem[p])
	}
	mem := r.window(R, src, r.mem, r.writes[e.Loc])
	if p >= 0 {
		mem = and(r.lt(r.mem[p], R), mem)
	}
	return or(buf, mem)
}

// acquireForm is the source constraint of acquire i: the lock's last
// release before it is one of its sources (init: no release before it).
func (r *rules) acquireForm(i int32) form {
	e := &r.inst.Events[i]
	return r.window(r.node[i], r.inst.Sources[i], r.node, r.rels[e.Loc])
}

// lockFailForm is the constraint of a failed trylock: the last acquire or
// release of its lock before it is one of its sources (acquires; any
// acquire if it has none), so it falls in that acquire's section
// (002_29f9f830801bf5b9.txt Section 7: it reads the acquire's write).
func (r *rules) lockFailForm(i int32) form {
	e := &r.inst.Events[i]
	src := r.inst.Sources[i]
	if src == nil {
		src = r.acqs[e.Loc]
	}
	return r.window(r.node[i], src, r.node, r.locks[e.Loc])
}

// window is "the last of evs (writes or releases of one location or lock;
// pt maps them to nodes) before node R is one of src (InitSource: none of
// evs is before R)":
//
//	∨_{s ∈ src} (F_s < R ∧ ∧_{w ∉ src} (F_w < F_s ∨ R < F_w)),
//
// with ∧_{w ∉ src} R < F_w for InitSource. Only writes outside src need a
// clause: if a source lies between s and R, the last write before R is a
// source all the same. That makes a good-writes formula |src| x |evs \ src|
// atoms rather than |src| x |evs|. (A window-start variable shared by the
// alternatives would make it linear, but Z3 took 2-3 times longer on it.)
func (r *rules) window(R int32, src, pt, evs []int32) form {
	bad := r.bad[:0] // reused: one per read was most of a long instance's garbage
	for _, w := range evs {
		if W := pt[w]; !member(src, w) && W != R { // W == R: the write half of an RMW read R
			bad = append(bad, W)
		}
	}
	r.bad = bad
	alts := make([]form, 0, len(src))
	for _, s := range src {
		var f form
		if s == program.InitSource {
			f = r.initial(R, bad)
		} else {
			f = r.last(R, pt[s], bad)
		}
		switch f.op {
		case opTrue:
			return formTrue
		case opFalse:
		default:
			alts = append(alts, f)
		}
	}
	return or(alts...)
}

// initial is "no node of bad is before R".
func (s *skeleton) initial(R int32, bad []int32) form {
	var parts []form
	for _, W := range bad {
		switch f := s.lt(R, W); f.op {
		case opFalse:
			return formFalse
		case opLt:
			parts = append(parts, f)
		}
	}
	return and(parts...)
}

// last is "S is before R and no node of bad lies between them".
func (s *skeleton) last(R, S int32, bad []int32) form {
	// Decided atoms are dropped as they come: on a long instance whose
	// skeleton orders most pairs, keeping them cost gigabytes of garbage
	// (a 20,000-event chain: 50 M atoms, all decided).
	first := s.lt(S, R)
	if first.op == opFalse {
		return formFalse
	}
	var parts []form
	if first.op == opLt {
		parts = append(parts, first)
	}
	for _, W := range bad {
		if W == S {
			continue
		}
		switch f := or(s.lt(W, S), s.lt(R, W)); f.op {
		case opFalse:
			return formFalse
		case opTrue:
		default:
			parts = append(parts, f)
		}
	}
	return and(parts...)
}

func member(sorted []int32, x int32) bool {
	_, ok := slices.BinarySearch(sorted, x)
	return ok
}

// propagate moves every unit conjunct O_a < O_b of cons into the skeleton
// and re-simplifies the others until no unit is left, and returns what
// remains, or false if a conjunct became false. This is the closure of
// 004_fe58e94b2666f77b.txt Section 4.3 (and the saturation of
// 002_29f9f830801bf5b9.txt Section 5) in this encoding's terms: an atom the
// skeleton decides drops out of its disjunction, which may leave a unit,
// which orders more atoms. It only adds consequences of the formula, and
// Z3 is much slower on the disjunctions it removes than this loop is.
func (s *skeleton) propagate(cons []form, b *budget) ([]form, bool, error) {
	for {
		if err := b.poll(); err != nil {
			return nil, false, err
		}
		var rest []form
		units := 0
		for _, f := range cons {
			if f.op != opLt {
				rest = append(rest, f)
				continue
			}
			if !s.add(f.a, f.b) {
				return nil, false, nil
			}
			units++
		}
		if units == 0 {
			return rest, true, nil
		}
		cons = cons[:0]
		for _, f := range rest {
			switch g := s.simplify(f); g.op {
			case opFalse:
				return nil, false, nil
			case opTrue:
			default:
				cons = append(cons, g.conjuncts()...)
			}
		}
	}
}
