package explicit

// This file is seed 002 Section 7's rule for an execution that ends with
// threads waiting for a lock (002_29f9f830801bf5b9.txt; rfsmc.go's detect
// under SC), carried over to RF-SMC under TSO and PSO (seed 004 Algorithm
// 3, rfsmc_relaxed.go) as seed 004 Section 5 carries the lock rule over:
// the last acquire of the lock is replaced by the waiting acquire, which
// takes its source. The waiting acquire is no event of the trace, so the
// mutation is built on the trace with that acquire appended (withPending):
// the instance then holds it like any acquire of τ'.
//
// Blocked executions need no rule of their own under TSO/PSO either: a
// thread whose assume failed is a thread that ended early (rfsmc.go's
// file comment), its buffered writes still flush, and the reads of the
// other threads get their sources as in any trace.

import (
	"maps"
	"slices"

	"mcr/program"
)

// replaceWaiting applies the rule to every thread of x waiting for a lock
// at the end. It returns true when the search stops.
func (s *relaxedSMC) replaceWaiting(t *relaxedTrace, x program.Execution, tauT []program.EventID, order map[program.EventID]int, mrk map[program.EventID]bool) bool {
	for th := 0; th < x.Threads(); th++ {
		b, st := x.Pending(program.ThreadID(th))
		if st != program.Waiting || b.Kind != program.Acquire {
			continue
		}
		b.Thread, b.Index = program.ThreadID(th), t.threadLen(program.ThreadID(th))
		a1, ok := t.lastAcquire(b.Loc)
		if ok && s.replaceBy(t.withPending(b), tauT, order, a1, b.ID(), mrk) {
			return true
		}
	}
	return false
}

// threadLen is the number of thread events (flushes aside) of th in t.
func (t *relaxedTrace) threadLen(th program.ThreadID) int32 {
	n := int32(0)
	for i := range t.tr.Events {
		if e := &t.tr.Events[i]; e.Thread == th && e.Kind != program.Flush {
			n = max(n, e.Index+1)
		}
	}
	return n
}

// lastAcquire returns the last acquire of lock l in t's trace.
func (t *relaxedTrace) lastAcquire(l program.Loc) (program.EventID, bool) {
	for i := len(t.tr.Events) - 1; i >= 0; i-- {
		if e := &t.tr.Events[i]; e.Kind == program.Acquire && e.Loc == l {
			return e.ID(), true
		}
	}
	return program.EventID{}, false
}

// withPending returns t with the pending event b appended to its trace (a
// copy; t is unchanged), reading from init until a mutation gives it its
// source.
func (t *relaxedTrace) withPending(b program.Event) *relaxedTrace {
	tr := *t.tr
	tr.Events = append(slices.Clip(t.tr.Events), b)
	u := *t
	u.tr = &tr
	u.pos, u.src = maps.Clone(t.pos), maps.Clone(t.src)
	u.pos[b.ID()] = int32(len(tr.Events) - 1)
	u.src[b.ID()] = -1
	return &u
}
