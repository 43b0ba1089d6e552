package cfront

import (
	"fmt"
	"slices"

	"mcr/program"
)

// This file implements the store buffers of TSO and PSO
// (004_fe58e94b2666f77b.txt Section 2.1; program/INSTANCES.md, "Memory
// models"). Under Program.SetModel(TSO or PSO):
//
//   - A store to a shared object (a plain store or an atomic_store) is the
//     buffer-write: its Write event fires and the bytes go into the thread's
//     store buffer, not into memory. Every such write is one entry, in
//     program order.
//   - Its memory-write is a step of its own, program.FlushOf(write), that
//     explorers schedule like a thread's next event (program.Buffered):
//     under TSO the oldest entry of a thread's buffer can flush, under PSO
//     the oldest entry per location (address). A flush writes memory and
//     appends a program.Flush event to the trace. PSO orders the writes of
//     one address only: writes to overlapping addresses (an int and one of
//     its bytes) may reach memory in either order.
//   - A load of a shared object (plain or atomic_load, and the loads of a
//     spin loop's condition) reads memory overlaid with its own thread's
//     buffered bytes, newest last: it reads its own latest unflushed write.
//   - Everything else that touches shared state is a locked instruction or
//     a fence and runs only with its thread's buffer empty, as on x86:
//     fences, read-modify-writes and compare-and-swaps (whose write then
//     reaches memory at once: r, w, flush w are consecutive in the trace),
//     lock operations, the awaits of the synchronisation models, fork and
//     join; a join also waits until the joined thread's buffer is empty (a
//     thread may end with writes in its buffer, as in program/INSTANCES.md).
//
// Memory orders are ignored, as under SC: an atomic_store is a plain
// (buffered) store, the x86 mapping of a release store; a seq_cst store
// needs an atomic_thread_fence after it. PSO has no store-store fence of
// its own: atomic_thread_fence drains every buffer of the thread.
//
// The SC path is unchanged: with no buffered write, every check here is a
// length test of an empty buffer.

// bufWrite is one buffered write.
type bufWrite struct {
	o     *object
	off   int
	w     uint8
	bytes [8]byte // the value as stored (little-endian, w bytes)
	idx   int32   // the write event's index in its thread
	loc   program.Loc
	v     int64
	flags program.Flags
	pos   program.Pos
}

var _ program.Buffered = (*execution)(nil)

// SetModel sets the memory model executions run under (program.SC by
// default). It must be called before executions start. Programs that read
// __VERIFIER_nondet inputs run under SC only: the concolic state does not
// follow store buffers yet.
func (p *Program) SetModel(m program.MemoryModel) error {
	if m != program.SC && p.hasInputs {
		return fmt.Errorf("%s reads inputs%s: --mm %s does not support inputs yet (sc does)", p.file, p.firstInput(), m)
	}
	p.model = m
	return nil
}

// firstInput names an input the program reads, the first in its compiled
// code, for messages: " (such as NAME at line L)", or "" if none is found.
// A nondet call's is its type; a timed wait's timeout or a clock's field
// says so (timedwait.go), which a user would not take for a nondet call.
func (p *Program) firstInput() string {
	for i, in := range p.code {
		if in.op != opBuiltin || in.a != bNondet || i == 0 || p.code[i-1].op != opPush {
			continue
		}
		pos := in.pos
		for j := i + 1; pos.Line == 0 && j < len(p.code) && j < i+8; j++ {
			pos = p.code[j].pos // timed waits and clocks: on the next positioned instruction
		}
		return fmt.Sprintf(" (such as the %s at line %d)", p.strs[p.code[i-1].k], pos.Line)
	}
	return ""
}

// Model implements program.Buffered.
func (x *execution) Model() program.MemoryModel { return x.p.model }

// buffers reports whether a store to o goes into a store buffer.
func (x *execution) buffers(o *object, w uint8) bool {
	return x.p.model != program.SC && o.shared && !x.silent && w <= 8
}

// bufferStore puts the store of v (w bytes at off of o) that th's Write
// event, just emitted, performs into th's buffer.
func (x *execution) bufferStore(th *thread, o *object, off int, w uint8, v int64) {
	e := x.trace.Events[len(x.trace.Events)-1]
	b := bufWrite{o: o, off: off, w: w, idx: e.Index, loc: e.Loc, v: e.Value, flags: e.Flags, pos: e.Pos}
	store(b.bytes[:], w, v)
	th.buf = append(th.buf, b)
}

// forward returns the value of a load of w bytes at off of o by th: memory
// overlaid with th's buffered bytes in program order (the newest wins), and
// whether the buffer supplied every byte.
func (th *thread) forward(o *object, off int, w uint8, signed bool) (int64, bool) {
	var b [8]byte
	copy(b[:w], o.data[off:])
	covered := uint(0)
	for i := range th.buf {
		e := &th.buf[i]
		lo, hi := max(off, e.off), min(off+int(w), e.off+int(e.w))
		if e.o != o || lo >= hi {
			continue
		}
		copy(b[lo-off:hi-off], e.bytes[lo-e.off:hi-e.off])
		covered |= (1<<(hi-off) - 1) &^ (1<<(lo-off) - 1)
	}
	return load(b[:], w, signed), covered == 1<<w-1
}

// loadShared is the value of th's pending load of w bytes at off of o
// (checked for indeterminate bytes unless its buffer supplies them all).
func (x *execution) loadShared(th *thread, in *instr, o *object, off int, w uint8, signed bool, pos program.Pos) int64 {
	if len(th.buf) > 0 && w <= 8 {
		v, full := th.forward(o, off, w, signed)
		if !full {
			x.readScalar(th, in, o, off, pos)
		}
		return v
	}
	x.readScalar(th, in, o, off, pos)
	return load(o.data[off:], w, signed)
}

// drains reports whether th's pending event runs only with an empty
// buffer: everything but a plain or atomic load or store (and Begin).
func (x *execution) drains(th *thread) bool {
	switch th.pend.Kind {
	case program.Begin, program.End, program.Write:
		return false // a thread may end with writes in its buffer
	case program.Read:
		if th.pend.Flags&(program.RMW|program.CAS) != 0 {
			return true
		}
		in := x.code(th)
		return in.op == opBuiltin && in.a != bAtomicLoad // an await
	}
	return true
}

// Flushes implements program.Buffered.
func (x *execution) Flushes(dst []program.EventID) []program.EventID {
	for _, th := range x.threads {
		if th == nil || len(th.buf) == 0 {
			continue
		}
		if x.p.model == program.TSO {
			dst = append(dst, program.FlushOf(program.EventID{Thread: th.id, Index: th.buf[0].idx}))
			continue
		}
		for i := range th.buf {
			if th.oldestOf(i) {
				dst = append(dst, program.FlushOf(program.EventID{Thread: th.id, Index: th.buf[i].idx}))
			}
		}
	}
	return dst
}

// oldestOf reports whether th.buf[i] is the oldest entry of its location.
func (th *thread) oldestOf(i int) bool {
	for j := 0; j < i; j++ {
		if th.buf[j].loc == th.buf[i].loc {
			return false
		}
	}
	return true
}

// Flush implements program.Buffered: the write f names reaches memory.
func (x *execution) Flush(f program.EventID) bool {
	if x.over {
		return false
	}
	th := x.threads[f.Thread]
	w := f.Flushed().Index
	i := slices.IndexFunc(th.buf, func(b bufWrite) bool { return b.idx == w })
	if i < 0 || x.p.model == program.TSO && i != 0 || !th.oldestOf(i) {
		panic(fmt.Sprintf("cfront: Flush(%v), which cannot flush now", f))
	}
	b := th.buf[i]
	th.buf = slices.Delete(th.buf, i, i+1)
	if b.o.data != nil { // a block freed meanwhile: the write is lost
		copy(b.o.data[b.off:], b.bytes[:b.w])
		b.o.writeObj(b.off, int(b.w))
	}
	x.trace.Events = append(x.trace.Events, program.Event{Thread: th.id, Index: ^b.idx, Kind: program.Flush,
		Flags: b.flags, Loc: b.loc, Value: b.v, Pos: b.pos})
	return true
}

// flushNow appends the flush of th's write just emitted, which went to
// memory at once (the write half of a read-modify-write under TSO/PSO).
func (x *execution) flushNow(th *thread) {
	if x.p.model == program.SC || x.silent {
		return
	}
	e := x.trace.Events[len(x.trace.Events)-1]
	e.Kind, e.Index = program.Flush, ^e.Index
	x.trace.Events = append(x.trace.Events, e)
}

// Forwards implements program.Buffered.
func (x *execution) Forwards(t program.ThreadID) bool {
	th := x.threads[t]
	if len(th.buf) == 0 || th.pend.Kind != program.Read || x.drains(th) {
		return false
	}
	in := x.code(th)
	o, off := x.object(objOf(int64(th.pend.Loc))), int(offOf(int64(th.pend.Loc)))
	if o == nil || o.data == nil || in.w > 8 || off < 0 || off+int(in.w) > len(o.data) {
		return false
	}
	_, full := th.forward(o, off, in.w, false)
	return full
}

// buffered reports whether some thread's buffer holds a write.
func (x *execution) buffered() bool {
	for _, th := range x.threads {
		if th != nil && len(th.buf) > 0 {
			return true
		}
	}
	return false
}
