package predict

// This file implements the independent witness checker and the trimming of
// schedules to the events a finding needs.
//
// The checker knows nothing of the deciders or of the tables of window.go:
// it replays a schedule of event identities over the events of a trace with
// its own thread, lock and memory state and checks what the race and
// null-read properties of 001_aa53da3bf10d3f4e.txt Section 3.3 demand of a
// feasible prefix: program order; a thread starts after its fork (when the
// fork is in the trace); a join comes after every event of the joined
// thread; an acquire finds its lock free and a release releases a lock its
// thread holds (a thread whose first operation on a lock releases it holds
// it from the start: windows begin inside critical sections); every
// executed read returns its traced value; no other
// access to a location separates a read-modify-write's read from its write;
// and at the end the goal holds: for a race, the last two steps are the
// conflicting pair, both the next events of their threads and enabled; for
// a null read, the last step is the read, next in its thread, and memory
// holds 0 (the goal value) at its location.

import (
	"context"
	"fmt"
	"slices"

	"mcr/program"
)

// goal is what a witness must show: a race between positions race[0] and
// race[1], or (race[0] < 0) that read `read` can return value.
type goal struct {
	race  [2]int32
	read  int32
	value int64
}

func raceGoal(a, b int32) goal       { return goal{race: [2]int32{a, b}, read: -1} }
func readGoal(r int32, v int64) goal { return goal{race: [2]int32{-1, -1}, read: r, value: v} }
func (g goal) isRace() bool          { return g.race[0] >= 0 }
func (g goal) isTarget(p int32) bool { return slices.Contains(g.targets(), p) }

// targets lists the race pair or the read.
func (g goal) targets() []int32 {
	if g.isRace() {
		return []int32{g.race[0], g.race[1]}
	}
	return []int32{g.read}
}

// checkWitness replays sched over t and checks that it shows g (see the
// file comment). It returns the schedule as positions of t.Events, or the
// first violation, or ctx.Err() if ctx is done before the check is.
func checkWitness(ctx context.Context, t *program.Trace, sched program.Schedule, g goal) ([]int32, error) {
	pl := poll{ctx: ctx}
	pos := t.Index()
	nth := len(t.Threads)
	if len(pos) > nth {
		return nil, fmt.Errorf("witness check: events of %d threads, table of %d", len(pos), nth)
	}
	pos = append(pos, make([][]int32, nth-len(pos))...)
	forkOf := make([]int32, nth)
	for i := range forkOf {
		forkOf[i] = -1
	}
	for i := range t.Events {
		if pl.stop() {
			return nil, ctx.Err()
		}
		if e := &t.Events[i]; e.Kind == program.Fork && e.Value >= 0 && int(e.Value) < nth {
			forkOf[e.Value] = int32(i)
		}
	}
	ntargets := len(g.targets())
	if len(sched) < ntargets {
		return nil, fmt.Errorf("witness check: %d steps, fewer than the %d targets", len(sched), ntargets)
	}
	out := make([]int32, len(sched))
	for k, id := range sched {
		if id.Thread < 0 || int(id.Thread) >= nth || id.Index < 0 || int(id.Index) >= len(pos[id.Thread]) {
			return nil, fmt.Errorf("witness check: step %d: no event %v", k, id)
		}
		out[k] = pos[id.Thread][id.Index]
	}
	body, tail := out[:len(out)-ntargets], out[len(out)-ntargets:]
	if !sameSet(tail, g.targets()) {
		return nil, fmt.Errorf("witness check: the last steps are not the targets")
	}
	held, err := heldAtStart(&pl, t)
	if err != nil {
		return nil, err
	}
	r := &replayer{t: t, pos: pos, forkOf: forkOf, next: make([]int32, nth), holder: held,
		mem: map[program.Loc]int64{}, pending: map[program.Loc]program.ThreadID{}}
	for k, p := range body {
		if pl.stop() {
			return nil, ctx.Err()
		}
		if err := r.exec(p); err != nil {
			return nil, fmt.Errorf("witness check: step %d (%s): %v", k, t.Describe(int(p)), err)
		}
	}
	if len(r.pending) > 0 {
		return nil, fmt.Errorf("witness check: the schedule ends inside a read-modify-write")
	}
	for _, p := range tail {
		if err := r.enabled(p); err != nil {
			return nil, fmt.Errorf("witness check: target %s: %v", t.Describe(int(p)), err)
		}
	}
	if g.isRace() {
		a, b := &t.Events[g.race[0]], &t.Events[g.race[1]]
		if !program.Conflicts(a, b) {
			return nil, fmt.Errorf("witness check: %s and %s do not conflict", t.Describe(int(g.race[0])), t.Describe(int(g.race[1])))
		}
		return out, nil
	}
	if e := &t.Events[g.read]; e.Kind != program.Read || r.load(e.Loc) != g.value {
		return nil, fmt.Errorf("witness check: %s would not read %d", t.Describe(int(g.read)), g.value)
	}
	return out, nil
}

// heldAtStart returns the locks held when t begins: a thread whose first
// operation on a lock releases it holds it (a window of a longer trace
// starts inside the critical section).
func heldAtStart(pl *poll, t *program.Trace) (map[program.Loc]program.ThreadID, error) {
	held := map[program.Loc]program.ThreadID{}
	seen := map[lockKey]bool{}
	for i := range t.Events {
		if pl.stop() {
			return nil, pl.ctx.Err()
		}
		e := &t.Events[i]
		if !e.Kind.IsLock() || e.Kind == program.LockFail {
			continue
		}
		k := lockKey{e.Thread, e.Loc}
		if !seen[k] && e.Kind == program.Release {
			held[e.Loc] = e.Thread
		}
		seen[k] = true
	}
	return held, nil
}

func sameSet(a, b []int32) bool {
	return len(a) == len(b) && (len(a) == 1 && a[0] == b[0] ||
		len(a) == 2 && (a[0] == b[0] && a[1] == b[1] || a[0] == b[1] && a[1] == b[0]))
}

// replayer is the checker's execution state.
type replayer struct {
	t       *program.Trace
	pos     [][]int32
	forkOf  []int32
	next    []int32 // per thread: events executed
	holder  map[program.Loc]program.ThreadID
	mem     map[program.Loc]int64
	pending map[program.Loc]program.ThreadID // read-modify-writes between read and write
}

func (r *replayer) load(l program.Loc) int64 {
	if v, ok := r.mem[l]; ok {
		return v
	}
	return r.t.InitValue(l)
}

// enabled checks that p is its thread's next event and may start.
func (r *replayer) enabled(p int32) error {
	e := &r.t.Events[p]
	if r.next[e.Thread] != e.Index {
		return fmt.Errorf("not next in program order (%d events of its thread done)", r.next[e.Thread])
	}
	if f := r.forkOf[e.Thread]; e.Index == 0 && f >= 0 && r.next[r.t.Events[f].Thread] <= r.t.Events[f].Index {
		return fmt.Errorf("its thread is not forked yet")
	}
	if e.Kind == program.Join {
		if j := program.ThreadID(e.Value); j >= 0 && int(j) < len(r.next) && int(r.next[j]) < len(r.pos[j]) {
			return fmt.Errorf("the joined thread has not finished")
		}
	}
	return nil
}

// exec executes p.
func (r *replayer) exec(p int32) error {
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
	case program.Acquire:
		if h, ok := r.holder[e.Loc]; ok {
			return fmt.Errorf("the lock is held by %s", r.t.ThreadName(h))
		}
		r.holder[e.Loc] = e.Thread
	case program.Release:
		if h, ok := r.holder[e.Loc]; !ok || h != e.Thread {
			return fmt.Errorf("releases a lock its thread does not hold")
		}
		delete(r.holder, e.Loc)
	case program.Read:
		if v := r.load(e.Loc); v != e.Value {
			return fmt.Errorf("reads %d, traced %d", v, e.Value)
		}
		if e.Is(program.RMW) {
			r.pending[e.Loc] = e.Thread
		}
	case program.Write:
		r.mem[e.Loc] = e.Value
		delete(r.pending, e.Loc)
	}
	r.next[e.Thread]++
	return nil
}

// trim cuts a checked schedule (positions of w's trace, targets last) down
// to what its goal needs: the targets' MHB predecessors, the write each
// needed read reads from in the schedule, the write halves of needed
// read-modify-writes and, of two needed critical sections of a lock, the
// release of the earlier one; recursively. Order is kept. Removing the rest
// changes no read's write and frees no lock a kept acquire waits for.
// False if ctx is done first.
func (w *window) trim(ctx context.Context, sched []int32, g goal) ([]int32, bool) {
	ev := w.t.Events
	pl := poll{ctx: ctx}
	order := make(map[int32]int32, len(sched))
	for k, p := range sched {
		order[p] = int32(k)
	}
	in := map[int32]bool{}
	var work []int32
	push := func(p int32) {
		if _, ok := order[p]; ok && !in[p] {
			in[p] = true
			work = append(work, p)
		}
	}
	lastWrite := map[program.Loc]int32{}
	source := make(map[int32]int32) // read -> write it reads from in the schedule
	for _, p := range sched {
		if pl.stop() {
			return nil, false
		}
		switch e := &ev[p]; e.Kind {
		case program.Read:
			if s, ok := lastWrite[e.Loc]; ok {
				source[p] = s
			}
		case program.Write:
			lastWrite[e.Loc] = p
		}
	}
	for _, p := range g.targets() {
		push(p)
	}
	for {
		for len(work) > 0 {
			if pl.stop() {
				return nil, false
			}
			p := work[len(work)-1]
			work = work[:len(work)-1]
			w.preds(p, push)
			if e := &ev[p]; e.Kind == program.Read && !(g.isRace() && g.isTarget(p)) {
				if s, ok := source[p]; ok {
					push(s)
				}
				if e.Is(program.RMW) && !g.isTarget(p) {
					push(w.pos[e.Thread][e.Index+1])
				}
			}
		}
		// Of the needed sections of each lock, all but the last released.
		sections := map[program.Loc][]int32{}
		for _, p := range sched {
			if pl.stop() {
				return nil, false
			}
			if in[p] && ev[p].Kind == program.Acquire && !g.isTarget(p) {
				sections[ev[p].Loc] = append(sections[ev[p].Loc], p)
			}
		}
		for _, acqs := range sections {
			for _, a := range acqs[:len(acqs)-1] {
				push(w.relOf[a])
			}
		}
		if len(work) == 0 {
			break
		}
	}
	var out []int32
	for _, p := range sched[:len(sched)-len(g.targets())] {
		if in[p] {
			out = append(out, p)
		}
	}
	return append(out, sched[len(sched)-len(g.targets()):]...), true
}

// preds calls push on p's immediate MHB predecessors: the previous event
// of its thread or its thread's fork, and for a join the joined thread's
// last event.
func (w *window) preds(p int32, push func(int32)) {
	e := &w.t.Events[p]
	if e.Index > 0 {
		push(w.pos[e.Thread][e.Index-1])
	} else if f := w.forkOf[e.Thread]; f >= 0 {
		push(f)
	}
	if e.Kind == program.Join && e.Value >= 0 && int(e.Value) < len(w.pos) {
		if ps := w.pos[e.Value]; len(ps) > 0 {
			push(ps[len(ps)-1])
		}
	}
}

// ids converts positions of w's trace to a schedule of event identities.
func (w *window) ids(sched []int32) program.Schedule {
	out := make(program.Schedule, len(sched))
	for i, p := range sched {
		out[i] = w.t.Events[p].ID()
	}
	return out
}
