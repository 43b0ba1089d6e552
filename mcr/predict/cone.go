package predict

// This file implements the per-pair shortcuts, which settle most candidate
// pairs without a decider. All start from the cone of a pair (a, b): the
// closure of the MHB predecessors of a and b under what reads need and
// read-modify-write halves. A witness executes its cone and neither a nor b.
//
// Must order (unsat). If what reads force puts a or b into the cone, every
// feasible prefix that enables both executes one of them: no race. The
// forced clocks of forced.go answer first, with the lock rule of sections
// held at a or b. In value mode a per-pair cone follows, which knows that
// writes MHB-after a or b cannot serve a read of the prefix: a read that
// can read the initial value forces nothing; otherwise it needs one of the
// writes of its value that are not MHB-after it, a or b, so it forces
// their common MHB predecessors, the pointwise minimum of their clocks;
// with no such write it never executes. The lock rule of forced.go
// applies to this cone too.
//
// Trace order (sat). With every read needing its write in the trace, and
// of two critical sections of a lock in the cone the earlier one released,
// the cone executed in trace order is a feasible prefix in which every read
// returns its traced value (each keeps its write and no write of the cone
// falls between, the cone being a subset of the trace in trace order; locks
// are taken in trace order). If neither a nor b is in it, both are enabled
// after it. This covers what sync-preserving and SHB-style predictors find.
//
// Greedy (sat). The cone without the lock rule, executed by a list
// scheduler: the enabled event earliest in the trace first (reads enabled
// when memory holds their value), acquires whose release can never run
// (it follows a or b) last; when every thread waits for a lock whose
// holder's release is not in the cone, that release joins the cone. This reorders critical sections,
// as the race hidden behind a lock of testdata/traces/lockflag.json needs.
//
// Every schedule found is replayed by the witness checker before it counts.

import (
	"slices"

	"mcr/program"
)

// scratch is a worker's reusable memory for cones and sub-traces.
type scratch struct {
	mark  []uint32
	gen   uint32
	list  []int32
	work  []int32
	acqs  map[program.Loc][]int32
	freed map[int32]bool
}

func (s *scratch) reset(n int) {
	if len(s.mark) < n {
		s.mark = make([]uint32, n)
		s.gen = 0
	}
	s.gen++
	if s.gen == 0 { // wrapped: clear
		clear(s.mark)
		s.gen = 1
	}
	s.list, s.work = s.list[:0], s.work[:0]
	if s.acqs == nil {
		s.acqs, s.freed = map[program.Loc][]int32{}, map[int32]bool{}
	}
	clear(s.acqs)
	clear(s.freed)
}

// cone is the closure of one pair, kept in a worker's scratch.
type cone struct {
	w    *window
	s    *scratch
	a, b int32
	ok   bool // false once the cone would contain a or b, or a read that cannot execute
	// sources pushes what read p needs; false if p can never execute.
	sources func(p int32) bool
}

func (w *window) newCone(s *scratch, a, b int32) *cone {
	s.reset(len(w.t.Events))
	c := &cone{w: w, s: s, a: a, b: b, ok: true}
	c.sources = func(p int32) bool { c.push(w.rf[p]); return true }
	return c
}

// has reports whether p is in the cone; -1 (a section with no release in
// the window) never is.
func (c *cone) has(p int32) bool { return p >= 0 && c.s.mark[p] == c.s.gen }

func (c *cone) push(p int32) {
	if p < 0 || c.has(p) {
		return
	}
	if p == c.a || p == c.b {
		c.ok = false
		return
	}
	c.s.mark[p] = c.s.gen
	c.s.list = append(c.s.list, p)
	c.s.work = append(c.s.work, p)
}

// start pushes the MHB predecessors of a and b and closes the cone.
func (c *cone) start() bool {
	c.w.preds(c.a, c.push)
	c.w.preds(c.b, c.push)
	return c.close()
}

// close processes the pushed events: their MHB predecessors, what reads
// need, read-modify-write halves.
func (c *cone) close() bool {
	ev := c.w.t.Events
	for len(c.s.work) > 0 && c.ok {
		p := c.s.work[len(c.s.work)-1]
		c.s.work = c.s.work[:len(c.s.work)-1]
		c.w.preds(p, c.push)
		switch e := &ev[p]; e.Kind {
		case program.Read:
			if !c.sources(p) {
				c.ok = false
			}
			if e.Is(program.RMW) {
				c.push(c.w.pos[e.Thread][e.Index+1])
			}
		case program.Acquire:
			c.s.acqs[e.Loc] = append(c.s.acqs[e.Loc], p)
		}
	}
	return c.ok
}

// lockRule adds the release of every section of the cone followed by
// another of its lock in trace order; it reports whether it added any.
func (c *cone) lockRule() bool {
	grew := false
	for _, acqs := range c.s.acqs {
		slices.Sort(acqs)
		for _, q := range acqs[:len(acqs)-1] {
			if !c.s.freed[q] {
				c.s.freed[q] = true
				grew = true
				c.push(c.w.relOf[q])
			}
		}
	}
	return grew
}

// traceOrder returns the trace-order witness of the race (a, b), targets
// last, or false.
func (w *window) traceOrder(s *scratch, a, b int32) ([]int32, bool) {
	c := w.newCone(s, a, b)
	for c.start(); c.ok && c.lockRule(); c.close() {
	}
	if !c.ok {
		return nil, false
	}
	out := slices.Clone(s.list)
	slices.Sort(out)
	return append(out, a, b), true
}

// mustOrder reports whether a or b is forced into the cone, or something
// that can never execute (see the file comment): then (a, b) cannot race.
func (w *window) mustOrder(s *scratch, a, b int32) bool {
	if w.fc.forces(w, a, b) {
		return true
	}
	if !w.values {
		return false // the forced clocks are exact in reads-from mode
	}
	c := w.newCone(s, a, b)
	meet := make(program.VC, len(w.pos))
	c.sources = func(p int32) bool {
		if w.readInit[p] {
			return true
		}
		n := 0
		for _, q := range w.same[p] {
			if q == a || q == b || w.hb.Before(int(p), int(q)) || w.hb.Before(int(a), int(q)) || w.hb.Before(int(b), int(q)) {
				continue
			}
			clock := w.hb.Of(int(q))
			for th := range meet {
				if n == 0 || clock[th] < meet[th] {
					meet[th] = clock[th]
				}
			}
			n++
		}
		for th, k := range meet {
			if n > 0 && k > 0 {
				c.push(w.pos[th][k-1])
			}
		}
		return n > 0
	}
	if !c.start() {
		return true
	}
	// The lock rule of forced.go: sections open at a or b stay open, so
	// the other sections of their locks in the cone are released first.
	ev := w.t.Events
	for grew := true; grew; {
		grew = false
		for _, x := range []int32{a, b} {
			for _, l := range w.held[x] {
				open := w.openAcquire(x, l)
				for t, acqs := range w.acqs[l] {
					for _, q := range acqs {
						if program.ThreadID(t) == ev[x].Thread || !c.has(q) {
							break // the cone holds a prefix of each thread
						}
						if s.freed[q] {
							continue
						}
						s.freed[q] = true
						r := w.relOf[q]
						if !w.releasable(r, a, b) || open >= 0 && w.fc.of(r)[ev[open].Thread] > ev[open].Index {
							return true
						}
						c.push(r)
						grew = true
					}
				}
			}
		}
		if grew && !c.close() {
			return true
		}
	}
	return false
}

// greedy returns the list-scheduled witness of the race (a, b), targets
// last, or false (see the file comment). It keeps its own execution state;
// the witness checker replays the result independently.
func (w *window) greedy(s *scratch, a, b int32) ([]int32, bool) {
	c := w.newCone(s, a, b)
	if !c.start() {
		return nil, false
	}
	ev := w.t.Events
	next := make([]int32, len(w.pos))
	done := func(p int32) bool { return next[ev[p].Thread] > ev[p].Index }
	mem := map[program.Loc]int64{}
	load := func(l program.Loc) int64 {
		if v, ok := mem[l]; ok {
			return v
		}
		return w.t.InitValue(l)
	}
	holder := map[program.Loc]int32{} // lock -> the release that frees it (-1: none in the window)
	for l, h := range w.heldStart {
		holder[l] = h.rel
	}
	rmw := int32(-1) // the write half that must come next
	ready := func(p int32) bool {
		e := &ev[p]
		if f := w.forkOf[e.Thread]; e.Index == 0 && f >= 0 && !done(f) {
			return false
		}
		if e.Kind == program.Join && e.Value >= 0 && int(e.Value) < len(w.pos) && int(next[e.Value]) < len(w.pos[e.Value]) {
			return false
		}
		return e.Kind != program.Read || load(e.Loc) == e.Value
	}
	out := make([]int32, 0, len(s.list)+2)
	for len(out) < len(s.list) {
		best, deferred := int32(-1), int32(-1)
		var blocked []program.Loc
		for th := range w.pos {
			if int(next[th]) >= len(w.pos[th]) {
				continue
			}
			p := w.pos[th][next[th]]
			if !c.has(p) || rmw >= 0 && p != rmw || !ready(p) {
				continue
			}
			e := &ev[p]
			if e.Kind == program.Acquire {
				if _, held := holder[e.Loc]; held {
					blocked = append(blocked, e.Loc)
					continue
				}
				if rel := w.relOf[p]; !c.has(rel) && !w.releasable(rel, a, b) {
					if deferred < 0 || p < deferred {
						deferred = p
					}
					continue
				}
			}
			if best < 0 || p < best {
				best = p
			}
		}
		if best < 0 {
			best = deferred
		}
		if best < 0 {
			// Every thread waits: free a lock whose release is not in the
			// cone yet.
			grew := false
			for _, l := range blocked {
				if rel := holder[l]; !c.has(rel) && w.releasable(rel, a, b) {
					c.push(rel)
					grew = true
					break
				}
			}
			if !grew || !c.close() {
				return nil, false
			}
			continue
		}
		e := &ev[best]
		switch e.Kind {
		case program.Acquire:
			holder[e.Loc] = w.relOf[best]
		case program.Release:
			delete(holder, e.Loc)
		case program.Write:
			mem[e.Loc] = e.Value
		}
		rmw = -1
		if e.Is(program.RMW) {
			rmw = w.pos[e.Thread][e.Index+1]
		}
		next[e.Thread]++
		out = append(out, best)
	}
	return append(out, a, b), true
}

// releasable reports whether release rel can join the cone of (a, b): it
// is in the window and neither a nor b must precede it.
func (w *window) releasable(rel, a, b int32) bool {
	return rel >= 0 && rel != a && rel != b && !w.hb.Before(int(a), int(rel)) && !w.hb.Before(int(b), int(rel))
}
