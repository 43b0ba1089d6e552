package cfront

import (
	"fmt"

	"mcr/program"
)

// This file implements the thread bound (Options.MaxThreads): what a
// pthread_create beyond it does.
//
// A thread created beyond the bound is *frozen*: pthread_create succeeds
// and gives it a pthread_t of its own (frozenBase and up), but it never
// runs, and the creating thread goes on. That is a prefix of a real run,
// one in which the scheduler has not started the new threads yet, so what
// the other threads do meanwhile (a violation, a race) is real; what the
// frozen threads would do is not explored, so the execution is bounded and
// the search incomplete. A pthread_join of a frozen thread would wait for
// it: the joiner stops there (cut), as at the event bound.
//
// Programs create threads in loops of thousands (goblint-regression's
// races-as-reachability tasks: `for (i = 0; i < 10000; i++)
// pthread_create(&ids[i], ...)`, then their assertion in main); stopping
// the creator at the bound, as mcr did, never reached the assertion.
// Programs that create threads forever (SV-COMP's pthread-ext: `while (1)
// pthread_create(&t, ...)`) would now loop without end, so the creator
// stops (cut) at a frozen create into the pthread_t its previous frozen
// create wrote, or after maxFrozen of them.

// frozenBase is the pthread_t of the first frozen thread of an execution;
// real threads' are their indices (program.ThreadID), far below it.
const frozenBase = 1 << 40

// maxFrozen bounds the frozen threads of one execution.
const maxFrozen = 1 << 16

// frozenCreate handles th's pthread_create beyond the thread bound, whose
// pthread_t goes to dst. It reports the pthread_t to return (store), or
// ok false if th is cut there instead.
func (x *execution) frozenCreate(th *thread, dst int64) (id int64, ok bool) {
	if x.p.boundHit != nil {
		x.p.boundHit.Store(true)
		n := int64(x.nthreads + x.nfrozen + 1)
		for m := x.p.attempted.Load(); n > m && !x.p.attempted.CompareAndSwap(m, n); m = x.p.attempted.Load() {
		}
	}
	why := fmt.Sprintf("thread T%s reached the thread bound (%d threads; raise --max-threads)", shortName(th.name), x.p.maxThreads)
	if x.nfrozen >= maxFrozen || (th.frozenDst == dst && dst != 0) {
		x.cut(th, why)
		return 0, false
	}
	if x.bounded == nil {
		x.bounded = &program.Outcome{Kind: program.Bounded, Thread: th.id, Pos: x.pos(th), Message: why}
	}
	th.frozenDst = dst
	x.nfrozen++
	return frozenBase + int64(x.nfrozen-1), true
}

// joinFrozen reports whether t is a frozen thread; if so, th, which joins
// it, is cut.
func (x *execution) joinFrozen(th *thread, t int64) bool {
	if t < frozenBase || t >= frozenBase+int64(x.nfrozen) {
		return false
	}
	x.cut(th, fmt.Sprintf("thread T%s joins a thread created beyond the thread bound (%d threads; raise --max-threads), which never ran", shortName(th.name), x.p.maxThreads))
	return true
}
