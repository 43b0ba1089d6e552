package program

import "fmt"

// This file checks a run against SV-COMP's atomic sections. Explorers model
// __VERIFIER_atomic_begin/end and __VERIFIER_atomic_* functions as one lock
// (AtomicSection), so another thread's code that takes no lock may run
// inside a section; SV-COMP runs a section without interruption. A run in
// which another thread's access conflicts with the section's own may then
// be no run of the program: a thread that writes x inside a section and
// asserts x unchanged, while another writes x outside one, fails only so.
// Every SV-COMP run is a lock-model run, so a search that finds nothing
// stays sound; and an interleaved access that conflicts with the section's
// is itself a data race (the two are not both in atomic sections), so a
// race found stays one.

// AtomicBreach returns a description of the first atomic section of the
// run evs (a trace prefix) whose interleaved events cannot be moved out of
// it, or "" if every section can be made uninterrupted, the run's order of
// conflicting events kept. The events of other threads inside a section
// all move after its release if none conflicts with a later event of the
// section, or all before its acquire if none conflicts with an earlier
// one; a section still open at the end of evs (its thread failed inside
// it, or the run stops there) can only have them moved before. The
// sections are few and short in SV-COMP's tasks: each section's events are
// compared pairwise.
func AtomicBreach(tr *Trace, evs []Event) string {
	for s := range evs {
		if evs[s].Kind != Acquire || evs[s].Loc != AtomicSection {
			continue
		}
		owner := evs[s].Thread
		end, open := len(evs), true
		for r := s + 1; r < len(evs); r++ {
			if evs[r].Thread == owner && evs[r].Kind == Release && evs[r].Loc == AtomicSection {
				end, open = r, false
				break
			}
		}
		before, after := true, !open // can the others' events all move there?
		culprit := -1
		for i := s + 1; i < end; i++ {
			if evs[i].Thread == owner {
				continue
			}
			for j := s + 1; j < end; j++ {
				if evs[j].Thread != owner || !sectionConflict(&evs[i], &evs[j]) {
					continue
				}
				if j < i && before {
					before, culprit = false, i
				}
				if j > i && after {
					after, culprit = false, i
				}
			}
		}
		if !before && !after {
			e := &evs[culprit]
			return fmt.Sprintf("%s's %s of %s at line %d inside the atomic section %s entered at line %d",
				tr.ThreadName(e.Thread), e.Kind, tr.LocName(e.Loc), e.Pos.Line, tr.ThreadName(owner), evs[s].Pos.Line)
		}
	}
	return ""
}

// sectionConflict reports whether event e of another thread and event a
// of the section's thread must keep their order: accesses to one location
// or operations on one lock, not both reads, atomic or not; and the
// section's thread forking or joining e's thread.
func sectionConflict(e, a *Event) bool {
	switch {
	case (a.Kind == Fork || a.Kind == Join) && ThreadID(a.Value) == e.Thread:
		return true
	case e.Loc == 0 || e.Loc != a.Loc:
		return false
	}
	return e.Kind != Read || a.Kind != Read
}
