package explicit

// This file holds the Section 7 rules of ReadsFrom-SMC (seed 002,
// 002_29f9f830801bf5b9.txt, Section 7) that rfsmc.go's detect applies besides lines 5-11:
// the reversal of a read-modify-write with the RMW it reads, and the
// blocking-lock rule that replaces the acquire opening a critical section.

import "mcr/program"

// tryReverse is the RMW rule of Section 7 for eR = seq[r] (an RMW) and the
// read r2 of another thread's RMW (or CAS) that reads eR's write:
// σ = eR[src := eW[src := eR.src]]·π.
func (s *rfSMC) tryReverse(r, r2 int) {
	nr, e2 := &s.seq[r], s.seq[r2].ev
	if r2 <= r || e2.Thread == nr.ev.Thread || e2.Kind != program.Read || !e2.Is(program.RMW) && !e2.Is(program.CAS) {
		return
	}
	if e2.Is(program.CAS) && nr.ev.Value != e2.Arg {
		return // eW reading eR.src fails: it writes nothing eR could read
	}
	h := s.h
	p2 := h.prevRow(s.trPos[r2])
	if h.before(s.trPos[r], p2) {
		return // eW's thread needs eR
	}
	var srcRow []int32
	if nr.src != program.InitID {
		srcRow = h.row(h.At[nr.src.Thread][nr.src.Index])
	}
	w2 := program.EventID{Thread: e2.Thread, Index: e2.Index + 1}
	head := *nr
	head.src, head.marked, head.fresh = w2, false, true
	// eW' writes what eW wrote if it is a successful CAS; otherwise its
	// value depends on what it reads now.
	val, known := int64(0), e2.Is(program.RMW) && e2.Is(program.CAS)
	if known {
		val = s.seq[s.pos[e2.Thread][e2.Index+1]].ev.Value
	}
	sigma, unsure := s.withHalf(s.sigma[:0], head, val, known)
	// π: the past of eW's thread and of eR.src after eR, then eW'.
	past, ok := s.appendPast(s.past[:0], r, p2, srcRow)
	if !ok {
		return
	}
	s.past = past
	for _, n := range past {
		if n.ev.Thread == e2.Thread && n.ev.Index >= e2.Index {
			continue // eW itself, rebuilt below
		}
		sigma = append(sigma, n)
	}
	rw := rfNode{ev: e2, src: nr.src, fresh: true}
	rw.ev.Value = nr.ev.Value
	k := len(sigma)
	sigma, _ = s.withHalf(sigma, rw, nr.ev.Value, true)
	for j := k; j < len(sigma); j++ {
		sigma[j].marked = true
	}
	s.sigma = sigma
	s.propose(r, sigma, unsure)
}

// tryReplace is the blocking-lock rule of Section 7: the acquire a1 =
// seq[a1] is replaced by the acquire b (whose thread's past has clock
// prev) taking a1's source, σ = b[src := a1.src]·π.
func (s *rfSMC) tryReplace(a1 int, b program.Event, prev []int32) {
	n1 := &s.seq[a1]
	if n1.marked || b.Thread == n1.ev.Thread || s.h.before(s.trPos[a1], prev) {
		return
	}
	// a1 may be a head whose source came after it, in its σ's π: b
	// needs that source too.
	var also []int32
	if src := n1.src; src != program.InitID {
		if q := int(s.pos[src.Thread][src.Index]); q > a1 {
			also = s.h.row(s.trPos[q])
		}
	}
	sigma, ok := s.appendPast(append(s.sigma[:0], rfNode{ev: b, src: n1.src, fresh: true}), a1, prev, also)
	if ok {
		s.sigma = sigma
		s.propose(a1, sigma, false)
	}
}

// opener returns the seq position of the acquire that opened the critical
// section the release rel closes, or -1.
func (s *rfSMC) opener(rel program.EventID) int {
	p := s.pos[rel.Thread]
	l := s.seq[p[rel.Index]].ev.Loc
	for i := rel.Index - 1; i >= 0; i-- {
		if e := &s.seq[p[i]].ev; e.Kind == program.Acquire && e.Loc == l {
			return int(p[i])
		}
	}
	return -1
}

// lastAcquire returns the seq position of the last acquire of lock l in
// the execution, or -1.
func (s *rfSMC) lastAcquire(l program.Loc) int {
	for i := len(s.tr.Events) - 1; i >= 0; i-- {
		if e := &s.tr.Events[i]; e.Kind == program.Acquire && e.Loc == l {
			return int(s.pos[e.Thread][e.Index])
		}
	}
	return -1
}
