package predict

// This file implements what windows without loss need beyond the overlap of
// consecutive windows (stream.go): the conflicting pairs whose events are
// in no common window ("far pairs"), found when the later event is read.
//
// Windows overlap: each window analyses again the last Options.Overlap
// events of the one before, so a pair of events that close lies in a
// common window and is examined there. For a pair further apart the
// stream keeps a bounded summary of the accesses that have left every
// window, per (location, thread, kind, site): ranges of their indices in
// the thread with the locks every access of the range held. A new access b
// of thread t against that summary: an old access a of thread u cannot
// race with b when must-happen-before orders it first (its index in u is
// at most what b's vector clock knows of u; program order, fork and join,
// 001_aa53da3bf10d3f4e.txt Section 3.2) or when both hold a common lock
// (they can never be enabled together). Any other old access of a
// conflicting kind makes a far pair (a's site, b), which the driver
// settles after b's window (driver.far): the result is incomplete unless
// that location pair is already shown to race, and then its counts are
// lower bounds unless b is known to race with an earlier event anyway.
// The summary is conservative: merging ranges intersects their locks and
// widens their indices, which can only add far pairs, never hide one.

import (
	"slices"

	"mcr/program"
)

// maxRanges bounds the ranges kept per summary key; the two oldest merge
// when a new one would exceed it.
const maxRanges = 4

// farKey is one summary entry's key.
type farKey struct {
	th     program.ThreadID
	write  bool
	atomic bool
	site   Site
}

// farRange is a run of old accesses of one key: thread indices first..last,
// every access holding every lock of locks.
type farRange struct {
	first, last int32
	locks       []program.Loc
}

// farAccess is an access read as a new event, waiting to leave every
// window (then it enters the summary).
type farAccess struct {
	global int64
	loc    program.Loc
	index  int32
	key    farKey
	locks  []program.Loc
}

// farPair is a far pair found for a window's new access: the position of
// the later access b in the window and the site of the old access.
type farPair struct {
	p    int32
	site Site
	null bool // b is a dereferenced read that may read an old write (no site)
}

// boundary is the stream's state for far pairs: the must-happen-before
// vector clock of every thread (per thread: the highest index of each
// thread's events ordered before its next event, -1 none), the accesses
// still in some window, and the summary of the others.
type boundary struct {
	clock   [][]int32
	pending []farAccess
	old     map[program.Loc]map[farKey][]farRange
}

func newBoundary() *boundary { return &boundary{old: map[program.Loc]map[farKey][]farRange{}} }

// vc returns thread t's clock, growing the table to n threads.
func (b *boundary) vc(t program.ThreadID, n int) []int32 {
	for len(b.clock) < n {
		b.clock = append(b.clock, nil)
	}
	for i, c := range b.clock {
		for len(c) < n {
			c = append(c, -1)
		}
		b.clock[i] = c
	}
	return b.clock[t]
}

// event advances the clocks past e (a new event of the trace; index is its
// index in its thread over the whole trace) among n threads.
func (b *boundary) event(e *program.Event, index int32, n int) {
	c := b.vc(e.Thread, n)
	c[e.Thread] = max(c[e.Thread], index)
	switch u := program.ThreadID(e.Value); {
	case e.Kind == program.Fork && int(u) < n:
		child := b.vc(u, n)
		for i := range child {
			child[i] = max(child[i], c[i])
		}
	case e.Kind == program.Join && int(u) < n:
		for i, v := range b.vc(u, n) {
			c[i] = max(c[i], v)
		}
	}
}

// check returns the sites of old accesses that may race with the new
// access e (index in its thread, site, held locks), each once; call event
// for e first.
func (b *boundary) check(e *program.Event, locks []program.Loc) []Site {
	var out []Site
	c := b.clock[e.Thread]
	for k, rs := range b.old[e.Loc] {
		if k.th == e.Thread || !k.write && e.Kind != program.Write || k.atomic && e.Is(program.Atomic) || slices.Contains(out, k.site) {
			continue
		}
		for _, r := range rs {
			if r.last > c[k.th] && !commonLock(r.locks, locks) {
				out = append(out, k.site)
				break
			}
		}
	}
	return out
}

// mayReadOld reports whether the dereferenced read e may read the value of
// an old write instead of its window's initial value: unless every old
// write of its location is by one thread and ordered before e, in which
// case only the last of them can be read and the window starts with its
// value. Call event for e first.
func (b *boundary) mayReadOld(e *program.Event) bool {
	c := b.clock[e.Thread]
	writer := program.ThreadID(-1)
	for k, rs := range b.old[e.Loc] {
		if !k.write {
			continue
		}
		if writer >= 0 && k.th != writer || rs[len(rs)-1].last > c[k.th] {
			return true
		}
		writer = k.th
	}
	return false
}

// retire moves the pending accesses read before event number start (the
// first event of the next window) into the summary.
func (b *boundary) retire(start int64) {
	i := 0
	for ; i < len(b.pending) && b.pending[i].global < start; i++ {
		a := &b.pending[i]
		m := b.old[a.loc]
		if m == nil {
			m = map[farKey][]farRange{}
			b.old[a.loc] = m
		}
		m[a.key] = addRange(m[a.key], a.index, a.locks)
	}
	b.pending = slices.Delete(b.pending, 0, i)
}

// addRange adds an access (thread index, locks) to rs: it extends the last
// range if its locks are the same, else starts a range, merging the two
// oldest when there would be more than maxRanges.
func addRange(rs []farRange, index int32, locks []program.Loc) []farRange {
	if n := len(rs); n > 0 && slices.Equal(rs[n-1].locks, locks) {
		rs[n-1].last = index
		return rs
	}
	rs = append(rs, farRange{first: index, last: index, locks: locks})
	if len(rs) > maxRanges {
		a, b := rs[0], rs[1]
		var both []program.Loc
		for _, l := range a.locks {
			if slices.Contains(b.locks, l) {
				both = append(both, l)
			}
		}
		rs[1] = farRange{first: a.first, last: b.last, locks: both}
		rs = rs[1:]
	}
	return rs
}
