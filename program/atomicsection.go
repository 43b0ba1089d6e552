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

// maxReorderStates bounds AtomicReorder's search: past it the run counts
// as one that needs an interrupted section (the search is incomplete).
const maxReorderStates = 1 << 17

// AtomicReorder reports whether the run evs (a trace prefix under SC) can
// be reordered into one that runs every atomic section uninterrupted and
// in which thread failed reaches its failure as in evs: every event that
// failed's events depend on (program order, the write each read reads
// from, fork and join, the release of each lock taken) runs, each read
// reading from the same write. By local determinism every thread then
// computes what it computed in evs. It is the search AtomicBreach's
// quick test leaves: depth-first over the threads' next needed events,
// states (positions, lock holders, the last write of each location)
// visited once, at most maxReorderStates.
func AtomicReorder(evs []Event, failed ThreadID) bool {
	r := newReorder(evs, failed)
	if r == nil {
		return false
	}
	return r.search()
}

type reorder struct {
	evs    []Event
	writer []int32 // per event: the write its read reads from (-1: the initial value)
	locs   map[Loc]int32
	need   [][]int32 // per thread: its needed events (indices into evs) in order
	pos    []int32   // per thread: how many of need[t] ran
	last   []int32   // per dense location: the last write run (-1: none)
	holder map[Loc]ThreadID
	begun  map[ThreadID]bool // threads whose fork ran
	ended  map[ThreadID]bool
	seen   map[string]bool
	failed ThreadID
}

func newReorder(evs []Event, failed ThreadID) *reorder {
	r := &reorder{evs: evs, writer: make([]int32, len(evs)), locs: map[Loc]int32{}, holder: map[Loc]ThreadID{},
		begun: map[ThreadID]bool{}, ended: map[ThreadID]bool{}, seen: map[string]bool{}, failed: failed}
	lastW := map[Loc]int32{}
	nthreads := 0
	for i := range evs {
		e := &evs[i]
		if e.Kind == Flush {
			return nil // a relaxed-memory run: reads are not the last write's
		}
		nthreads = max(nthreads, int(e.Thread)+1)
		r.writer[i] = -1
		switch e.Kind {
		case Read:
			if w, ok := lastW[e.Loc]; ok {
				r.writer[i] = w
			}
		case Write:
			lastW[e.Loc] = int32(i)
		}
		if e.Kind == Read || e.Kind == Write {
			if _, ok := r.locs[e.Loc]; !ok {
				r.locs[e.Loc] = int32(len(r.locs))
			}
		}
	}
	// the needed events: a closure from failed's events
	upto := make([]int32, nthreads) // per thread: needed up to this many of its events
	byThread := make([][]int32, nthreads)
	for i := range evs {
		byThread[evs[i].Thread] = append(byThread[evs[i].Thread], int32(i))
	}
	var work []int32
	needTo := func(i int32) { // need event i and its thread's events before it
		t := evs[i].Thread
		k := evs[i].Index + 1
		for upto[t] < k {
			work = append(work, byThread[t][upto[t]])
			upto[t]++
		}
	}
	if int(failed) < nthreads && len(byThread[failed]) > 0 {
		needTo(byThread[failed][len(byThread[failed])-1])
	}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		e := &evs[i]
		switch e.Kind {
		case Read:
			if w := r.writer[i]; w >= 0 {
				needTo(w)
			}
			if e.Is(RMW) && int(e.Index)+1 < len(byThread[e.Thread]) {
				needTo(byThread[e.Thread][e.Index+1]) // the write half runs with it
			}
		case Begin, Join:
			for j := range evs {
				if evs[j].Kind == Fork && ThreadID(evs[j].Value) == e.Thread && e.Kind == Begin {
					needTo(int32(j))
				}
				if evs[j].Kind == End && evs[j].Thread == ThreadID(e.Value) && e.Kind == Join {
					needTo(int32(j))
				}
			}
		case Acquire:
			for j := int(i) + 1; j < len(evs); j++ { // its release, if it ran
				if evs[j].Thread == e.Thread && evs[j].Kind == Release && evs[j].Loc == e.Loc {
					needTo(int32(j))
					break
				}
			}
		case LockFail:
			for j := int(i) - 1; j >= 0; j-- { // the acquire it failed on
				if evs[j].Kind == Acquire && evs[j].Loc == e.Loc {
					needTo(int32(j))
					break
				}
			}
		}
	}
	// events are thread-ordered by Index: byThread[t][k].Index == k
	r.need = make([][]int32, nthreads)
	for t := range r.need {
		r.need[t] = byThread[t][:upto[t]]
	}
	r.pos = make([]int32, nthreads)
	r.last = make([]int32, len(r.locs))
	for i := range r.last {
		r.last[i] = -1
	}
	return r
}

// enabled reports whether thread t's next needed event can run now.
func (r *reorder) enabled(t int) bool {
	if int(r.pos[t]) >= len(r.need[t]) {
		return false
	}
	if h, ok := r.holder[AtomicSection]; ok && h != ThreadID(t) {
		return false
	}
	for u := range r.pos { // another thread's read-modify-write runs whole
		if q := r.pos[u]; u != t && q > 0 && int(q) < len(r.need[u]) && r.evs[r.need[u][q-1]].Is(RMW) {
			return false
		}
	}
	i := r.need[t][r.pos[t]]
	e := &r.evs[i]
	switch e.Kind {
	case Read:
		return r.last[r.locs[e.Loc]] == r.writer[i]
	case Acquire:
		_, held := r.holder[e.Loc]
		return !held
	case LockFail:
		h, held := r.holder[e.Loc]
		return held && h != e.Thread
	case Begin:
		return r.begun[e.Thread]
	case Join:
		return r.ended[ThreadID(e.Value)]
	}
	return true
}

// step runs thread t's next needed event and returns how to undo it.
func (r *reorder) step(t int) func() {
	i := r.need[t][r.pos[t]]
	e := &r.evs[i]
	r.pos[t]++
	switch e.Kind {
	case Write:
		l := r.locs[e.Loc]
		old := r.last[l]
		r.last[l] = i
		return func() { r.last[l] = old; r.pos[t]-- }
	case Acquire:
		r.holder[e.Loc] = e.Thread
		return func() { delete(r.holder, e.Loc); r.pos[t]-- }
	case Release:
		delete(r.holder, e.Loc)
		return func() { r.holder[e.Loc] = e.Thread; r.pos[t]-- }
	case Fork:
		u := ThreadID(e.Value)
		r.begun[u] = true
		return func() { delete(r.begun, u); r.pos[t]-- }
	case End:
		r.ended[e.Thread] = true
		return func() { delete(r.ended, e.Thread); r.pos[t]-- }
	}
	return func() { r.pos[t]-- }
}

// key identifies the search state: positions, last writes and lock
// holders (which the positions do not determine).
func (r *reorder) key() string {
	b := make([]byte, 0, 4*(len(r.pos)+len(r.last))+8*len(r.holder))
	for _, p := range r.pos {
		b = append(b, byte(p), byte(p>>8), byte(p>>16), byte(p>>24))
	}
	for _, w := range r.last {
		b = append(b, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	return string(b) // lock holders follow from the positions of a run
}

func (r *reorder) search() bool {
	done := true
	for t := range r.pos {
		if int(r.pos[t]) < len(r.need[t]) {
			done = false
			break
		}
	}
	if done {
		// the failing thread's failure comes last: no other thread may be
		// inside an atomic section then
		h, held := r.holder[AtomicSection]
		return !held || h == r.failed
	}
	k := r.key()
	if r.seen[k] || len(r.seen) >= maxReorderStates {
		return false
	}
	r.seen[k] = true
	for t := range r.pos {
		if !r.enabled(t) {
			continue
		}
		undo := r.step(t)
		ok := r.search()
		undo()
		if ok {
			return true
		}
	}
	return false
}
