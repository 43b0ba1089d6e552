package parallel

// Work and span of a search (Tree.Measure), in CPU time of the threads
// that ran it, so that a loaded machine, whose other processes stretch
// wall-clock time, measures the same: work is the CPU time of every call,
// span the longest chain of CPU time that must run one after another (a
// call's own time, and a task's time after the time of its caller up to
// the offer, up to the commit that joins it). No schedule on w workers
// takes less than max(work/w, span); greedy ones take at most
// work/w + span. Measuring locks each worker to a thread.

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// spanClock is a node's share of the measurement: the span up to the
// last reading of the thread's CPU clock (ref, on the thread running the
// node's calls).
type spanClock struct {
	span time.Duration
	ref  time.Duration
}

// Measure makes Run measure work and span (Stats); call it before Run.
// With offerAll, TrySlot asks only worth: every child the callers deem
// worth a task is offered, whether a worker is free or not, so that the
// span is that of the recursion's structure rather than of one run's
// timing (the work then includes the cost of the extra tasks).
func (t *Tree[E]) Measure(offerAll bool) { t.measure, t.offerAll = true, offerAll }

// lockThread pins the calling goroutine to its thread while measuring, so
// that the thread's CPU clock is the goroutine's; it returns the undo.
func (t *Tree[E]) lockThread() func() {
	if !t.measure {
		return func() {}
	}
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}

// advance adds the CPU time of n's thread since the last reading to n's
// span and to the work.
func (t *Tree[E]) advance(n *Node[E]) {
	if !t.measure {
		return
	}
	now := threadCPU()
	d := now - n.clock.ref
	n.clock.span += d
	n.clock.ref = now
	t.work.Add(int64(d))
}

// resume restarts n's clock on the current thread at span (n's calls go
// on, or start, here).
func (t *Tree[E]) resume(n *Node[E], span time.Duration) {
	if t.measure {
		n.clock = spanClock{span: span, ref: threadCPU()}
	}
}

// join makes n's span at least k's: n goes on after k's calls (it
// waited for them; a commit of a task found finished is no dependency).
func (t *Tree[E]) join(n, k *Node[E]) {
	if t.measure {
		t.advance(n)
		n.clock.span = max(n.clock.span, k.clock.span)
	}
}

// measured holds the totals (Tree).
type measured struct {
	work atomic.Int64 // nanoseconds
}

// String gives the statistics on one line, with the part of the workers'
// time spent running calls (utilisation) and, if measured, work/span, the
// most workers the search could use.
func (st Stats) String() string {
	out := fmt.Sprintf("workers %d, wall %v, idle %v (utilisation %.0f%%), offered %d, run by their callers %d, helped %d",
		st.Workers, st.Wall.Round(time.Millisecond), st.Idle.Round(time.Millisecond),
		100*(1-st.Idle.Seconds()/(float64(st.Workers)*st.Wall.Seconds())), st.Offered, st.OwnRun, st.Helped)
	if st.Span > 0 {
		out += fmt.Sprintf(", work %v, span %v (work/span %.2f)", st.Work.Round(time.Millisecond), st.Span.Round(time.Millisecond), st.Work.Seconds()/st.Span.Seconds())
	}
	return out
}
