package predict

// This file implements the reading side: a source of events (a trace file
// read one event at a time, or a trace in memory), the checks that make a
// trace one execution (locks, fork and join, sequentially consistent
// values), and the cutting of the stream into windows (window.go builds
// each one).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"

	"mcr/program"
	"mcr/program/tracefile"
)

// InputError is a trace that is well formed but not an execution: a lock
// taken while held, a read returning a value no write left, an event of a
// joined thread. Where names the file and line (or event number).
type InputError struct {
	Where string
	Msg   string
}

func (e *InputError) Error() string { return e.Where + ": " + e.Msg }

// source yields the events of a trace in order; Next returns io.EOF after
// the last one.
type source interface {
	Next() (program.Event, error)
	Threads() []program.Thread
	NumThreads() int // len(Threads()), without a copy
	LocName(program.Loc) string
	// Mark identifies the last event returned, for errors; WhereAt names
	// the event of a mark (file and line, or event number), LineAt the
	// same without the file ("line 3", "event 2").
	Mark() int64
	WhereAt(mark int64) string
	LineAt(mark int64) string
	File() string
}

// fileSource reads a trace file with program/tracefile.
type fileSource struct {
	r     *tracefile.Reader
	name  string
	names func(program.Loc) string
	n     int64
}

func (s *fileSource) Next() (program.Event, error) {
	e, err := s.r.Next()
	if err == nil {
		s.n++
	}
	return e, err
}
func (s *fileSource) Threads() []program.Thread    { return s.r.Threads() }
func (s *fileSource) NumThreads() int              { return s.r.NumThreads() }
func (s *fileSource) LocName(l program.Loc) string { return s.names(l) }
func (s *fileSource) File() string                 { return s.name }

// Mark is the line number, or minus one minus the event number when the
// format has no lines.
func (s *fileSource) Mark() int64 {
	if l := s.r.Line(); l > 0 {
		return int64(l)
	}
	return -s.n
}

func (s *fileSource) WhereAt(m int64) string {
	if m > 0 {
		return fmt.Sprintf("%s:%d", s.name, m)
	}
	return fmt.Sprintf("%s: event %d", s.name, -m-1)
}

func (s *fileSource) LineAt(m int64) string {
	if m > 0 {
		return fmt.Sprintf("line %d", m)
	}
	return fmt.Sprintf("event %d", -m-1)
}

// traceSource walks a trace in memory.
type traceSource struct {
	t *program.Trace
	i int
}

func (s *traceSource) Next() (program.Event, error) {
	if s.i >= len(s.t.Events) {
		return program.Event{}, io.EOF
	}
	s.i++
	return s.t.Events[s.i-1], nil
}
func (s *traceSource) Threads() []program.Thread    { return s.t.Threads }
func (s *traceSource) NumThreads() int              { return len(s.t.Threads) }
func (s *traceSource) LocName(l program.Loc) string { return s.t.LocName(l) }
func (s *traceSource) File() string                 { return s.t.File }
func (s *traceSource) Mark() int64                  { return int64(s.i - 1) }
func (s *traceSource) WhereAt(m int64) string {
	name := s.t.File
	if name == "" {
		name = "trace"
	}
	return fmt.Sprintf("%s: event %d", name, m)
}
func (s *traceSource) LineAt(m int64) string { return fmt.Sprintf("event %d", m) }

// stream is the state carried from window to window.
type stream struct {
	src  source
	rf   bool  // reads-from mode: synthetic write values
	size int   // events per window, 0 = all
	n    int64 // events read so far
	// cur is each location's value now: the traced value (value mode) or
	// the synthetic value of its last write (reads-from mode).
	cur    map[program.Loc]int64
	initFn func(program.Loc) int64 // Trace.Init of an in-memory trace, or nil
	holder map[program.Loc]program.ThreadID
	depth  map[lockKey]int32                  // acquires not yet released per (thread, lock)
	held   map[program.ThreadID][]program.Loc // locks held per thread (copy on write)
	// first is the source mark of each thread's first event: a thread
	// that already ran cannot be forked.
	first   map[program.ThreadID]int64
	forked  map[program.ThreadID]bool
	joined  map[program.ThreadID]bool
	rmw     program.ThreadID // thread whose RMW write half must come next, or -1
	eof     bool             // the last window is out
	srcDone bool             // the source is exhausted
	ahead   []pending        // events read from the source but not yet added
	mark    int64            // the source's mark of the last event added
	dropped int64            // nested acquires and releases dropped

	// Overlapping windows (boundary.go): each window after the first
	// begins with the last overlap events of the one before, read again
	// from replay after the state is restored from snap. fresh is the
	// number of the first event no window has read yet.
	overlap int
	snap    *snapshot
	replay  []pending
	fresh   int64
	bound   *boundary
}

// snapshot is the stream's state before the first event of the next
// window's overlap.
type snapshot struct {
	n, mark, dropped int64
	cur              map[program.Loc]int64
	holder           map[program.Loc]program.ThreadID
	depth            map[lockKey]int32
	held             map[program.ThreadID][]program.Loc
	first            map[program.ThreadID]int64
	forked, joined   map[program.ThreadID]bool
}

func (s *stream) save() {
	s.snap = &snapshot{n: s.n, mark: s.mark, dropped: s.dropped, cur: maps.Clone(s.cur), holder: maps.Clone(s.holder),
		depth: maps.Clone(s.depth), held: maps.Clone(s.held), first: maps.Clone(s.first), forked: maps.Clone(s.forked), joined: maps.Clone(s.joined)}
	s.replay = nil
}

// restore goes back to the snapshot, with the events read since then
// ahead again.
func (s *stream) restore() {
	p := s.snap
	s.n, s.mark, s.dropped = p.n, p.mark, p.dropped
	s.cur, s.holder, s.depth, s.held, s.first, s.forked, s.joined = p.cur, p.holder, p.depth, p.held, p.first, p.forked, p.joined
	s.rmw = -1
	s.ahead = append(s.replay, s.ahead...)
	s.snap, s.replay = nil, nil
}

// pending is an event read ahead, with its source mark.
type pending struct {
	e    program.Event
	mark int64
}

type lockKey struct {
	t program.ThreadID
	l program.Loc
}

// newStream cuts src into windows of size new events (0: one window),
// each after the first beginning with the last overlap events of the one
// before (0 <= overlap < size).
func newStream(src source, rf bool, size, overlap int, init func(program.Loc) int64) *stream {
	s := &stream{src: src, rf: rf, size: size, cur: map[program.Loc]int64{}, holder: map[program.Loc]program.ThreadID{},
		depth: map[lockKey]int32{}, held: map[program.ThreadID][]program.Loc{}, first: map[program.ThreadID]int64{},
		forked: map[program.ThreadID]bool{}, joined: map[program.ThreadID]bool{}, rmw: -1, overlap: overlap, bound: newBoundary()}
	s.initFn = init
	return s
}

// next returns the next window, or nil after the last. A rest of the
// trace of at most half a window joins the window before it (read ahead),
// so that a trace of up to 1.5 windows is analysed whole. Errors:
// malformed input (from the reader), an InputError, or ctx.Err() when ctx
// is done before the window is ready (its events are dropped).
func (s *stream) next(ctx context.Context) (*window, error) {
	if s.eof {
		return nil, nil
	}
	if s.snap != nil {
		s.restore()
	}
	s.bound.retire(s.n)
	b := newBuilder(s)
	p := poll{ctx: ctx}
	for s.size == 0 || b.fresh < s.size || s.rmw >= 0 {
		if p.stop() {
			return nil, ctx.Err()
		}
		if s.snap == nil && s.overlap > 0 && b.fresh >= s.size-s.overlap && s.rmw < 0 {
			s.save() // the next window starts here
		}
		e, ok, err := s.read()
		if err != nil {
			return nil, err
		}
		if !ok {
			s.eof = true
			break
		}
		if err := s.add(b, e); err != nil {
			return nil, err
		}
	}
	if !s.eof && s.size > 0 {
		for !s.srcDone && len(s.ahead) <= s.size/2 {
			if p.stop() {
				return nil, ctx.Err()
			}
			e, err := s.src.Next()
			if errors.Is(err, io.EOF) {
				s.srcDone = true
				break
			}
			if err != nil {
				return nil, err
			}
			s.ahead = append(s.ahead, pending{e, s.src.Mark()})
		}
		for s.srcDone && !s.eof {
			if p.stop() {
				return nil, ctx.Err()
			}
			e, ok, _ := s.read()
			if !ok {
				s.eof = true
				break
			}
			if err := s.add(b, e); err != nil {
				return nil, err
			}
		}
	}
	if s.eof && s.rmw >= 0 {
		return nil, s.errorf("the trace ends between a read-modify-write's read and its write")
	}
	if s.eof {
		s.snap, s.replay = nil, nil
	}
	if b.fresh == 0 {
		return nil, nil
	}
	w := b.finish(ctx)
	if w == nil {
		return nil, ctx.Err()
	}
	return w, nil
}

// read returns the next event (read ahead or from the source), false
// after the last.
func (s *stream) read() (program.Event, bool, error) {
	if len(s.ahead) > 0 {
		p := s.ahead[0]
		if s.ahead = s.ahead[1:]; len(s.ahead) == 0 {
			s.ahead = nil
		}
		s.mark = p.mark
		s.keep(p)
		return p.e, true, nil
	}
	if s.srcDone {
		return program.Event{}, false, nil
	}
	e, err := s.src.Next()
	if errors.Is(err, io.EOF) {
		s.srcDone = true
		return program.Event{}, false, nil
	}
	if err != nil {
		return program.Event{}, false, err
	}
	s.mark = s.src.Mark()
	s.keep(pending{e, s.mark})
	return e, true, nil
}

// keep records an event read after the snapshot, for the next window.
func (s *stream) keep(p pending) {
	if s.snap != nil {
		s.replay = append(s.replay, p)
	}
}

func (s *stream) errorf(format string, args ...any) error {
	return &InputError{Where: s.src.WhereAt(s.mark), Msg: fmt.Sprintf(format, args...)}
}

// add checks event e against the execution so far, updates the state and
// hands the event to the window builder.
func (s *stream) add(b *builder, e program.Event) error {
	global := s.n
	s.n++
	b.real++
	fresh := global >= s.fresh
	if fresh {
		b.fresh++
		s.fresh = global + 1
	}
	th := e.Thread
	name := func(t program.ThreadID) string { return threadName(s.src.Threads(), t) }
	if s.joined[th] {
		return s.errorf("event of %s after it was joined", name(th))
	}
	if s.rmw >= 0 && (th != s.rmw || !e.Is(program.RMWWrite)) {
		return s.errorf("a read-modify-write's read is not immediately followed by its write")
	}
	s.rmw = -1
	if e.Is(program.RMW) {
		s.rmw = th
	}
	if _, ok := s.first[th]; !ok {
		s.first[th] = s.mark
	}
	lockset := s.held[th]
	switch e.Kind {
	case program.Fork, program.Join:
		// The readers check the other thread; a trace in memory may name
		// any number.
		c := program.ThreadID(e.Value)
		if c < 0 || int(c) >= s.src.NumThreads() {
			return s.errorf("%s %ss thread number %d, which does not exist", name(th), e.Kind, e.Value)
		}
		if c == th {
			return s.errorf("%s %ss itself", name(th), e.Kind)
		}
		if e.Kind == program.Join {
			s.joined[c] = true
			break
		}
		switch m, ran := s.first[c]; {
		case s.forked[c]:
			return s.errorf("%s forks %s a second time", name(th), name(c))
		case s.joined[c]:
			return s.errorf("%s forks %s after it was joined", name(th), name(c))
		case ran:
			// A thread starts at its fork: events of the child before it
			// are no execution (and the fork would order nothing).
			return s.errorf("%s forks %s, but %s has events before the fork (the first at %s): a thread's events must come after its fork",
				name(th), name(c), name(c), s.src.LineAt(m))
		}
		s.forked[c] = true
	case program.Acquire:
		k := lockKey{th, e.Loc}
		if h, ok := s.holder[e.Loc]; ok && h != th {
			return s.errorf("%s acquires %s, held by %s", name(th), s.src.LocName(e.Loc), name(h))
		}
		s.depth[k]++
		if s.depth[k] > 1 {
			s.dropped++ // reentrant: the lock is already held
			return nil
		}
		s.holder[e.Loc] = th
		s.held[th] = append(append([]program.Loc(nil), lockset...), e.Loc)
	case program.Release:
		k := lockKey{th, e.Loc}
		if s.depth[k] == 0 {
			return s.errorf("%s releases %s, which it does not hold", name(th), s.src.LocName(e.Loc))
		}
		s.depth[k]--
		if s.depth[k] > 0 {
			s.dropped++
			return nil
		}
		delete(s.holder, e.Loc)
		var rest []program.Loc
		for _, l := range lockset {
			if l != e.Loc {
				rest = append(rest, l)
			}
		}
		s.held[th] = rest
	case program.Read, program.Write:
		if isSynthetic(e.Loc) {
			return s.errorf("location number %d is reserved", e.Loc)
		}
		before, known := s.value(e.Loc)
		if e.Kind == program.Write {
			if s.rf {
				e.Value = global + 1 // unique, and never the initial 0
			}
			s.cur[e.Loc] = e.Value
		} else {
			switch {
			case s.rf:
				e.Value = before
			case !known: // first read of a location never written: its initial value
				s.cur[e.Loc] = e.Value
				before = e.Value
			case e.Value != before:
				return s.errorf("read of %s returns %d, but the location holds %d: the trace is not sequentially consistent",
					s.src.LocName(e.Loc), e.Value, before)
			}
		}
		b.initial(e.Loc, before)
	}
	if fresh {
		s.far(b, &e, lockset)
	}
	b.add(e, global, lockset)
	return nil
}

// far advances the boundary's clocks past new event e and records the far
// pairs of an access (boundary.go) for the window being built, whose next
// position e will take.
func (s *stream) far(b *builder, e *program.Event, locks []program.Loc) {
	s.bound.event(e, e.Index, s.src.NumThreads())
	if !e.Kind.IsAccess() {
		return
	}
	p := int32(len(b.w.t.Events)) // add pushes an access alone
	for _, site := range s.bound.check(e, locks) {
		b.w.far = append(b.w.far, farPair{p: p, site: site})
	}
	if !s.rf && e.Kind == program.Read && e.Is(program.Deref) && e.Value != 0 && s.bound.mayReadOld(e) {
		b.w.far = append(b.w.far, farPair{p: p, null: true})
	}
	s.bound.pending = append(s.bound.pending, farAccess{global: s.n - 1, loc: e.Loc, index: e.Index,
		key: farKey{th: e.Thread, write: e.Kind == program.Write, atomic: e.Is(program.Atomic), site: s.siteOf(e)}, locks: locks})
}

// siteOf is the site of access e: its source position if known, else its
// variable.
func (s *stream) siteOf(e *program.Event) Site {
	if e.Pos.Line != 0 {
		return Site{Line: e.Pos.Line, Col: e.Pos.Col}
	}
	return Site{Var: s.src.LocName(e.Loc)}
}

// value returns location l's current value and whether it is known (written
// before, read before, or given by the trace's Init).
func (s *stream) value(l program.Loc) (int64, bool) {
	if v, ok := s.cur[l]; ok {
		return v, true
	}
	if s.initFn != nil && !s.rf {
		return s.initFn(l), true
	}
	return 0, s.rf
}

func threadName(ts []program.Thread, t program.ThreadID) string {
	return (&program.Trace{Threads: ts}).ThreadName(t)
}
