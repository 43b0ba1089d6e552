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
	"context"
	"slices"

	"mcr/program"
)

// scratch is a worker's reusable memory for cones and sub-traces.
type scratch struct {
	mark  []uint32 // sub-traces: events marked with gen are in
	gen   uint32
	list  []int32
	work  []int32
	freed map[int32]bool
	// Cones.
	cut   []int32 // per thread: how many of its events are in the cone
	todo  []span
	locks []lockAcqs
	lockI map[program.Loc]int32 // index in locks
	exec  execState
}

// span is a range of a thread's events just added to a cone.
type span struct {
	th       program.ThreadID
	from, to int32
}

// lockAcqs are the acquires of one lock in a cone, in no order, with the
// lock rule's progress: the first done of them are settled and max is the
// latest in trace order of those.
type lockAcqs struct {
	acqs []int32
	done int
	max  int32
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
	if s.freed == nil {
		s.freed = map[int32]bool{}
	}
	clear(s.freed)
}

// resetCone prepares the cone tables for a window of nth threads.
func (s *scratch) resetCone(nth int) {
	if cap(s.cut) < nth {
		s.cut = make([]int32, nth)
	}
	s.cut = s.cut[:nth]
	clear(s.cut)
	s.todo = s.todo[:0]
	s.locks = s.locks[:0]
	if s.lockI == nil {
		s.lockI = map[program.Loc]int32{}
	}
	clear(s.lockI)
	if s.freed == nil {
		s.freed = map[int32]bool{}
	}
	clear(s.freed)
}

// cone is the closure of one pair, kept in a worker's scratch. It is
// closed under MHB predecessors, so it holds a prefix of every thread's
// events: s.cut says how long.
type cone struct {
	w    *window
	s    *scratch
	a, b int32
	ok   bool  // false once the cone would contain a or b, or a read that cannot execute
	size int32 // events in the cone
	// sources pushes what read p needs; false if p can never execute.
	sources func(p int32) bool
}

func (w *window) newCone(s *scratch, a, b int32) *cone {
	s.resetCone(len(w.pos))
	c := &cone{w: w, s: s, a: a, b: b, ok: true}
	c.sources = func(p int32) bool { c.push(w.rf[p]); return true }
	return c
}

// has reports whether p is in the cone; -1 (a section with no release in
// the window) never is.
func (c *cone) has(p int32) bool {
	if p < 0 {
		return false
	}
	e := &c.w.t.Events[p]
	return e.Index < c.s.cut[e.Thread]
}

// push adds p and its thread's earlier events to the cone; they are
// processed by close.
func (c *cone) push(p int32) {
	if p < 0 {
		return
	}
	ev := c.w.t.Events
	e := &ev[p]
	from := c.s.cut[e.Thread]
	if e.Index < from {
		return
	}
	for _, x := range [2]int32{c.a, c.b} {
		if y := &ev[x]; y.Thread == e.Thread && y.Index >= from && y.Index <= e.Index {
			c.ok = false
			return
		}
	}
	c.s.cut[e.Thread] = e.Index + 1
	c.size += e.Index + 1 - from
	c.s.todo = append(c.s.todo, span{e.Thread, from, e.Index + 1})
}

// start pushes the MHB predecessors of a and b and closes the cone.
func (c *cone) start() bool {
	c.w.preds(c.a, c.push)
	c.w.preds(c.b, c.push)
	return c.close()
}

// close processes the pushed events: their MHB predecessors (forks and
// joined threads; program order is in the cut), what reads need,
// read-modify-write halves.
func (c *cone) close() bool {
	w, s := c.w, c.s
	ev := w.t.Events
	for len(s.todo) > 0 && c.ok {
		sp := s.todo[len(s.todo)-1]
		s.todo = s.todo[:len(s.todo)-1]
		pos := w.pos[sp.th]
		if sp.from == 0 {
			c.push(w.forkOf[sp.th])
		}
		for i := sp.from; i < sp.to && c.ok; i++ {
			p := pos[i]
			switch e := &ev[p]; e.Kind {
			case program.Read:
				if !c.sources(p) {
					c.ok = false
				}
				if e.Is(program.RMW) {
					c.push(pos[i+1])
				}
			case program.Acquire:
				c.acquire(p)
			case program.Join:
				if e.Value >= 0 && int(e.Value) < len(w.pos) {
					if ps := w.pos[e.Value]; len(ps) > 0 {
						c.push(ps[len(ps)-1])
					}
				}
			}
		}
	}
	return c.ok
}

// acquire records acquire p of the cone for the lock rule.
func (c *cone) acquire(p int32) {
	s, l := c.s, c.w.t.Events[p].Loc
	k, ok := s.lockI[l]
	if !ok {
		k = int32(len(s.locks))
		s.lockI[l] = k
		if len(s.locks) < cap(s.locks) {
			s.locks = s.locks[:k+1]
			s.locks[k] = lockAcqs{acqs: s.locks[k].acqs[:0], max: -1}
		} else {
			s.locks = append(s.locks, lockAcqs{max: -1})
		}
	}
	s.locks[k].acqs = append(s.locks[k].acqs, p)
}

// fromPrefix puts the window's first n events (a prefix of the trace
// order) into the cone without walking them: every thread's events before
// position n, and for the lock rule the acquires of the sections open
// after them (window.openAfter). What those events need is in the prefix
// (a read's write in the trace comes before it, and so do MHB
// predecessors), so only the events the cone adds later are closed.
func (c *cone) fromPrefix(n int32) {
	w, s := c.w, c.s
	for th, ps := range w.pos {
		k, _ := slices.BinarySearch(ps, n)
		s.cut[th] = int32(k)
		c.size += int32(k)
		if k > 0 {
			for l := w.openAfter[ps[k-1]]; l >= 0; l = w.openNodes[l].next {
				c.acquire(w.openNodes[l].acq)
			}
		}
	}
}

// lockRule adds the release of every section of the cone followed by
// another of its lock in trace order; it reports whether the cone grew.
func (c *cone) lockRule() bool {
	size := c.size
	for k := range c.s.locks {
		l := &c.s.locks[k]
		for ; l.done < len(l.acqs); l.done++ {
			q := l.acqs[l.done]
			if q > l.max {
				q, l.max = l.max, q
			}
			if q >= 0 {
				c.push(c.w.relOf[q])
			}
		}
	}
	return c.size > size
}

// list appends the cone's events in trace order to out.
func (c *cone) list(out []int32) []int32 { return c.listFrom(0, out) }

// traceOrder returns the trace-order witness of the race (a, b) as a
// proof, or false. It tries first the window's trace prefix up to the
// earlier of a and b followed by the cone of the rest (the prefix is a
// feasible prefix of the window's own order, and the argument of the file
// comment holds for the union in trace order): that costs the events from
// there on, not the cone from the window's start, whose cost grows with
// the window (and the overlap) for every pair. Then the cone alone, which
// needs fewer events and so can succeed where the prefix holds a lock that
// a or b would have to release.
func (w *window) traceOrder(s *scratch, a, b int32) (proof, bool) {
	from := min(a, b)
	c := w.newCone(s, a, b)
	c.fromPrefix(from)
	for c.start(); c.ok && c.lockRule(); c.close() {
	}
	if c.ok {
		out := c.listFrom(from, make([]int32, 0, c.size-from+2))
		return proof{prefix: from, sched: append(out, a, b)}, true
	}
	c = w.newCone(s, a, b)
	for c.start(); c.ok && c.lockRule(); c.close() {
	}
	if !c.ok {
		return proof{}, false
	}
	out := c.list(make([]int32, 0, c.size+2))
	return proof{sched: append(out, a, b)}, true
}

// listFrom appends the cone's events from position from on, in trace
// order, to out.
func (c *cone) listFrom(from int32, out []int32) []int32 {
	last := int32(-1)
	for th, n := range c.s.cut {
		if n > 0 {
			last = max(last, c.w.pos[th][n-1])
		}
	}
	for p := from; p <= last; p++ {
		if c.has(p) {
			out = append(out, p)
		}
	}
	return out
}

// valueCone reports whether the per-pair cone of value mode (see the file
// comment) shows that (a, b) cannot race; false in reads-from mode, where
// the forced clocks (forced.forces, asked first) are exact, and when ctx
// is done before it knows.
func (w *window) valueCone(ctx context.Context, s *scratch, a, b int32) bool {
	if !w.values {
		return false
	}
	c := w.newCone(s, a, b)
	meet := make(program.VC, len(w.pos))
	pl := poll{ctx: ctx}
	c.sources = func(p int32) bool {
		if w.readInit[p] {
			return true
		}
		n := 0
		for _, q := range w.same[p] {
			if pl.stop() {
				return true // the answer is dropped below
			}
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
	if ok := c.start(); pl.done {
		return false
	} else if !ok {
		return true
	}
	// The lock rule of forced.go: sections open at a or b stay open, so
	// the other sections of their locks in the cone are released first.
	ev := w.t.Events
	for grew := true; grew; {
		if ctx.Err() != nil {
			return false
		}
		grew = false
		stop := w.lockRule(a, b, c.has, func(q int32) bool { return s.freed[q] }, func(q, r, open int32) bool {
			s.freed[q] = true
			if !w.releasable(r, a, b) || open >= 0 && w.fc.of(r)[ev[open].Thread] > ev[open].Index {
				return true
			}
			c.push(r)
			grew = true
			return false
		})
		if stop {
			return true
		}
		if grew {
			if ok := c.close(); pl.done {
				return false
			} else if !ok {
				return true
			}
		}
	}
	return false
}

// lockRule visits what the lock rule of forced.go asks of the race (a, b):
// every acquire q of another thread on a lock held at a or b that in says
// is in the cone and freed does not mark yet, with q's release r and the
// acquire of that lock still open at a or b (open, -1 if none). The
// acquires of a thread come in order and a cone holds a prefix of each
// thread, so the first one not in the cone ends that thread's list. It
// returns true as soon as visit does.
func (w *window) lockRule(a, b int32, in, freed func(int32) bool, visit func(q, r, open int32) bool) bool {
	ev := w.t.Events
	for _, x := range []int32{a, b} {
		for _, l := range w.held[x] {
			open := w.openAcquire(x, l)
			for t, acqs := range w.acqs[l] {
				if program.ThreadID(t) == ev[x].Thread {
					continue
				}
				for _, q := range acqs {
					if !in(q) {
						break
					}
					if !freed(q) && visit(q, w.relOf[q], open) {
						return true
					}
				}
			}
		}
	}
	return false
}

// greedy returns the list-scheduled witness of the race (a, b), targets
// last, or false (see the file comment, and when ctx is done first). It
// keeps its own execution state; the witness checker replays the result
// independently.
func (w *window) greedy(ctx context.Context, s *scratch, a, b int32) ([]int32, bool) {
	c := w.newCone(s, a, b)
	if !c.start() {
		return nil, false
	}
	ev := w.t.Events
	st := s.state(len(w.pos), len(w.lvals))
	next := st.next
	done := func(p int32) bool { return next[ev[p].Thread] > ev[p].Index }
	for l, h := range w.heldStart {
		if id, ok := w.lid[lidKey{l, true}]; ok {
			st.lock(id, h.rel)
		}
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
		return e.Kind != program.Read || st.load(w, w.evLoc[p]) == e.Value
	}
	out := make([]int32, 0, c.size+2)
	pl := poll{ctx: ctx}
	for len(out) < int(c.size) {
		if pl.stop() {
			return nil, false
		}
		best, deferred := int32(-1), int32(-1)
		blocked := st.blocked[:0]
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
				if _, held := st.holder(w.evLoc[p]); held {
					blocked = append(blocked, w.evLoc[p])
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
		st.blocked = blocked
		if best < 0 {
			best = deferred
		}
		if best < 0 {
			// Every thread waits: free a lock whose release is not in the
			// cone yet.
			grew := false
			for _, l := range blocked {
				if rel, _ := st.holder(l); !c.has(rel) && w.releasable(rel, a, b) {
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
			st.lock(w.evLoc[best], w.relOf[best])
		case program.Release:
			st.unlock(w.evLoc[best])
		case program.Write:
			st.store(w.evLoc[best], e.Value)
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

// execState is greedy's execution state over the dense location numbers
// of a window (window.lid), reset in O(1) by a generation stamp.
type execState struct {
	next    []int32 // per thread: events executed
	gen     uint32
	stamp   []uint32 // per location: gen if val is set
	val     []int64  // memory (accesses) or the release that frees a held lock (locks)
	blocked []int32
}

// state resets and returns the execution state for nth threads and nloc
// locations.
func (s *scratch) state(nth, nloc int) *execState {
	st := &s.exec
	if cap(st.next) < nth {
		st.next = make([]int32, nth)
	}
	st.next = st.next[:nth]
	clear(st.next)
	if len(st.stamp) < nloc {
		st.stamp, st.val, st.gen = make([]uint32, nloc), make([]int64, nloc), 0
	}
	st.gen++
	if st.gen == 0 {
		clear(st.stamp)
		st.gen = 1
	}
	return st
}

// load returns location id's value.
func (st *execState) load(w *window, id int32) int64 {
	if st.stamp[id] == st.gen {
		return st.val[id]
	}
	return w.lvals[id]
}

func (st *execState) store(id int32, v int64) { st.stamp[id], st.val[id] = st.gen, v }

// holder returns the release that frees lock id (-1: none in the window)
// and whether the lock is held.
func (st *execState) holder(id int32) (int32, bool) {
	if st.stamp[id] == st.gen {
		return int32(st.val[id]), true
	}
	return -1, false
}

func (st *execState) lock(id, rel int32) { st.stamp[id], st.val[id] = st.gen, int64(rel) }
func (st *execState) unlock(id int32)    { st.stamp[id] = st.gen - 1 }

// releasable reports whether release rel can join the cone of (a, b): it
// is in the window and neither a nor b must precede it.
func (w *window) releasable(rel, a, b int32) bool {
	return rel >= 0 && rel != a && rel != b && !w.hb.Before(int(a), int(rel)) && !w.hb.Before(int(b), int(rel))
}
