package predict

// This file implements the forced order of a window as vector clocks: what
// every feasible prefix that executes an event must execute before it.
// Must-happen-before is forced; a read forces what every write it may read
// from forces, with the write itself (the pointwise minimum of their
// clocks); a read-modify-write's read forces its write half. In reads-from
// mode a read has one write, its write in the trace, so the order is exact
// for the cone of cone.go without the lock rule; in value mode a read that
// may read the initial value forces nothing, and writes later in the trace
// than the read contribute their must-happen-before clock (a sound under-
// approximation of their forced clock, which is not known yet in trace
// order). A read no write can serve is dead: no feasible prefix executes
// it, nor anything after it.

import (
	"context"

	"mcr/program"
)

// forced holds one clock per event of a window, flat: row p is
// flat[p*n : (p+1)*n]; entry t counts the events of thread t the event
// forces (itself included). dead marks events no feasible prefix executes.
type forced struct {
	n    int
	flat []int32
	dead []bool
}

func (c *forced) of(p int32) []int32 { return c.flat[int(p)*c.n : (int(p)+1)*c.n] }

// newForced computes the clocks of w in trace order; nil if p says stop
// first.
func newForced(w *window, poll *poll) *forced {
	ev := w.t.Events
	c := &forced{n: len(w.pos), flat: make([]int32, len(ev)*len(w.pos)), dead: make([]bool, len(ev))}
	meet := make([]int32, c.n)
	for i := range ev {
		if poll.stop() {
			return nil
		}
		p := int32(i)
		row := c.of(p)
		w.preds(p, func(q int32) {
			c.dead[p] = c.dead[p] || c.dead[q]
			for t, v := range c.of(q) {
				row[t] = max(row[t], v)
			}
		})
		e := &ev[p]
		own := e.Index + 1
		if e.Kind == program.Read {
			n := c.sources(w, p, meet, poll)
			if poll.done {
				return nil
			}
			if n < 0 {
				c.dead[p] = true
			} else if n > 0 {
				for t, v := range meet {
					row[t] = max(row[t], v)
				}
			}
			if e.Is(program.RMW) {
				own++
			}
		}
		row[e.Thread] = max(row[e.Thread], own)
	}
	return c
}

// sources puts in meet what read p's possible writes all force and returns
// how many writes there are: 0 if p may read the initial value (meet is
// then unused), -1 if no write can serve it. In value mode a read can have
// thousands of writes of its value, so each counts as an iteration of
// poll; the answer is meaningless once poll says stop.
func (c *forced) sources(w *window, p int32, meet []int32, poll *poll) int {
	if !w.values {
		q := w.rf[p]
		if q < 0 {
			return 0
		}
		if c.dead[q] {
			return -1
		}
		copy(meet, c.of(q))
		return 1
	}
	if w.readInit[p] {
		return 0
	}
	n := 0
	for _, q := range w.same[p] {
		if poll.stop() {
			return 0
		}
		var clock []int32
		switch {
		case w.hb.Before(int(p), int(q)):
			continue
		case q < p && c.dead[q]:
			continue
		case q < p:
			clock = c.of(q)
		default:
			clock = w.hb.Of(int(q))
		}
		for t, v := range clock {
			if n == 0 || v < meet[t] {
				meet[t] = v
			}
		}
		n++
	}
	if n == 0 {
		return -1
	}
	return n
}

// forces reports whether every feasible prefix that enables both a and b
// executes one of them (or none exists). First the forced order: do the
// MHB predecessors of a and b force a, b or a dead event? Then the lock rule of held sections: a section open
// at a (or b) stays open to the end, so every other section of its lock
// that the prefix starts must be released before the open one's acquire;
// that release, and what it forces, joins the prefix, and it is a
// contradiction if the release forces that acquire, a or b, or cannot run.
// The lock rule can take many rounds on a lock-heavy window: once ctx is
// done it gives up, answering false (the caller must look at ctx).
func (c *forced) forces(ctx context.Context, w *window, a, b int32) bool {
	cone := make([]int32, c.n)
	dead := false
	join := func(p int32) {
		dead = dead || c.dead[p]
		for t, v := range c.of(p) {
			cone[t] = max(cone[t], v)
		}
	}
	w.preds(a, join)
	w.preds(b, join)
	ev := w.t.Events
	covers := func(p int32) bool { return cone[ev[p].Thread] > ev[p].Index }
	if dead || covers(a) || covers(b) {
		return true
	}
	var freed map[int32]bool
	for grew := true; grew && ctx.Err() == nil; {
		grew = false
		if w.lockRule(a, b, covers, func(q int32) bool { return freed[q] }, func(q, r, open int32) bool {
			if !w.releasable(r, a, b) {
				return true // two sections of l open at the end
			}
			if freed == nil {
				freed = map[int32]bool{}
			}
			freed[q], grew = true, true
			join(r)
			return dead || covers(a) || covers(b) || open >= 0 && c.of(r)[ev[open].Thread] > ev[open].Index
		}) {
			return true
		}
	}
	return false
}
