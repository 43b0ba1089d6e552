package explicit

// This file implements the mutex side of the race reporter's candidate
// pairs when it predicts races (raceReporter.report with predict, rvf and
// mcr): two accesses whose threads hold a common mutex never run back to
// back, so such pairs are skipped a group at a time.

import (
	"encoding/binary"
	"slices"

	"mcr/program"
)

// lockSets numbers the distinct (thread, held mutexes) pairs of a trace's
// events once per trace, so that grouping one location's accesses by them
// (newLockBuckets) costs a lookup per access. Before, each location
// formatted a key per critical section: on the circular_buffer.c shape (two
// threads taking turns in 2N short critical sections on 9 plain locations)
// that was 15% of rvf's time and most of its excess over rf (issue 17).
type lockSets struct {
	of     []int32            // per trace event: the number of its set
	thread []program.ThreadID // per set: the thread
	locks  [][]program.Loc    // per set: the mutexes held, sorted; shared, never modified
}

// newLockSets numbers the sets of tr's events: an event's set is its thread
// and the mutexes the thread holds when it runs (acquired before it in
// program order and not released since, afterLockEvent). Two events get the
// same number exactly when their threads and sorted mutex lists are equal.
func newLockSets(tr *program.Trace) *lockSets {
	s := &lockSets{of: make([]int32, len(tr.Events))}
	ids := map[string]int32{}
	var key []byte
	intern := func(t program.ThreadID, held []program.Loc) int32 {
		key = binary.AppendVarint(key[:0], int64(t))
		for _, l := range held {
			key = binary.AppendUvarint(key, uint64(l))
		}
		if id, ok := ids[string(key)]; ok {
			return id
		}
		id := int32(len(s.thread))
		ids[string(key)] = id
		s.thread = append(s.thread, t)
		s.locks = append(s.locks, held)
		return id
	}
	// A thread that enters the same critical section again (a loop) moves
	// between the same sets: the moves are remembered, not recomputed.
	type move struct {
		from int32
		kind program.Kind
		loc  program.Loc
	}
	moves := map[move]int32{}
	cur := map[program.ThreadID]int32{}
	for i := range tr.Events {
		e := &tr.Events[i]
		id, ok := cur[e.Thread]
		if !ok {
			id = intern(e.Thread, nil)
			cur[e.Thread] = id
		}
		s.of[i] = id
		if e.Kind != program.Acquire && e.Kind != program.Release {
			continue // afterLockEvent changes nothing else
		}
		m := move{id, e.Kind, e.Loc}
		next, ok := moves[m]
		if !ok {
			held := afterLockEvent(s.locks[id], e) // a new list
			slices.Sort(held)
			next = intern(e.Thread, held)
			moves[m] = next
		}
		cur[e.Thread] = next
	}
	return s
}

// lockBuckets groups the accesses to one location by thread and held
// mutexes, so that the pairs of accesses that share a mutex (shareLock) are
// skipped a group at a time instead of one pair at a time: two threads
// looping inside one critical section make quadratically many such pairs
// (issue 17: 16,000 increments each took minutes in this loop alone).
type lockBuckets struct {
	sets    *lockSets
	of      map[int32]int // lock set number -> its bucket
	members [][]int32     // per bucket, in trace order
	pairs   [][]int       // per bucket, the buckets whose accesses may race with its own
}

// newLockBuckets groups as, one location's accesses in trace order, by the
// lock sets of sets; buckets are numbered in order of first access.
func newLockBuckets(as []int32, sets *lockSets) *lockBuckets {
	lb := &lockBuckets{sets: sets, of: map[int32]int{}}
	var set []int32 // per bucket: its lock set
	for _, a := range as {
		g := sets.of[a]
		id, ok := lb.of[g]
		if !ok {
			id = len(lb.members)
			lb.of[g] = id
			lb.members = append(lb.members, nil)
			set = append(set, g)
		}
		lb.members[id] = append(lb.members[id], a)
	}
	lb.pairs = make([][]int, len(lb.members))
	for i, gi := range set {
		for j, gj := range set {
			if sets.thread[gi] != sets.thread[gj] && !shareLock(sets.locks[gi], sets.locks[gj]) {
				lb.pairs[i] = append(lb.pairs[i], j)
			}
		}
	}
	return lb
}

// after appends to out, in trace order, the accesses after a of the
// buckets that may race with a's.
func (lb *lockBuckets) after(a int32, out []int32) []int32 {
	for _, j := range lb.pairs[lb.of[lb.sets.of[a]]] {
		bs := lb.members[j]
		lo, _ := slices.BinarySearch(bs, a+1)
		out = append(out, bs[lo:]...)
	}
	slices.Sort(out)
	return out
}

// shareLock reports whether two accesses' held mutexes (lockSets) have one
// in common. Such accesses of two threads never race: to run back to back
// both threads would hold that mutex at once. A race query for them is
// unsatisfiable, and on a loop inside a critical section there are
// quadratically many (issue 17: two threads incrementing a counter 1,000
// times under one mutex asked 4 M race queries of rvf and mcr).
func shareLock(a, b []program.Loc) bool {
	for _, l := range a {
		if slices.Contains(b, l) {
			return true
		}
	}
	return false
}
