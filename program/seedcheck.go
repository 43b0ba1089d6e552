package program

import "fmt"

// This file implements the independent check of SeedAnswers: it executes
// the answer's schedule over the trace's events, with its own memory and
// lock state, and checks every condition of the SeedQuery. Every decider's
// schedule passes through it in tests and in `--decider both`.

// CheckSeed validates a satisfiable answer to q. It returns nil when a.Schedule
// is a prefix of a feasible reordering of q.Trace in which
//   - each thread's events appear in program order, a thread begins after
//     its fork, a join after the joined thread's end;
//   - no acquire takes a held lock, a release releases a held lock;
//   - every read returns its traced value, except q.Read, which returns
//     q.Value (a read-modify-write target whose write half then executes
//     with an unknown value: no later read may read it);
//   - the write half of a read-modify-write directly follows its read;
//   - q.Read and every Fixed read are executed;
//   - for a race, the two targets are the last two steps (an acquire
//     target, as in deadlock queries, is not taken, only reached).
func CheckSeed(q SeedQuery, a SeedAnswer) error {
	t := q.Trace
	pos := map[EventID]int32{}
	for i := range t.Events {
		pos[t.Events[i].ID()] = int32(i)
	}
	next := make(map[ThreadID]int32)
	ended := map[ThreadID]bool{}
	forked := map[ThreadID]bool{}
	holder := map[Loc]ThreadID{}
	type cell struct {
		v       int64
		unknown bool
	}
	mem := map[Loc]cell{}
	executed := make([]bool, len(t.Events))
	race := q.Race[0] >= 0 && q.Race[1] >= 0
	n := len(a.Schedule)
	for k, id := range a.Schedule {
		p, ok := pos[id]
		if !ok {
			return fmt.Errorf("step %d: event %v is not in the trace", k, id)
		}
		e := &t.Events[p]
		if e.Is(RMWWrite) && executed[p] {
			continue // executed with its read, as replay does
		}
		if e.Index != next[e.Thread] {
			return fmt.Errorf("step %d: %s out of program order (next is #%d)", k, t.Describe(int(p)), next[e.Thread])
		}
		if e.Index == 0 && e.Kind == Begin && t.Threads[e.Thread].Parent >= 0 && !forked[e.Thread] {
			return fmt.Errorf("step %d: %s before its fork", k, t.Describe(int(p)))
		}
		isTarget := race && (p == q.Race[0] || p == q.Race[1])
		if isTarget && k < n-2 {
			return fmt.Errorf("step %d: race target %s is not among the last two steps", k, t.Describe(int(p)))
		}
		next[e.Thread]++
		executed[p] = true
		switch e.Kind {
		case Fork:
			forked[ThreadID(e.Value)] = true
		case End:
			ended[e.Thread] = true
		case Join:
			if !ended[ThreadID(e.Value)] {
				return fmt.Errorf("step %d: %s before the joined thread ends", k, t.Describe(int(p)))
			}
		case Acquire:
			if isTarget {
				break // reached, not taken
			}
			if h, held := holder[e.Loc]; held {
				return fmt.Errorf("step %d: %s while %s holds it", k, t.Describe(int(p)), t.ThreadName(h))
			}
			holder[e.Loc] = e.Thread
		case Release:
			if h, held := holder[e.Loc]; !held || h != e.Thread {
				return fmt.Errorf("step %d: %s of a lock it does not hold", k, t.Describe(int(p)))
			}
			delete(holder, e.Loc)
		case Read:
			if isTarget {
				break // a racing read's value does not matter
			}
			c, ok := mem[e.Loc]
			if !ok {
				c = cell{v: t.InitValue(e.Loc)}
			}
			want := e.Value
			if p == q.Read {
				want = q.Value
			}
			if c.unknown {
				return fmt.Errorf("step %d: %s reads the unknown value of a flipped read-modify-write", k, t.Describe(int(p)))
			}
			if c.v != want {
				return fmt.Errorf("step %d: %s would read %d", k, t.Describe(int(p)), c.v)
			}
			switch {
			case p == q.Read && WritesAtTarget(e, q.Value):
				mem[e.Loc] = cell{unknown: true}
			case p != q.Read && e.Is(RMW) && int(p)+1 < len(t.Events):
				// the write half executes with the read (replay steps both)
				w := &t.Events[p+1]
				mem[w.Loc] = cell{v: w.Value}
				executed[p+1] = true
				next[e.Thread]++
			}
		case Write:
			mem[e.Loc] = cell{v: e.Value}
		}
	}
	if q.Read >= 0 && !executed[q.Read] {
		return fmt.Errorf("the target read %s is not executed", t.Describe(int(q.Read)))
	}
	for _, f := range q.Fixed {
		if !executed[f] {
			return fmt.Errorf("fixed read %s is not executed", t.Describe(int(f)))
		}
	}
	if race && (!executed[q.Race[0]] || !executed[q.Race[1]]) {
		return fmt.Errorf("the race targets are not both reached")
	}
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
