package explicit

// This file decides data races under TSO and PSO for RF-SMC's search
// (rfsmc_relaxed.go), as dfs sees them (program/explore/dfs.go): a race is
// on memory, between a read that reads memory (its thread's buffers hold
// no write to the location) and a memory-write (flush), or two
// memory-writes, of different threads, conflicting (program.Conflicts),
// both enabled in a reachable state. A buffer-write touches only its
// thread's buffer.
//
// The query is seed 001's race query (001_aa53da3bf10d3f4e.txt Section
// 3.3) turned into a reads-from instance of the model. For a read a and a
// write b of trace σ̃ (or two writes), let X be the causal past P (program
// order, fork, join, the sources of reads and acquires) of the events
// before a and before b in their threads. The race exists in some
// execution of σ̃'s class iff X contains neither a nor b and the instance
// (X with all its memory-writes, every read with its σ̃ source) has a
// witness W; then W, b (its buffer-write), a, flush b is the racing
// schedule (W, a, b, flush a, flush b for two writes).
//
// If: after W every buffer is empty (a witness flushes every write), so
// a reads memory; a and b are the next events of their threads (X has
// exactly the events before them there, and by local determinism the same
// events), and b's memory-write is at the head of its buffer once b runs.
// Only if: a racing state is reached by a prefix Q; extend Q to a maximal
// execution, whose class RF-SMC explores with the same events and
// sources. Q holds X (the events before a and b, the sources of their
// reads, recursively, and a's thread's writes to the location flushed), so
// Q restricted to X, with the memory-writes still buffered flushed at the
// end, is a witness: removing events keeps every read's source the last
// memory-write of its location before it, and removed buffer-writes do not
// change what a read of X forwards, since X holds its thread's earlier
// events. Every class is explored, so every race is found; the instances
// of pairs that share X are decided once (raceCache).

import (
	"fmt"
	"slices"

	"mcr/program"
	"mcr/program/explore"
)

// raceCache keeps the verdict (and witness) of race instances by their
// key (mutationKey of X): pairs of one trace and of other classes share
// them.
type raceCache map[string]program.Witness

// races reports the data races of σ̃ (t) not reported yet; it returns true
// when the search stops.
func (s *relaxedSMC) races(t *relaxedTrace) bool {
	tr := t.tr
	byLoc := map[program.Loc][]int32{}
	var locs []program.Loc
	for i := range tr.Events {
		e := &tr.Events[i]
		if (e.Kind == program.Read || e.Kind == program.Write) && !e.Is(program.RMW) && !e.Is(program.CAS) {
			if byLoc[e.Loc] == nil {
				locs = append(locs, e.Loc)
			}
			byLoc[e.Loc] = append(byLoc[e.Loc], int32(i))
		}
	}
	slices.Sort(locs)
	for _, l := range locs {
		acc := byLoc[l]
		for x := range acc {
			for y := x + 1; y < len(acc); y++ {
				a, b := &tr.Events[acc[x]], &tr.Events[acc[y]]
				if a.Thread == b.Thread || !program.Conflicts(a, b) {
					continue
				}
				if a.Kind == program.Write {
					a, b = b, a // a read first, if there is one
				}
				f := explore.RaceFinding(tr, a, b, nil)
				if s.raced[f.Key()] {
					continue
				}
				sched, ok, stop := s.raceWitness(t, a, b)
				if stop {
					return true
				}
				if !ok {
					continue
				}
				s.raced[f.Key()] = true
				f.Schedule = sched
				if s.rec.Finding(f, tr.Threads) {
					return true
				}
			}
		}
	}
	return false
}

// raceWitness decides the race query of a and b (see the file comment)
// and returns the racing schedule; stop is true when the search stops.
func (s *relaxedSMC) raceWitness(t *relaxedTrace, a, b *program.Event) (sched program.Schedule, ok, stop bool) {
	none := program.EventID{Index: -1} // no read takes a new source
	past := map[program.EventID]bool{}
	for _, e := range []*program.Event{a, b} {
		if e.Index > 0 {
			t.causalPast(program.EventID{Thread: e.Thread, Index: e.Index - 1}, none, past)
		} else if f, ok := t.fork[e.Thread]; ok {
			t.causalPast(f, none, past)
		}
	}
	if past[a.ID()] || past[b.ID()] {
		return nil, false, false // one comes before the other in every execution
	}
	x := make([]program.EventID, 0, len(past))
	for id := range past {
		x = append(x, id)
	}
	key := mutationKey(t, x, none, -1)
	wit, known := s.raceCache[key]
	if !known {
		inst, err := t.instance(x, none, -1)
		if err != nil {
			s.rec.Stop(fmt.Sprintf("internal error (a bug in mcr): race instance: %v", err))
			return nil, false, true
		}
		ans, err := s.cfg.Decider.Decide(s.ctx, inst)
		if err != nil {
			s.stopOn(err)
			return nil, false, true
		}
		s.rec.Extra("race_queries", 1)
		if ans.Sat {
			if err := program.ValidateWitness(inst, ans.Witness); err != nil {
				s.rec.Stop(fmt.Sprintf("internal error (a bug in mcr): a race witness fails validation: %v", err))
				return nil, false, true
			}
			if s.cfg.OnWitness != nil {
				s.cfg.OnWitness(inst, ans.Witness)
			}
		}
		wit = ans.Witness // nil: none
		s.raceCache[key] = wit
	}
	if wit == nil {
		return nil, false, false
	}
	sched = witnessSchedule(wit)
	if a.Kind == program.Read {
		return append(sched, b.ID(), a.ID(), program.FlushOf(b.ID())), true, false
	}
	return append(sched, a.ID(), b.ID(), program.FlushOf(a.ID()), program.FlushOf(b.ID())), true, false
}

// witnessSchedule is w as a schedule: flush steps as program.FlushOf.
func witnessSchedule(w program.Witness) program.Schedule {
	sigma := make(program.Schedule, len(w))
	for i, st := range w {
		sigma[i] = st.Event
		if st.Flush {
			sigma[i] = program.FlushOf(st.Event)
		}
	}
	return sigma
}
