package predict

// This file implements the witness check of a goal and the trimming of
// schedules to the events a finding needs.
//
// The check is program.CheckSeed, the one validator of seed queries (it
// knows nothing of the deciders or of the tables of window.go): a goal is
// a seed query over the window's trace (a race: Race; a null read: Read
// with the goal value, that is memory holds 0 at its location), and
// CheckSeed replays the schedule with its own thread, lock and memory state
// and checks what the race and null-read properties of
// 001_aa53da3bf10d3f4e.txt Section 3.3 demand of a feasible prefix. A
// window may begin inside critical sections; CheckSeed lets a thread whose
// first operation on a lock releases it hold the lock from the start. A
// goal demands two things more, checked here: a null read is the last
// step (trim and the reports take the targets last), and a race pair
// conflicts.

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

// query returns g as a seed query over t (g's positions index t.Events).
func (g goal) query(t *program.Trace) program.SeedQuery {
	q := program.NewSeedQuery(t, nil)
	if g.isRace() {
		q.Race = g.race
	} else {
		q.Read, q.Value = g.read, g.value
	}
	return q
}

// checkWitness checks that sched shows g over t (see the file comment). It
// returns the schedule as positions of t.Events, or the first violation,
// or ctx.Err() if ctx is done before the check is.
func checkWitness(ctx context.Context, t *program.Trace, sched program.Schedule, g goal) ([]int32, error) {
	out, err := program.CheckSeed(ctx, g.query(t), program.SeedAnswer{Sat: true, Schedule: sched})
	if err != nil {
		return nil, err
	}
	if g.isRace() {
		if !program.Conflicts(&t.Events[g.race[0]], &t.Events[g.race[1]]) {
			return nil, fmt.Errorf("witness check: %s and %s do not conflict", t.Describe(int(g.race[0])), t.Describe(int(g.race[1])))
		}
	} else if out[len(out)-1] != g.read {
		return nil, fmt.Errorf("witness check: the last steps are not the targets")
	}
	return out, nil
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
