package predict

// This file implements the sub-trace a decider query needs. The seed
// encodings grow quadratically with the accesses of the trace they get
// (and the explicit search explores its states), so a query about targets
// T gets only the events a witness can use:
//
//	R = the targets and the closure of their MHB predecessors under MHB
//	    predecessors, the writes a read in R may read from (reads-from
//	    mode: its write in the trace; value mode: every write of its value
//	    to its location), the release of every critical section begun in R,
//	    and the write half of every read-modify-write; never an event
//	    MHB-after a target (it cannot run before the target).
//
// R loses nothing. Given a witness S of the window, let S' be the least
// subset of S that contains the targets' MHB predecessors and, with every
// read, the write it reads from in S, with every read-modify-write its
// write half, and with every section followed in S by another section of
// its lock, its release. S' in S's order is a witness too (each read keeps
// its write, nothing new comes between, no kept acquire waits for a dropped
// release), and by induction over its construction S' ⊆ R. R is closed
// under MHB predecessors, so every thread's events in R are a prefix of its
// events in the window with the same indices: schedules over R are
// schedules over the window.

import (
	"slices"

	"mcr/program"
)

// subtrace returns R for goal g (see the file comment) as a trace, and the
// positions of the window its events come from; nil if R has more than
// limit events.
func (w *window) subtrace(s *scratch, g goal, limit int) (*program.Trace, []int32) {
	ev := w.t.Events
	targets := g.targets()
	excluded := func(p int32) bool {
		for _, t := range targets {
			if w.hb.Before(int(t), int(p)) {
				return true
			}
		}
		return false
	}
	s.reset(len(ev))
	push := func(p int32) {
		if p >= 0 && s.mark[p] != s.gen && !excluded(p) {
			s.mark[p] = s.gen
			s.list = append(s.list, p)
			s.work = append(s.work, p)
		}
	}
	for _, t := range targets {
		s.mark[t] = s.gen
		s.list = append(s.list, t)
		s.work = append(s.work, t)
	}
	for len(s.work) > 0 {
		if len(s.list) > limit {
			return nil, nil
		}
		p := s.work[len(s.work)-1]
		s.work = s.work[:len(s.work)-1]
		w.preds(p, push)
		switch e := &ev[p]; e.Kind {
		case program.Read:
			if g.isRace() && g.isTarget(p) {
				break // race targets do not execute
			}
			v := e.Value
			if p == g.read {
				v = g.value
			}
			if w.values {
				for _, q := range w.wval[locValue{e.Loc, v}] {
					push(q)
				}
			} else {
				push(w.rf[p])
			}
			if e.Is(program.RMW) && p != g.read {
				push(w.pos[e.Thread][e.Index+1])
			}
		case program.Acquire:
			push(w.relOf[p])
		}
	}
	if len(s.list) > limit {
		return nil, nil
	}
	keep := slices.Clone(s.list)
	slices.Sort(keep)
	sub := &program.Trace{Events: make([]program.Event, len(keep)), Threads: w.t.Threads, File: w.t.File,
		LocNames: w.t.LocNames, Init: w.t.Init}
	for i, p := range keep {
		sub.Events[i] = ev[p]
	}
	return sub, keep
}

// subPos returns the position in a sub-trace of window position p.
func subPos(keep []int32, p int32) int32 {
	i, _ := slices.BinarySearch(keep, p)
	return int32(i)
}
