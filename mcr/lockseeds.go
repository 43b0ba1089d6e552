package mcr

import (
	"mcr/program"
)

// lockSeeds lists the seeds of the blocking-lock alternatives of a finished
// execution x: for every thread B that waits at the end for a lock l (its
// pending acquire b never ran), because the thread holding l never releases
// it (stuck at a failed __VERIFIER_assume, ended while holding it, or
// deadlocked), the schedule that runs b before the holder's unreleased
// acquire a of l.
//
// Read-value seeds cannot reach these executions: b is not in x's trace,
// and nothing B reads differs. It is the rule ReadsFrom-SMC applies to
// threads blocked on a lock at the end (the blocking-lock rule of seed
// 002_*.txt Section 7); MCR as published (seed 001) has no assumptions and
// needs none, since without them a held lock is always released unless the
// run deadlocks (issue 12).
//
// The seed is the trace with a's causal future removed, then b. The causal
// future F of a is the least set containing a and closed under: program
// order (a thread's events after one in F), thread creation (the events of a
// thread whose fork is in F), join (a join of a thread with an event in F),
// reads-from (a read whose last preceding write of its location is in F)
// and lock order (a lock event whose last preceding lock event of the same
// mutex is in F). Removing F keeps the value of every remaining read (a
// removed write that is the last before a read makes that read removed) and
// leaves l free (a was its last acquire), so the rest replays as traced and
// b is enabled after it. There is no seed when B itself has an event in F.
func lockSeeds(x program.Execution) []program.Schedule {
	tr := x.Trace()
	var seeds []program.Schedule
	for t := 0; t < x.Threads(); t++ {
		b, st := x.Pending(program.ThreadID(t))
		if st != program.Waiting || b.Kind != program.Acquire {
			continue
		}
		a := -1 // the last acquire of b's lock
		for i := len(tr.Events) - 1; i >= 0; i-- {
			if e := &tr.Events[i]; e.Loc == b.Loc && (e.Kind == program.Acquire || e.Kind == program.Release) {
				if e.Kind == program.Acquire {
					a = i
				}
				break
			}
		}
		if a < 0 {
			continue
		}
		inF := causalFuture(tr, a)
		seed := make(program.Schedule, 0, len(tr.Events)+1)
		ok := true
		for i := range tr.Events {
			if !inF[i] {
				seed = append(seed, tr.Events[i].ID())
			} else if tr.Events[i].Thread == program.ThreadID(t) {
				ok = false
				break
			}
		}
		if ok {
			seeds = append(seeds, append(seed, program.EventID{Thread: program.ThreadID(t), Index: b.Index}))
		}
	}
	return seeds
}

// causalFuture marks the events of tr in the causal future of event a (see
// lockSeeds).
func causalFuture(tr *program.Trace, a int) []bool {
	inF := make([]bool, len(tr.Events))
	tainted := map[program.ThreadID]bool{}
	lastWrite := map[program.Loc]int{} // position of the last write of each location
	lastLock := map[program.Loc]int{}  // position of the last lock event of each mutex
	for i := range tr.Events {
		e := &tr.Events[i]
		f := i == a || tainted[e.Thread]
		switch e.Kind {
		case program.Join:
			f = f || tainted[program.ThreadID(e.Value)]
		case program.Read:
			if w, ok := lastWrite[e.Loc]; ok && inF[w] {
				f = true
			}
		}
		if e.Kind.IsLock() {
			if l, ok := lastLock[e.Loc]; ok && inF[l] {
				f = true
			}
			lastLock[e.Loc] = i
		}
		if e.Kind == program.Write {
			lastWrite[e.Loc] = i
		}
		if f && i >= a {
			inF[i] = true
			tainted[e.Thread] = true
			if e.Kind == program.Fork {
				tainted[program.ThreadID(e.Value)] = true
			}
		}
	}
	return inF
}
