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
// write b of trace σ̃ (or two writes a, b), the racing state has a pending
// and b (both writes) executed but not flushed, at the head of its
// buffer. Let X be the causal past P (program order, fork, join, the
// sources of reads and acquires) of the events before a and of b (of a
// and b). The writes of X that must still be buffered are held: b and the
// writes after it in its buffer (TSO: its thread's later writes; PSO: its
// thread's later writes to its location). The race exists in some
// execution of σ̃'s class iff X does not hold a (a read), nothing in X
// needs a held write in memory (another thread's read of it, a drain of
// its thread after it: fence, lock operation, fork, join, RMW; a join of
// its thread; a read of its thread that reads memory past it), and the
// instance of X in which every held write and the reads of it go to a
// location of their own, never read from memory, has a witness W. Then W
// without the memory-writes of held writes, a, flush b (flush a, flush b)
// is the racing schedule: no read of X sees a held write in memory, so
// dropping their memory-writes changes no read; every other buffer is
// empty, so a reads memory and b heads its buffer.
//
// Only if: a racing state is reached by a prefix Q; extend Q to a maximal
// execution, whose class RF-SMC explores with the same events and
// sources. Q holds X, and its held writes are unflushed in it, so nothing
// in Q needs them in memory. Q restricted to X, with the memory-writes
// still buffered flushed at the end (the held ones to their own
// locations), is a witness: removing events keeps every read's source the
// last memory-write of its location before it, and removed buffer-writes
// do not change what a read of X forwards, since X holds its thread's
// earlier events. Every class is explored, so every race is found; the
// instances of pairs that share X and held writes are decided once
// (raceCache).

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
		// an RMW or CAS read is a read of memory (its buffers are
		// empty); its write half is flushed at once, never pending
		if (e.Kind == program.Read || e.Kind == program.Write) && !e.Is(program.RMWWrite) {
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
	heads := []*program.Event{b}
	if a.Kind == program.Write {
		heads = []*program.Event{a, b}
		t.causalPast(a.ID(), none, past)
	} else if a.Index > 0 {
		t.causalPast(program.EventID{Thread: a.Thread, Index: a.Index - 1}, none, past)
	} else if f, ok := t.fork[a.Thread]; ok {
		t.causalPast(f, none, past)
	}
	t.causalPast(b.ID(), none, past)
	if a.Kind == program.Read && past[a.ID()] {
		return nil, false, false // b needs a: never both pending
	}
	held, ok := t.heldWrites(past, heads)
	if !ok {
		return nil, false, false
	}
	x := make([]program.EventID, 0, len(past))
	for id := range past {
		x = append(x, id)
	}
	key := mutationKey(t, newMutation(x)) + fmt.Sprint(heads[0].ID(), heads[len(heads)-1].ID())
	wit, known := s.raceCache[key]
	if !known {
		inst, err := t.instance(newMutation(x))
		if err == nil {
			err = apart(inst, held)
		}
		if err != nil {
			s.rec.Stop(fmt.Sprintf("internal error (a bug in mcr): race instance: %v", err))
			return nil, false, true
		}
		if wit, stop = s.ask(inst, "race_queries"); stop {
			return nil, false, true
		}
		s.raceCache[key] = wit // nil: none
	}
	if wit == nil {
		return nil, false, false
	}
	for _, st := range wit {
		if !st.Flush || !held[st.Event] {
			sched = append(sched, witnessSchedule(program.Witness{st})...)
		}
	}
	if a.Kind == program.Read {
		return append(sched, a.ID(), program.FlushOf(b.ID())), true, false
	}
	return append(sched, program.FlushOf(a.ID()), program.FlushOf(b.ID())), true, false
}

// heldWrites returns the writes of past that stay buffered when the
// writes heads are unflushed at the heads of their buffers (see the file
// comment), and false if something in past needs one of them in memory.
func (t *relaxedTrace) heldWrites(past map[program.EventID]bool, heads []*program.Event) (map[program.EventID]bool, bool) {
	held := map[program.EventID]bool{}
	for _, h := range heads {
		for i := h.Index; ; i++ {
			id := program.EventID{Thread: h.Thread, Index: i}
			if !past[id] {
				break
			}
			e := &t.tr.Events[t.pos[id]]
			switch {
			case program.Drains(e):
				return nil, false // drains the buffer
			case e.Kind == program.Write && (t.tr.Model == program.TSO || e.Loc == h.Loc):
				held[id] = true
			}
		}
	}
	for id := range past {
		e := &t.tr.Events[t.pos[id]]
		if e.Kind == program.Join {
			for _, h := range heads {
				if program.ThreadID(e.Value) == h.Thread {
					return nil, false // waits for the held buffer to drain
				}
			}
		}
		if e.Kind != program.Read {
			continue
		}
		src, own := t.src[id], false
		if src >= 0 {
			sid := t.tr.Events[src].ID()
			if held[sid] && sid.Thread != id.Thread {
				return nil, false // reads a held write from memory
			}
			own = held[sid]
		}
		if !own {
			// a read of its own thread's location past a held write to it
			// forwards that write (or a later one)
			for w := range held {
				if w.Thread == id.Thread && w.Index < id.Index && t.tr.Events[t.pos[w]].Loc == e.Loc {
					return nil, false
				}
			}
		}
	}
	return held, true
}

// apart moves the held writes of inst (and the reads that read them) to
// locations of their own, one per held location, so that no other read
// can read them from memory (see the file comment). A location with no
// other event keeps them (an instance names no unused location).
func apart(inst *program.Instance, held map[program.EventID]bool) error {
	isHeld := func(i int) bool {
		e := &inst.Events[i]
		if e.Kind == program.Write {
			return held[e.ID()]
		}
		s := inst.Sources[i]
		return e.Kind == program.Read && len(s) == 1 && s[0] >= 0 && held[inst.Events[s[0]].ID()]
	}
	shared := map[program.Loc]bool{} // locations with events that stay
	for i := range inst.Events {
		if e := &inst.Events[i]; e.Kind.IsAccess() && !isHeld(i) {
			shared[e.Loc] = true
		}
	}
	moved := map[program.Loc]program.Loc{}
	to := func(l program.Loc) program.Loc {
		if !shared[l] {
			return l
		}
		if m, ok := moved[l]; ok {
			return m
		}
		m := program.Loc(len(inst.Locs))
		inst.Locs = append(inst.Locs, inst.Locs[l]+"#held")
		if inst.Init != nil {
			inst.Init = append(inst.Init, inst.Init[l])
		}
		moved[l] = m
		return m
	}
	for i := range inst.Events {
		if isHeld(i) {
			inst.Events[i].Loc = to(inst.Events[i].Loc)
		}
	}
	return inst.Check()
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
