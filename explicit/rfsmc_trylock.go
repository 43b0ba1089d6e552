package explicit

// This file implements trylocks in ReadsFrom-SMC (rfsmc.go). Seed 002
// (002_29f9f830801bf5b9.txt, Section 7) treats a non-blocking lock as an
// RMW of the lock: a trylock reads the lock's last write, an acquire
// (held) or a release or init (free). A successful trylock is an acquire
// (program.Try) that reads a release, as any acquire; a failed one
// (program.LockFail) reads the acquire a whose section it falls in, so
// every witness puts it after a and before a's release (saturation's R2
// does that, getwitness.go's decision procedure and ValidateWitness check
// it). The lines 5-6 alternatives of a trylock are therefore the releases
// and init (tryRead: a failed one then succeeds) and the acquires of its
// lock (tryFail: a successful or failed one then fails in that section).
// One more rule, the blocking-lock rule's twin (detect): a trylock that
// fails in the section of another thread's acquire a cannot succeed
// before a by a mutation of its own (a, before it, holds the lock), so a
// is replaced by it, succeeding with a's source (tryReplace). Without it
// the class was lost when the first execution had the trylock fail
// (testdata/c/mm/trylock.c -DHOLD: 1 class of 2, reported complete).

import "mcr/program"

// tryFail proposes, for the trylock eR = seq[r], failing inside the
// section of each acquire a of another thread that does not happen after
// eR, where eR or a is new (isNew, detect's lines 5-6 rule).
func (s *rfSMC) tryFail(r int, isNew func(int32) bool) {
	nr := &s.seq[r]
	h := s.h
	rt := s.trPos[r]
	prev := h.prevRow(rt)
	for q := range s.seq {
		a := &s.seq[q].ev
		if a.Kind != program.Acquire || a.Loc != nr.ev.Loc || a.Thread == nr.ev.Thread || !isNew(int32(q)) {
			continue
		}
		if a.ID() == nr.src || q > r && h.before(rt, h.row(s.trPos[q])) {
			continue // the current source, or a needs eR
		}
		if rel := s.releaseOf(q); rel >= 0 && h.before(s.trPos[rel], prev) {
			continue // a's section ends before eR's thread gets there
		}
		head := *nr
		head.src, head.marked, head.fresh = a.ID(), false, true
		head.ev.Kind, head.ev.Flags = program.LockFail, head.ev.Flags&^program.Try
		sigma, ok := append(s.sigma[:0], head), true
		if q > r {
			sigma, ok = s.appendPast(sigma, r, h.row(s.trPos[q]), nil)
		}
		if ok {
			s.sigma = sigma
			s.propose(r, sigma, false)
		}
	}
}

// releaseOf returns the seq position of the release that closes the
// section the acquire seq[q] opens, or -1.
func (s *rfSMC) releaseOf(q int) int {
	a := &s.seq[q].ev
	p := s.pos[a.Thread]
	for i := int(a.Index) + 1; i < len(p); i++ {
		if e := &s.seq[p[i]].ev; e.Kind == program.Release && e.Loc == a.Loc {
			return int(p[i])
		}
	}
	return -1
}

// lockHolders returns, per event of tr, for a failed trylock the trace
// position of the acquire that holds its lock (-1 for other events; the
// executor fails a trylock only on a held lock).
func lockHolders(tr *program.Trace) []int32 {
	out := make([]int32, len(tr.Events))
	held := map[program.Loc]int32{}
	for i := range tr.Events {
		e := &tr.Events[i]
		out[i] = -1
		switch e.Kind {
		case program.Acquire:
			held[e.Loc] = int32(i)
		case program.Release:
			delete(held, e.Loc)
		case program.LockFail:
			if a, ok := held[e.Loc]; ok {
				out[i] = a
			}
		}
	}
	return out
}
