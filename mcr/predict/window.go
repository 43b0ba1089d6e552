package predict

// This file implements one window: consecutive events of the trace turned
// into a program.Trace of their own (indices renumbered per thread from 0),
// whose initial memory is the memory before the window, and the tables the
// analysis shares (clocks, reads-from, critical sections, locksets, sites).
//
// Threads forked before the window have no fork in it, so they may start at
// once; threads joined before it have no events in it. A lock held at the
// window's start is the one thing a window cannot say with its own events:
// its acquire is in the past. Two synthetic events model it: after the
// holder's release a write of 1 to a synthetic location, before every other
// thread's acquire of the lock in the window a read of 1 from it (initially
// 0). Data validity then orders every such acquire after the release, as
// the held lock does. Synthetic events take part in queries and witnesses
// but are never race candidates and are reported with event number -1.

import (
	"context"
	"slices"

	"mcr/program"
)

// synthLoc marks the synthetic locations of held locks: synthLoc|lock.
const synthLoc program.Loc = 1 << 63

func isSynthetic(l program.Loc) bool { return l&synthLoc != 0 }

// window is one window of the trace. Positions index t.Events.
type window struct {
	start  int64          // number of the trace's events before the window
	t      *program.Trace // events renumbered per thread, synthetic events included
	global []int64        // per event: number in the trace, -1 if synthetic
	orig   []int32        // per event: index within its thread over the whole trace
	held   [][]program.Loc
	site   []int32 // per event: site id of an access, -1 for others and synthetic ones
	sites  []Site
	init   map[program.Loc]int64
	values bool // the trace has values (report them)
	// fresh is the number in the trace of the window's first event that
	// no earlier window analysed: events before it are the overlap with
	// the window before, whose pairs that window examined.
	fresh int64
	// far are the far pairs of the window's new accesses (boundary.go).
	far []farPair

	// Tables computed by prepare.
	pos   [][]int32       // per thread: positions of its events
	hb    *program.Clocks // must-happen-before
	rf    []int32         // per event: position of the write a read reads from in the window, -1 none
	relOf []int32         // per acquire: its release, -1 if none in the window
	// openAfter is per event the sections its thread holds after it: a
	// list in openNodes (-1: none) of their acquires, for the trace-order
	// shortcut from a prefix (cone.go).
	openAfter []int32
	openNodes []openNode
	forkOf    []int32 // per thread: position of its fork, -1 if not in the window
	locs      map[program.Loc][]int32
	wval      map[locValue][]int32      // writes per (location, value)
	acqs      map[program.Loc][][]int32 // acquires per lock and thread, in order
	// Value mode: per read, the writes of its value to its location, and
	// whether it can read the initial value.
	same     [][]int32
	readInit []bool
	fc       *forced // the forced order (forced.go)
	// Dense numbers of the locations and locks of the window's events:
	// evLoc per event (-1 for events of neither), lid per location or
	// lock, lvals per number the initial value.
	evLoc []int32
	lid   map[lidKey]int32
	lvals []int64
	// heldStart maps the locks held at the window's start to their holder
	// and the release that frees them (-1 if none in the window).
	heldStart map[program.Loc]heldLock
}

// openNode is one element of a list of open sections: an acquire and the
// index of the next element (-1: end). Lists share their tails.
type openNode struct{ acq, next int32 }

type lidKey struct {
	l    program.Loc
	lock bool
}

type heldLock struct {
	t   program.ThreadID
	rel int32
}

type locValue struct {
	l program.Loc
	v int64
}

// builder collects the events of one window.
type builder struct {
	s         *stream
	w         *window
	real      int // trace events read into the window
	fresh     int // of them, events no earlier window read
	next      map[program.ThreadID]int32
	heldStart map[program.Loc]program.ThreadID
	released  map[program.Loc]bool
	siteID    map[Site]int32
	ended     map[program.ThreadID]bool // the thread's last event so far is an End
}

func newBuilder(s *stream) *builder {
	b := &builder{s: s, next: map[program.ThreadID]int32{}, heldStart: map[program.Loc]program.ThreadID{},
		released: map[program.Loc]bool{}, siteID: map[Site]int32{}, ended: map[program.ThreadID]bool{},
		w: &window{start: s.n, fresh: s.fresh, t: &program.Trace{}, init: map[program.Loc]int64{}, values: !s.rf}}
	for l, t := range s.holder {
		b.heldStart[l] = t
	}
	return b
}

// initial records v as location l's initial value if l is new to the window.
func (b *builder) initial(l program.Loc, v int64) {
	if _, ok := b.w.init[l]; !ok {
		b.w.init[l] = v
	}
}

// add appends trace event e (number global in the trace; its thread holds
// lockset before it), with the synthetic events of held locks around it.
func (b *builder) add(e program.Event, global int64, lockset []program.Loc) {
	if h, ok := b.heldStart[e.Loc]; ok && e.Kind == program.Acquire && h != e.Thread {
		b.push(program.Event{Thread: e.Thread, Kind: program.Read, Loc: synthLoc | e.Loc, Value: 1}, -1, -1, nil)
	}
	if u := program.ThreadID(e.Value); e.Kind == program.Join && b.next[u] > 0 && !b.ended[u] {
		// encode's MCM orders a join after the joined thread's End only:
		// give threads without one (STD traces) a synthetic End.
		b.push(program.Event{Thread: u, Kind: program.End}, -1, -1, nil)
	}
	b.push(e, global, e.Index, lockset)
	if h, ok := b.heldStart[e.Loc]; ok && e.Kind == program.Release && h == e.Thread && !b.released[e.Loc] {
		b.released[e.Loc] = true
		b.push(program.Event{Thread: e.Thread, Kind: program.Write, Loc: synthLoc | e.Loc, Value: 1}, -1, -1, nil)
	}
}

func (b *builder) push(e program.Event, global int64, orig int32, lockset []program.Loc) {
	w := b.w
	e.Index = b.next[e.Thread]
	b.next[e.Thread]++
	site := int32(-1)
	if e.Kind.IsAccess() && !isSynthetic(e.Loc) {
		s := b.s.siteOf(&e)
		id, ok := b.siteID[s]
		if !ok {
			id = int32(len(w.sites))
			b.siteID[s] = id
			w.sites = append(w.sites, s)
		}
		site = id
	}
	w.t.Events = append(w.t.Events, e)
	b.ended[e.Thread] = e.Kind == program.End
	w.global = append(w.global, global)
	w.orig = append(w.orig, orig)
	w.held = append(w.held, lockset)
	w.site = append(w.site, site)
}

// finish completes the window's trace and computes its tables; nil if ctx
// is done first.
func (b *builder) finish(ctx context.Context) *window {
	w, src := b.w, b.s.src
	w.t.Threads = src.Threads()
	w.t.File = src.File()
	w.t.LocNames = func(l program.Loc) string {
		if isSynthetic(l) {
			return "held(" + src.LocName(l&^synthLoc) + ")"
		}
		return src.LocName(l)
	}
	init := w.init
	w.t.Init = func(l program.Loc) int64 { return init[l] }
	w.heldStart = map[program.Loc]heldLock{}
	for l, th := range b.heldStart {
		w.heldStart[l] = heldLock{th, -1}
	}
	if !w.prepare(ctx) {
		return nil
	}
	return w
}

// prepare computes the window's tables; false if ctx is done first (the
// tables are then unusable).
func (w *window) prepare(ctx context.Context) bool {
	t := w.t
	pl := poll{ctx: ctx}
	n := len(t.Events)
	x := program.NewTraceIndex(t)
	w.pos, w.hb, w.rf, w.forkOf = x.At, x.Clocks(0), x.ReadsFrom(), x.Fork
	w.relOf = make([]int32, n)
	w.locs = map[program.Loc][]int32{}
	w.wval = map[locValue][]int32{}
	w.acqs = map[program.Loc][][]int32{}
	open := map[lockKey]int32{}
	w.evLoc, w.lid, w.lvals = make([]int32, n), map[lidKey]int32{}, nil
	w.openAfter, w.openNodes = make([]int32, n), w.openNodes[:0]
	held := make([]int32, len(w.pos)) // per thread: its list of open sections
	for th := range held {
		held[th] = -1
	}
	if w.heldStart == nil {
		w.heldStart = map[program.Loc]heldLock{}
	}
	for i := range t.Events {
		if pl.stop() {
			return false
		}
		e := &t.Events[i]
		p := int32(i)
		w.relOf[i] = -1
		w.evLoc[i] = -1
		if e.Kind.IsAccess() || e.Kind.IsLock() {
			k := lidKey{e.Loc, e.Kind.IsLock()}
			id, ok := w.lid[k]
			if !ok {
				id = int32(len(w.lvals))
				w.lid[k] = id
				w.lvals = append(w.lvals, t.InitValue(e.Loc))
			}
			w.evLoc[i] = id
		}
		switch e.Kind {
		case program.Read, program.Write:
			if !isSynthetic(e.Loc) {
				w.locs[e.Loc] = append(w.locs[e.Loc], p)
			}
			if e.Kind == program.Write {
				k := locValue{e.Loc, e.Value}
				w.wval[k] = append(w.wval[k], p)
			}
		case program.Acquire:
			w.openNodes = append(w.openNodes, openNode{p, held[e.Thread]})
			held[e.Thread] = int32(len(w.openNodes) - 1)
			open[lockKey{e.Thread, e.Loc}] = p
			if w.acqs[e.Loc] == nil {
				w.acqs[e.Loc] = make([][]int32, len(w.pos))
			}
			w.acqs[e.Loc][e.Thread] = append(w.acqs[e.Loc][e.Thread], p)
		case program.Release:
			k := lockKey{e.Thread, e.Loc}
			if a, ok := open[k]; ok {
				w.relOf[a] = p
				delete(open, k)
				held[e.Thread] = w.unlist(held[e.Thread], a)
			} else if h, ok := w.heldStart[e.Loc]; ok && h.t == e.Thread && h.rel < 0 {
				w.heldStart[e.Loc] = heldLock{h.t, p}
			}
		}
		w.openAfter[i] = held[e.Thread]
	}
	if w.values {
		w.same, w.readInit = make([][]int32, n), make([]bool, n)
		for i := range t.Events {
			if pl.stop() {
				return false
			}
			if e := &t.Events[i]; e.Kind == program.Read {
				w.same[i] = w.wval[locValue{e.Loc, e.Value}]
				w.readInit[i] = t.InitValue(e.Loc) == e.Value
			}
		}
	}
	w.fc = newForced(w, &pl)
	return w.fc != nil
}

// step describes event p for reports.
func (w *window) step(p int32) Step {
	e := &w.t.Events[p]
	s := Step{Event: w.global[p], Thread: w.t.ThreadName(e.Thread), Index: w.orig[p], Kind: e.Kind.String(),
		Line: e.Pos.Line, Col: e.Pos.Col}
	switch {
	case e.Kind.IsAccess():
		s.Arg = w.t.LocName(e.Loc)
		if w.values || isSynthetic(e.Loc) {
			v := e.Value
			s.Value = &v
		}
	case e.Kind.IsLock():
		s.Arg = w.t.LocName(e.Loc)
	case e.Kind == program.Fork || e.Kind == program.Join:
		s.Arg = w.t.ThreadName(program.ThreadID(e.Value))
	}
	return s
}

// witness converts a schedule of window positions into a reported witness
// whose last tail steps are described (all if tail < 0). The schedule's
// longest prefix in trace order joins Start (the same schedule).
func (w *window) witness(sched []int32, tail int) Witness {
	out := Witness{Start: w.start}
	for i, p := range sched {
		switch g := w.global[p]; {
		case g < 0: // a synthetic event
		case len(out.Events) == 0 && g == out.Start && i < len(sched)-2:
			// still the trace order: part of the prefix (never a
			// target: the last one or two). A witness of a late pair
			// in a large window is mostly such a prefix, and listing
			// it made predict's JSON 80 KB per race.
			out.Start++
		default:
			out.Events = append(out.Events, g)
		}
	}
	from := 0
	if tail >= 0 {
		from = max(0, len(sched)-tail)
	}
	for _, p := range sched[from:] {
		out.Tail = append(out.Tail, w.step(p))
	}
	return out
}

// openAcquire returns the acquire of the section of lock l that event x is
// in (its thread's last acquire of l before it), or -1 if the lock was
// held at the window's start.
func (w *window) openAcquire(x int32, l program.Loc) int32 {
	acqs := w.acqs[l]
	if acqs == nil {
		return -1
	}
	mine := acqs[w.t.Events[x].Thread]
	i, _ := slices.BinarySearch(mine, x)
	if i == 0 {
		return -1
	}
	return mine[i-1]
}

// unlist returns list l of w.openNodes without acquire a, sharing the
// tail after a and copying the few elements before it.
func (w *window) unlist(l, a int32) int32 {
	if l < 0 {
		return l
	}
	n := w.openNodes[l]
	if n.acq == a {
		return n.next
	}
	rest := w.unlist(n.next, a)
	if rest == n.next {
		return l
	}
	w.openNodes = append(w.openNodes, openNode{n.acq, rest})
	return int32(len(w.openNodes) - 1)
}
