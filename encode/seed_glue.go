package encode

import (
	"maps"
	"slices"

	"mcr/program"
)

// This file implements the sections the seed formula of seed.go
// constrains, with its empty critical sections glued to points.
//
// An empty critical section (an acquire followed in its thread by the
// release of the same lock, nothing between) only asks that its lock be
// free at one moment, and a run of them on one lock in one thread (each
// release followed at once by the next acquire) asks the same: any
// feasible prefix can be changed into one that executes the whole run at
// once, at the place of its last acquire (the run's earlier events only
// hold a lock others do not take meanwhile, and nothing else depends on
// them), and a prefix that stops inside a run can stop before it (nothing
// needs a held lock). So the seed formula gives a run one order variable
// and one needed flag, those of its first acquire (rep), and Φ_lock one
// section from that acquire to the run's last release, which the two
// share. The other events of the run get no variables: their order and
// needed flag are their run's, and a schedule places them after its first
// acquire in thread order. On sunflow.std, whose threads take a lock in
// empty sections over and over (T0: 94 of them, 162 of its 229 events
// inside runs), this takes more than a third of the events of each seed
// query's formula.
//
// A run includes no target and no event of different standing (excluded,
// forced) than its first acquire.

// glue fills e.rep and e.secs for the query.
func (e *seedEncoder) glue() {
	ev := e.q.Trace.Events
	e.rep = make([]int32, e.n)
	for i := range e.rep {
		e.rep[i] = int32(i)
	}
	// in a fixed order: what is asserted, and so the model, must not depend on map order
	e.locks = slices.Sorted(maps.Keys(e.m.Sections))
	e.secs = make(map[program.Loc][]Section, len(e.locks))
	last := map[program.ThreadID]int{} // per thread: the index in secs of its last run, if any
	for _, l := range e.locks {
		secs := make([]Section, 0, len(e.m.Sections[l]))
		clear(last)
		for _, s := range e.m.Sections[l] {
			if !e.empty(s) {
				secs = append(secs, s)
				continue
			}
			th := ev[s.Acq].Thread
			if k, ok := last[th]; ok {
				run := &secs[k]
				if ev[run.Rel].Index+1 == ev[s.Acq].Index && e.sameStanding(run.Acq, s.Acq) {
					run.Rel = s.Rel
					e.rep[s.Acq], e.rep[s.Rel] = run.Acq, run.Acq
					continue
				}
			}
			e.rep[s.Rel] = s.Acq
			last[th] = len(secs)
			secs = append(secs, s)
		}
		e.secs[l] = secs
	}
}

// empty reports whether s is an empty critical section that may be glued:
// its release follows its acquire at once, and neither is a target or of
// different standing.
func (e *seedEncoder) empty(s Section) bool {
	ev := e.q.Trace.Events
	return s.Rel >= 0 && ev[s.Rel].Thread == ev[s.Acq].Thread && ev[s.Rel].Index == ev[s.Acq].Index+1 &&
		!e.isRace(s.Acq) && !e.isRace(s.Rel) && e.sameStanding(s.Acq, s.Rel)
}

// sameStanding reports whether i and j are both excluded or both not, and
// both forced or both not.
func (e *seedEncoder) sameStanding(i, j int32) bool {
	return e.excluded[i] == e.excluded[j] && e.forced[i] == e.forced[j]
}
