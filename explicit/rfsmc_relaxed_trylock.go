package explicit

// This file implements trylocks in RF-SMC under TSO and PSO
// (rfsmc_relaxed.go), as rfsmc_trylock.go does under SC. Seed 002
// (002_29f9f830801bf5b9.txt, Section 7) treats a non-blocking lock as an
// RMW of the lock, and seed 004 (004_fe58e94b2666f77b.txt) Remark 1
// carries RMWs over to TSO and PSO: a trylock reads the lock's last write,
// an acquire (held) or a release or init (free). A successful trylock is
// an acquire (program.Try) reading a release or init; a failed one
// (program.LockFail) reads the acquire whose section it falls in. Either
// drains its thread's buffers first, as a lock acquire does on x86
// (program.Drains), so the store buffers add nothing here: VerifyTSO,
// VerifyPSO and Z3 place a failed trylock inside its section
// (view.failOK, view.sectionWanted; encode's lockFailForm).
//
// The alternatives of a trylock r (lines 9-11) are therefore the releases
// and init (it succeeds: a failed one becomes an acquire) and the acquires
// of the other threads (it fails in their section: a successful one
// becomes a failed one); the kind of r in a mutation follows its source
// (trylockAs). One more rule, the lock rule of Section 7 for a failed
// trylock: if r fails in the section of acquire a, "r succeeds before a"
// is no mutation of r (a, before r, would hold the lock in τ'), so a is
// replaced by r taking a's source (replaceFailed), as a waiting acquire
// replaces the last acquire (rfsmc_relaxed_wait.go).
//
// Known limit, as under SC (rfsmc.go): with trylocks the search is not
// optimal. Every class comes, and no other (TestRFRelaxedTrylockRandom
// against dfs), but the lock rules and a trylock's mutations can reach the
// same class from schedules at different prefixes, which line 17's check
// does not compare (500 random trylock programs: 11 programs, 158
// classes explored twice under each model).

import (
	"mcr/program"
	"mcr/program/explore"
)

// sourceKind reports whether w is of a kind that r may read from: a write
// for a read, a release for an acquire, a release or an acquire for a
// trylock.
func (t *relaxedTrace) sourceKind(r, w *program.Event) bool {
	switch {
	case r.Kind == program.Read:
		return w.Kind == program.Write
	case explore.IsTrylock(r):
		return w.Kind == program.Release || w.Kind == program.Acquire
	}
	return w.Kind == program.Release
}

// ownHeld reports whether r is a failed trylock whose own thread holds the
// lock: it fails in every execution that reaches it.
func (t *relaxedTrace) ownHeld(r program.EventID) bool {
	if t.tr.Events[t.pos[r]].Kind != program.LockFail {
		return false
	}
	s := t.src[r]
	return s >= 0 && t.tr.Events[s].Thread == r.Thread
}

// trylockAs gives trylock e the kind that reading src means: a failed
// trylock if src is an acquire, else (a release, init) a successful one.
// It returns true for a failed one.
func (t *relaxedTrace) trylockAs(e *program.Event, src program.EventID) bool {
	if src != program.InitID {
		if p, ok := t.pos[src]; ok && t.tr.Events[p].Kind == program.Acquire {
			e.Kind, e.Flags = program.LockFail, e.Flags&^program.Try
			return true
		}
	}
	e.Kind, e.Flags = program.Acquire, e.Flags|program.Try
	return false
}

// replaceFailed applies the lock rule to every failed trylock b of τ̃ that
// falls in the section of another thread's acquire a, where b or a is new:
// b succeeds in a's place, reading a's source (replaceBy). It returns true
// when the search stops.
func (s *relaxedSMC) replaceFailed(t *relaxedTrace, tauT []program.EventID, order map[program.EventID]int, mrk, isNew, inExt map[program.EventID]bool) bool {
	for _, b := range tauT {
		if e := &t.tr.Events[t.pos[b]]; e.Kind != program.LockFail || t.src[b] < 0 || t.ownHeld(b) {
			continue
		}
		a := t.tr.Events[t.src[b]].ID()
		if (isNew[b] || inExt[a]) && s.replaceBy(t, tauT, order, a, b, mrk) {
			return true
		}
	}
	return false
}
