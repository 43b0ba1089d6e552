package program

import "sync"

// This file is the one index of a trace's structure that the encodings
// (encode), the explicit deciders and explorers (explicit), the seed
// search and check, and the predictor (mcr/predict) share: program order,
// the fork of each thread, reads-from under the trace order, critical
// sections, and vector clocks of the partial orders built from them.
// Each consumer used to compute its own copy; they now differ only in
// which orders they ask Clocks for.

// Orders selects the edges a clock index includes beyond must-happen-before
// (program order, fork before the child's first event, the child's last
// event before the join: Φ_mhb of 001_aa53da3bf10d3f4e.txt Section 3.2).
// A memory model with orders of its own (TSO's store-buffer flushes, seed
// 004) adds a bit here and a case in TraceIndex.clocks.
type Orders uint8

const (
	// LockOrder orders each release before the next acquire of the same
	// lock in the trace: happens-before.
	LockOrder Orders = 1 << iota
	// ReadsFromOrder orders each write before the reads that read from it
	// (TraceIndex.Src): with LockOrder, [≤τ ∪ rf]+ of
	// 002_29f9f830801bf5b9.txt Section 3, locks being read-modify-writes of
	// their mutex (Section 7).
	ReadsFromOrder
	// TrylockOrder orders the acquire that holds a lock before each failed
	// trylock (LockFail) of it: the trylock fails because of it, so in
	// every interleaving it comes later (ReadsFrom-SMC reads it from the
	// acquire, 002_29f9f830801bf5b9.txt Section 7).
	TrylockOrder
	ordersCount = 1 << iota
)

// Section is a critical section of a lock: the trace positions of its
// acquire and release, Rel -1 if the trace ends inside the section.
type Section struct {
	Acq, Rel int32
}

// TraceIndex indexes one trace. The fields are computed by NewTraceIndex;
// clocks and sections on first use. Safe for concurrent use; the trace
// must not change while the index is in use.
type TraceIndex struct {
	T *Trace
	// K is the number of threads: len(T.Threads), or more if events name
	// threads beyond the table.
	K int
	// At lists each thread's trace positions in program order: At[t][i] is
	// the position of event i of thread t. len(At) == K.
	At [][]int32
	// Fork is the position of the fork creating each thread, -1 for a
	// thread forked before the trace starts (main).
	Fork []int32
	// Src is reads-from under the trace order (sequential consistency): for
	// a read, the position of the last earlier write to its location; for
	// an acquire, the last earlier release of its lock; -1 for the initial
	// value (no such event); -2 for every other event.
	Src []int32

	mu       sync.Mutex
	clocks   [ordersCount]*Clocks
	sections map[Loc][]Section
}

// NewTraceIndex indexes t in one pass: O(len(t.Events) + threads).
func NewTraceIndex(t *Trace) *TraceIndex {
	k := len(t.Threads)
	for i := range t.Events {
		if th := int(t.Events[i].Thread); th >= k {
			k = th + 1
		}
	}
	// One allocation for the fork positions and every thread's At, whose
	// lengths are counted first (appending per event was most of the
	// allocations an SMC call made, issue 17).
	ints := make([]int32, 2*k+2*len(t.Events))
	fork, count := ints[:k:k], ints[k:2*k]
	for i := range t.Events {
		if e := &t.Events[i]; e.Kind != Flush {
			count[e.Thread]++
		}
	}
	x := &TraceIndex{T: t, K: k, At: make([][]int32, k), Fork: fork, Src: ints[2*k+len(t.Events):]}
	at := ints[2*k : 2*k+len(t.Events)]
	for th := range x.Fork {
		x.Fork[th] = -1
		x.At[th], at = at[:0:count[th]], at[count[th]:]
	}
	// The last write per location and release per lock: two maps with
	// integer keys (a struct key costs a generic hash per event).
	lastW, lastRel := map[Loc]int32{}, map[Loc]int32{}
	var buf *storeBuffers // TSO, PSO: the unflushed writes
	if t.Model != SC {
		buf = newStoreBuffers(t)
	}
	for i := range t.Events {
		e := &t.Events[i]
		p := int32(i)
		x.Src[i] = -2
		if e.Kind == Flush {
			// the write reaches memory: reads of other threads see it now
			lastW[e.Loc] = buf.flush(e)
			continue
		}
		x.At[e.Thread] = append(x.At[e.Thread], p)
		switch e.Kind {
		case Read, Acquire:
			last := lastW
			if e.Kind == Acquire {
				last = lastRel
			}
			x.Src[i] = -1
			if w, ok := last[e.Loc]; ok {
				x.Src[i] = w
			}
			if buf != nil && e.Kind == Read {
				if w, ok := buf.own(e); ok {
					x.Src[i] = w // forwarded from its own store buffer
				}
			}
		case Write:
			if buf != nil {
				buf.write(e, p)
				break
			}
			lastW[e.Loc] = p
		case Release:
			lastRel[e.Loc] = p
		case Fork:
			if e.Value >= 0 && int(e.Value) < k {
				x.Fork[e.Value] = p
			}
		}
	}
	return x
}

// ReadsFrom returns a copy of Src restricted to reads: -2 for every event
// that is not a read.
func (x *TraceIndex) ReadsFrom() []int32 {
	rf := make([]int32, len(x.Src))
	for i, s := range x.Src {
		rf[i] = -2
		if x.T.Events[i].Kind == Read {
			rf[i] = s
		}
	}
	return rf
}

// Prev returns the position of what immediately precedes position i in
// its thread: its program-order predecessor, else the fork of its thread,
// else -1.
func (x *TraceIndex) Prev(i int32) int32 {
	e := &x.T.Events[i]
	if e.Index > 0 {
		return x.At[e.Thread][e.Index-1]
	}
	return x.Fork[e.Thread]
}

// Last returns the position of thread th's last event, -1 if it has none.
func (x *TraceIndex) Last(th ThreadID) int32 {
	if int(th) >= len(x.At) || len(x.At[th]) == 0 {
		return -1
	}
	return x.At[th][len(x.At[th])-1]
}

// MHBPreds appends to out the immediate must-happen-before predecessors
// of position i: Prev(i), and for a join the joined thread's last event
// (if the trace has it).
func (x *TraceIndex) MHBPreds(i int32, out []int32) []int32 {
	if p := x.Prev(i); p >= 0 {
		out = append(out, p)
	}
	if e := &x.T.Events[i]; e.Kind == Join && e.Value >= 0 {
		if end := x.Last(ThreadID(e.Value)); end >= 0 && end < i {
			out = append(out, end)
		}
	}
	return out
}

// Clocks returns the vector clocks of must-happen-before plus the orders
// o, computed on first use: O(len(T.Events) × K).
func (x *TraceIndex) Clocks(o Orders) *Clocks { return x.ClocksIn(o, nil) }

// ClocksIn is Clocks computed in buf's storage when it has room (the
// clocks then own it: buf must not be used elsewhere any more), so that
// an explorer that needs one trace's clocks at a time reuses one buffer.
func (x *TraceIndex) ClocksIn(o Orders, buf []int32) *Clocks {
	x.mu.Lock()
	defer x.mu.Unlock()
	if c := x.clocks[o]; c != nil {
		return c
	}
	c := x.clocks0(o, buf)
	x.clocks[o] = c
	return c
}

// clocks0 computes the clocks, in buf if it has room.
func (x *TraceIndex) clocks0(o Orders, buf []int32) *Clocks {
	t, n := x.T, x.K
	flat := buf[:0]
	if cap(flat) < len(t.Events)*n {
		flat = make([]int32, len(t.Events)*n)
	} else {
		flat = flat[:len(t.Events)*n]
		clear(flat)
	}
	c := &Clocks{n: n, flat: flat, tr: t}
	var preds []int32
	holder := map[Loc]int{} // TrylockOrder: the acquire holding each lock
	for i := range t.Events {
		e := &t.Events[i]
		row := c.Of(i)
		preds = x.MHBPreds(int32(i), preds[:0])
		for _, q := range preds {
			row.join(c.Of(int(q)))
		}
		switch e.Kind {
		case Acquire:
			if s := x.Src[i]; s >= 0 && o&LockOrder != 0 {
				row.join(c.Of(int(s)))
			}
			if o&TrylockOrder != 0 {
				holder[e.Loc] = i
			}
		case Release:
			delete(holder, e.Loc)
		case LockFail:
			if a, ok := holder[e.Loc]; ok && o&TrylockOrder != 0 {
				row.join(c.Of(a))
			}
		case Read:
			if s := x.Src[i]; s >= 0 && o&ReadsFromOrder != 0 {
				row.join(c.Of(int(s)))
			}
		}
		row[e.Thread] = e.Index + 1
	}
	return c
}

// Sections returns the critical sections per lock, in acquire order,
// computed on first use. A release pairs with its thread's open acquire of
// the same lock; a release with none (the lock held since before the
// trace) starts no section.
func (x *TraceIndex) Sections() map[Loc][]Section {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.sections != nil {
		return x.sections
	}
	type key struct {
		th ThreadID
		l  Loc
	}
	secs := map[Loc][]Section{}
	open := map[key]int{} // index in secs[l] of the thread's open section
	for i := range x.T.Events {
		switch e := &x.T.Events[i]; e.Kind {
		case Acquire:
			open[key{e.Thread, e.Loc}] = len(secs[e.Loc])
			secs[e.Loc] = append(secs[e.Loc], Section{int32(i), -1})
		case Release:
			k := key{e.Thread, e.Loc}
			if s, ok := open[k]; ok {
				secs[e.Loc][s].Rel = int32(i)
				delete(open, k)
			}
		}
	}
	x.sections = secs
	return secs
}

// storeBuffers tracks, while NewTraceIndex walks a TSO or PSO trace, the
// unflushed writes per thread and location: how many there are and the
// position of the latest (the source of a read of the same thread, seed
// 004 Section 2.1), and the position of each write (for its flush).
type storeBuffers struct {
	t       *Trace
	pending map[bufKey]bufState
	at      map[EventID]int32
}

type bufKey struct {
	th  ThreadID
	loc Loc
}

type bufState struct {
	n      int32 // unflushed writes
	latest int32 // position of the latest write
}

func newStoreBuffers(t *Trace) *storeBuffers {
	return &storeBuffers{t: t, pending: map[bufKey]bufState{}, at: map[EventID]int32{}}
}

func (b *storeBuffers) write(e *Event, p int32) {
	k := bufKey{e.Thread, e.Loc}
	s := b.pending[k]
	b.pending[k] = bufState{n: s.n + 1, latest: p}
	b.at[e.ID()] = p
}

// flush removes the write flushed by f from its buffer and returns its
// position (-1 if the trace does not hold it: a malformed trace).
func (b *storeBuffers) flush(f *Event) int32 {
	k := bufKey{f.Thread, f.Loc}
	if s := b.pending[k]; s.n > 0 {
		s.n--
		b.pending[k] = s
	}
	w, ok := b.at[EventID{f.Thread, ^f.Index}]
	if !ok {
		return -1
	}
	return w
}

// own returns the latest unflushed write of e's thread to e's location.
func (b *storeBuffers) own(e *Event) (int32, bool) {
	s := b.pending[bufKey{e.Thread, e.Loc}]
	return s.latest, s.n > 0
}
