package explicit

// This file implements the must-happen-before order (program order, fork,
// join) RVF-SMC's calls ask about (rvfsmc.go: VisibleW(r) of lines 17-18,
// seed 000 Section 2), without a vector clock per event: a clock per
// event cost O(|σ̃| · threads) time and memory in every call, about a tenth
// of RVF-SMC's time on lastzero (issue 17). Along a thread the clock of an
// event differs from its predecessor's only in the thread's own entry,
// except at its first event (which inherits its fork's clock) and at a
// join (which takes in the joined thread's last clock). So a thread keeps
// a clock per such sync point, and an event's clock is its thread's last
// sync point at or before it with its own entry set: O(|σ̃| + (forks +
// joins) · threads) per call.

import "mcr/program"

// syncOrder is must-happen-before over the positions of a trace, with the
// parts of program.TraceIndex RVF-SMC uses (its Src cost two map
// operations per event).
type syncOrder struct {
	T    *program.Trace
	K    int        // threads: len(T.Threads), or more if events name more
	At   [][]int32  // per thread: the positions of its events in order
	Fork []int32    // per thread: the position of its fork, -1 if none
	pts  [][]syncPt // per thread, by index
}

// syncPt is the clock of a thread from its event idx on (own entry aside)
// up to its next sync point.
type syncPt struct {
	idx   int32
	clock []int32
}

// newSyncOrder computes the sync points of tr in one pass.
func newSyncOrder(tr *program.Trace) *syncOrder {
	k := len(tr.Threads)
	for i := range tr.Events {
		k = max(k, int(tr.Events[i].Thread)+1)
	}
	// One allocation for the positions, forks and counts, as
	// NewTraceIndex; one for the sync points and one for their clocks
	// (a clock per thread, fork and join).
	ints := make([]int32, 2*k+len(tr.Events))
	o := &syncOrder{T: tr, K: k, At: make([][]int32, k), Fork: ints[:k:k], pts: make([][]syncPt, k)}
	count := ints[k : 2*k : 2*k]
	npts := make([]int32, k) // sync points per thread: its start and its joins
	clocks := k
	for i := range tr.Events {
		e := &tr.Events[i]
		switch e.Kind {
		case program.Flush:
			continue
		case program.Join:
			npts[e.Thread]++
			clocks++
		}
		count[e.Thread]++
	}
	at := ints[2*k:]
	pts := make([]syncPt, 0, int(clocks))
	arena := make([]int32, clocks*k)
	clock := func() []int32 {
		c := arena[:k:k]
		arena = arena[k:]
		return c
	}
	for t := range k {
		o.Fork[t] = -1
		o.At[t], at = at[:0:count[t]], at[count[t]:]
		n := int(npts[t]) + 1
		o.pts[t], pts = pts[:0:n], pts[n:n:cap(pts)]
	}
	for i := range tr.Events {
		e := &tr.Events[i]
		if e.Kind == program.Flush {
			continue
		}
		// a joined thread's events all come before the join, so its last
		// event so far is its last (rvfsmc_view.go extends a view the same
		// way)
		o.At[e.Thread] = append(o.At[e.Thread], int32(i))
		o.addSync(int32(i), clock)
	}
	return o
}

// Last returns the position of thread t's last event, -1 if it has none.
func (o *syncOrder) Last(t program.ThreadID) int32 {
	if t < 0 || int(t) >= len(o.At) || len(o.At[t]) == 0 {
		return -1
	}
	return o.At[t][len(o.At[t])-1]
}

// prev returns the position of what precedes position i in its thread:
// its program-order predecessor, or the fork of its thread (-1: none).
func (o *syncOrder) prev(i int32) int32 {
	if e := &o.T.Events[i]; e.Index > 0 {
		return o.At[e.Thread][e.Index-1]
	}
	return o.Fork[o.T.Events[i].Thread]
}

// pos returns the trace position of event id, -1 if it is not in the trace.
func (o *syncOrder) pos(id program.EventID) int32 {
	if int(id.Thread) >= len(o.At) || id.Index < 0 || int(id.Index) >= len(o.At[id.Thread]) {
		return -1
	}
	return o.At[id.Thread][id.Index]
}

// at returns the sync point clock of trace position i (own entry aside).
func (o *syncOrder) at(i int32) []int32 {
	e := &o.T.Events[i]
	pts := o.pts[e.Thread]
	k := len(pts) - 1
	for k > 0 && pts[k].idx > e.Index {
		k--
	}
	return pts[k].clock
}

// joinRow makes c at least the clock of position i.
func (o *syncOrder) joinRow(c []int32, i int32) {
	for u, n := range o.at(i) {
		c[u] = max(c[u], n)
	}
	e := &o.T.Events[i]
	c[e.Thread] = max(c[e.Thread], e.Index+1)
}

// atMost reports whether position i happens before or is position j.
func (o *syncOrder) atMost(i, j int32) bool {
	a, b := &o.T.Events[i], &o.T.Events[j]
	if a.Thread == b.Thread {
		return a.Index <= b.Index
	}
	return o.at(j)[a.Thread] > a.Index
}

// beforeNext reports whether position i happens before the next event of
// thread t (not in the trace): i is at most t's last event, or the fork of
// t if it has none.
func (o *syncOrder) beforeNext(i int32, t program.ThreadID) bool {
	p := o.Last(t)
	if p < 0 && int(t) < len(o.Fork) {
		p = o.Fork[t]
	}
	return p >= 0 && o.atMost(i, p)
}
