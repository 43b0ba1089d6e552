package program

import (
	"context"
	"fmt"
	"slices"
)

// This file implements CheckSeed, the one independent validator of answers
// to SeedQueries (MCR's seed, race and deadlock queries, and predict's race
// and null-read goals over a window): it replays the answer's schedule over
// the trace's events with its own thread, lock and memory state, sharing no
// code with the deciders (explicit.Seeder, encode.Z3Seeder), and checks
// what 001_aa53da3bf10d3f4e.txt Sections 3.2-3.4 demand of a feasible
// prefix of a reordering. Every satisfiable answer passes through it
// (Checked with SeedKind) before it is trusted.

// CheckSeed validates a satisfiable answer a to q and returns its schedule
// as positions of q.Trace.Events. The schedule must be a feasible prefix of
// a reordering of the trace in which
//   - each thread's events run in program order; a thread starts after its
//     fork (when the fork is in the trace); a join comes after every event
//     of the joined thread;
//   - an acquire finds its lock free and a release releases a lock its
//     thread holds; a thread whose first operation on a lock releases it
//     holds the lock from the start (a window of a longer trace, as
//     package predict cuts, may begin inside a critical section; a whole
//     execution never does);
//   - every executed read returns its traced value (Φ_rw), except q.Read,
//     which returns q.Value: memory holds q.Value at its location (a
//     flipped read-modify-write target then writes a value the trace
//     cannot tell, which no later read may read);
//   - no other thread's access to a location comes between a
//     read-modify-write's read and its write half, and the schedule does
//     not end between them (unless the write half is a race target, which
//     is reached with its read);
//   - q.Read and every Fixed read are executed;
//   - for a race (q.Race, Section 3.3), the last two steps are the two
//     targets, both enabled at the end: the next events of their threads,
//     not executed (an acquire target, as in deadlock queries, is reached,
//     not taken; a racing read's value does not matter).
//
// The error names the first violation, and is ctx.Err() itself if ctx
// ends first (the check polls it: windows have millions of events).
func CheckSeed(ctx context.Context, q SeedQuery, a SeedAnswer) ([]int32, error) {
	t := q.Trace
	r, err := newSeedReplay(ctx, q)
	if err != nil {
		return nil, err
	}
	race := q.Race[0] >= 0 && q.Race[1] >= 0
	ntargets := 0
	if race {
		ntargets = 2
	}
	if len(a.Schedule) < ntargets {
		return nil, fmt.Errorf("witness check: %d steps, fewer than the %d targets", len(a.Schedule), ntargets)
	}
	out := make([]int32, len(a.Schedule))
	for k, id := range a.Schedule {
		if id.Thread < 0 || int(id.Thread) >= len(r.pos) || id.Index < 0 || int(id.Index) >= len(r.pos[id.Thread]) ||
			t.Events[r.pos[id.Thread][id.Index]].Index != id.Index {
			return nil, fmt.Errorf("witness check: step %d: no event %v", k, id)
		}
		out[k] = r.pos[id.Thread][id.Index]
	}
	for i, p := range append([]int32{q.Read, q.Race[0], q.Race[1]}, q.Fixed...) {
		if int(p) >= len(t.Events) || p < -1 || p == -1 && i >= 3 {
			return nil, fmt.Errorf("witness check: the query names event #%d of %d", p, len(t.Events))
		}
	}
	body, tail := out[:len(out)-ntargets], out[len(out)-ntargets:]
	if race && !(tail[0] == q.Race[0] && tail[1] == q.Race[1] || tail[0] == q.Race[1] && tail[1] == q.Race[0]) {
		return nil, fmt.Errorf("witness check: the last steps are not the targets")
	}
	for k, p := range body {
		if r.stop() {
			return nil, ctx.Err()
		}
		if err := r.exec(p); err != nil {
			return nil, fmt.Errorf("witness check: step %d (%s): %v", k, t.Describe(int(p)), err)
		}
	}
	for th, n := range r.next { // in thread order, for a deterministic error
		if n == 0 {
			continue
		}
		if last := &t.Events[r.pos[th][n-1]]; last.Kind != Read || !r.pendingBy(last.Loc, ThreadID(th)) {
			continue
		}
		if !race || int(n) >= len(r.pos[th]) || !slices.Contains(q.Race[:], r.pos[th][n]) {
			return nil, fmt.Errorf("witness check: the schedule ends inside a read-modify-write of %s", t.ThreadName(ThreadID(th)))
		}
	}
	for _, p := range tail {
		if err := r.enabled(p); err != nil {
			return nil, fmt.Errorf("witness check: target %s: %v", t.Describe(int(p)), err)
		}
	}
	if q.Read >= 0 && t.Events[q.Read].Kind != Read {
		return nil, fmt.Errorf("witness check: %s would not read %d: it is not a read", t.Describe(int(q.Read)), q.Value)
	}
	if q.Read >= 0 && !r.executed(q.Read) {
		return nil, fmt.Errorf("witness check: the target read %s is not executed", t.Describe(int(q.Read)))
	}
	for _, f := range q.Fixed {
		if !r.executed(f) {
			return nil, fmt.Errorf("witness check: fixed read %s is not executed", t.Describe(int(f)))
		}
	}
	return out, nil
}

// seedReplay is CheckSeed's execution state. Positions index t.Events.
type seedReplay struct {
	ctx     context.Context
	polls   int
	q       SeedQuery
	t       *Trace
	pos     [][]int32 // per thread: positions of its events
	forkOf  []int32   // per thread: position of its fork, -1 if not in the trace
	next    []int32   // per thread: events executed
	holder  map[Loc]ThreadID
	mem     map[Loc]seedCell
	pending map[Loc]ThreadID // read-modify-writes between read and write half
}

// seedCell is a location's value; unknown after a flipped read-modify-write.
type seedCell struct {
	v       int64
	unknown bool
}

// checkPollEvery is how many steps CheckSeed takes between two looks at
// its context: a look costs a lock, a step tens of nanoseconds.
const checkPollEvery = 4096

// newSeedReplay indexes q.Trace: thread positions, forks, and the locks
// held at its start. Errors: ctx's.
func newSeedReplay(ctx context.Context, q SeedQuery) (*seedReplay, error) {
	t := q.Trace
	nth := len(t.Threads)
	x := NewTraceIndex(t)
	if x.K > nth {
		return nil, fmt.Errorf("witness check: events of %d threads, table of %d", x.K, nth)
	}
	r := &seedReplay{ctx: ctx, q: q, t: t, pos: x.At, forkOf: x.Fork, next: make([]int32, nth),
		holder: map[Loc]ThreadID{}, mem: map[Loc]seedCell{}, pending: map[Loc]ThreadID{}}
	type lockOf struct {
		th ThreadID
		l  Loc
	}
	seen := map[lockOf]bool{}
	for i := range t.Events {
		if r.stop() {
			return nil, ctx.Err()
		}
		switch e := &t.Events[i]; e.Kind {
		case Acquire, Release:
			k := lockOf{e.Thread, e.Loc}
			if !seen[k] && e.Kind == Release {
				r.holder[e.Loc] = e.Thread // held since before the trace
			}
			seen[k] = true
		}
	}
	return r, nil
}

// pendingBy reports whether th is between the read and the write half of
// a read-modify-write of l.
func (r *seedReplay) pendingBy(l Loc, th ThreadID) bool {
	h, ok := r.pending[l]
	return ok && h == th
}

// stop reports whether ctx is done, looking every checkPollEvery calls.
func (r *seedReplay) stop() bool {
	if r.polls++; r.polls < checkPollEvery {
		return false
	}
	r.polls = 0
	return r.ctx.Err() != nil
}

// executed reports whether event p has run.
func (r *seedReplay) executed(p int32) bool {
	e := &r.t.Events[p]
	return r.next[e.Thread] > e.Index
}

// enabled checks that p is its thread's next event and may start.
func (r *seedReplay) enabled(p int32) error {
	e := &r.t.Events[p]
	if r.next[e.Thread] != e.Index {
		return fmt.Errorf("not next in program order (%d events of its thread done)", r.next[e.Thread])
	}
	if f := r.forkOf[e.Thread]; e.Index == 0 && f >= 0 && !r.executed(f) {
		return fmt.Errorf("its thread is not forked yet")
	}
	if e.Kind == Join {
		if j := ThreadID(e.Value); j >= 0 && int(j) < len(r.next) && int(r.next[j]) < len(r.pos[j]) {
			return fmt.Errorf("the joined thread has not finished")
		}
	}
	return nil
}

// exec executes p.
func (r *seedReplay) exec(p int32) error {
	if err := r.enabled(p); err != nil {
		return err
	}
	e := &r.t.Events[p]
	if e.Kind.IsAccess() {
		if h, ok := r.pending[e.Loc]; ok && h != e.Thread {
			return fmt.Errorf("interrupts a read-modify-write of %s", r.t.ThreadName(h))
		}
	}
	switch e.Kind {
	case Acquire:
		if h, ok := r.holder[e.Loc]; ok {
			return fmt.Errorf("the lock is held by %s", r.t.ThreadName(h))
		}
		r.holder[e.Loc] = e.Thread
	case Release:
		if h, ok := r.holder[e.Loc]; !ok || h != e.Thread {
			return fmt.Errorf("releases a lock its thread does not hold")
		}
		delete(r.holder, e.Loc)
	case Read:
		c, ok := r.mem[e.Loc]
		if !ok {
			c.v = r.t.InitValue(e.Loc)
		}
		target := p == r.q.Read
		want := e.Value
		if target {
			want = r.q.Value
		}
		switch {
		case c.unknown:
			return fmt.Errorf("reads the unknown value of a flipped read-modify-write")
		case c.v != want && target:
			return fmt.Errorf("would not read %d (memory holds %d)", want, c.v)
		case c.v != want:
			return fmt.Errorf("reads %d, traced %d", c.v, want)
		}
		switch {
		case target && WritesAtTarget(e, want):
			r.mem[e.Loc] = seedCell{unknown: true}
		case !target && e.Is(RMW):
			r.pending[e.Loc] = e.Thread
		}
	case Write:
		r.mem[e.Loc] = seedCell{v: e.Value}
		delete(r.pending, e.Loc)
	}
	r.next[e.Thread]++
	return nil
}

// WritesAtTarget reports whether a read flipped to the new value v executes
// a write half along with it: fetch-and-op and exchange always, a
// compare-and-swap when v equals what it expects. The trace cannot tell
// what that write writes.
func WritesAtTarget(e *Event, v int64) bool {
	if e.Is(CAS) {
		return v == e.Arg
	}
	return e.Is(RMW)
}

// SeedInstance turns a satisfiable seed answer into a consistency instance
// (for `mcr check --dump-instances`, to be decided again by `mcr verify`):
// the events of the schedule, in its order, with the target reading the new
// value, under SC with value-based good writes (seed 000 Section 4). The
// instance is realizable: the schedule is a witness. Race targets are left
// out (they are reached, not executed).
func SeedInstance(q SeedQuery, a SeedAnswer) (*Instance, error) {
	t := q.Trace
	pos := map[EventID]int32{}
	for i := range t.Events {
		pos[t.Events[i].ID()] = int32(i)
	}
	sub := &Trace{Threads: t.Threads, File: t.File, LocNames: t.LocNames, Init: t.Init}
	in := map[int32]bool{}
	for _, id := range a.Schedule {
		p, ok := pos[id]
		if !ok || in[p] || p == q.Race[0] || p == q.Race[1] {
			continue
		}
		e := t.Events[p]
		in[p] = true
		if p == q.Read {
			e.Value = q.Value
			e.Flags &^= RMW // its write half is not part of the instance
		}
		sub.Events = append(sub.Events, e)
		if e.Is(RMW) && int(p)+1 < len(t.Events) && !in[p+1] {
			in[p+1] = true
			sub.Events = append(sub.Events, t.Events[p+1])
		}
	}
	return InstanceFromTrace(sub, GoodWrites)
}
