package explicit

// This file lets the calls of RVF-SMC (rvfsmc.go, seed 000 Algorithm 2)
// that run their σ from the start begin from a copy of an execution that
// ran a prefix of σ already.
//
// A call whose σ is not σ̃∘r of a live parent execution (a witness that
// puts r inside σ̃, a resumed level's child, rvfsmc_steps.go) runs σ from
// the start: that was a fifth to a half of rvf's time (lastzero N=11,
// casrot N=9, indexer THREADS=14; issue 17). The σ of consecutive such
// calls mostly share a long prefix (indexer: 97% of the events, lastzero
// and casrot about 73%): depth-first order explores the children of one
// σ̃ one after the other, and a witness keeps σ̃'s order up to where r goes
// in. replayCache keeps copies (program.Cloner) of the execution at
// prefixes of the last σ it ran: at the point where that σ left the one
// before it, where the next ones are likely to leave it too. By local
// determinism an execution is a function of its schedule, so a copy of
// the execution of a prefix, run on with the rest of σ, is the execution
// of σ.

import (
	"fmt"

	"mcr/program"
)

// minSnapshotGap is the number of schedule steps a new copy must save
// over the copy (or start) a run begins from: a copy costs about as much
// as running a dozen or two events (lastzero).
const minSnapshotGap = 24

// replayCache runs schedules from the start, or from a copy of the
// execution of a prefix of the last one it ran. It is used by one
// goroutine (a node of the search, rvfSMC.fork).
type replayCache struct {
	p     program.Program
	last  program.Schedule // the schedule of the last run
	snaps []replaySnap     // copies at prefixes of last, shortest first
}

// replaySnap is an execution that has followed the first n steps of the
// cache's last schedule and is never stepped itself, only copied.
type replaySnap struct {
	n int
	x program.Execution
}

// run is runSchedule(c.p, sched): an execution of the program that has
// followed sched exactly, stopped right after it (or where it ended), or
// an error if a step of sched is not enabled. It may start from a copy.
func (c *replayCache) run(sched program.Schedule) (program.Execution, error) {
	l := commonPrefix(sched, c.last)
	for len(c.snaps) > 0 && c.snaps[len(c.snaps)-1].n > l {
		c.snaps = c.snaps[:len(c.snaps)-1]
	}
	var x program.Execution
	from := 0
	if k := len(c.snaps); k > 0 {
		if x = cloneOf(c.snaps[k-1].x); x != nil {
			from = c.snaps[k-1].n
		}
	}
	if x == nil {
		x = c.p.Start()
	}
	c.last = sched
	if l-from >= minSnapshotGap && l < len(sched) {
		// Where sched leaves the last schedule: the next ones may leave
		// sched there too.
		if err := follow(x, sched, from, l); err != nil {
			return x, err
		}
		if over, _ := x.Done(); !over {
			if y := cloneOf(x); y != nil {
				c.snaps = append(c.snaps, replaySnap{l, y})
			}
		}
		from = l
	}
	return x, follow(x, sched, from, len(sched))
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b program.Schedule) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// follow runs x on along sched[from:to], x having followed sched[:from]
// (see runSchedule).
func follow(x program.Execution, sched program.Schedule, from, to int) error {
	for k := from; k < to; k++ {
		id := sched[k]
		if over, _ := x.Done(); over {
			break
		}
		if int(id.Thread) >= x.Threads() {
			return fmt.Errorf("schedule step %d: thread %d does not exist", k, id.Thread)
		}
		e, st := x.Pending(id.Thread)
		if st == program.Finished || st != program.Absent && e.Index > id.Index {
			continue // executed already: the write half of a read-modify-write
		}
		if st != program.Enabled || e.Index != id.Index {
			return fmt.Errorf("schedule step %d: %s is not enabled", k, id)
		}
		x.Step(id.Thread)
	}
	return nil
}
