package cfront

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"mcr/program"
	"mcr/program/sym"

	"modernc.org/cc/v4"
)

// This file implements the interpreter: executions, threads, memory, and the
// controlled stepping of program.Execution. A thread runs its local
// computation until the next instruction that is an event (a shared memory
// access, a lock operation, fork, join, thread begin/end, a fence); there it
// stops with that event pending until the scheduler steps it.

// Pointer layout: a pointer to byte off of object id is id<<32 + off, with
// off a signed 32-bit offset, so that a pointer just before its object
// (a[-1]) still names that object and its negative offset. Static objects
// (globals, functions, string literals) have ids below dynBit; dynamic
// objects (heap blocks, frame variables) are numbered per thread:
// dynBit | thread<<dynThreadShift | allocation index. Both parts are the same
// in every execution that reaches the allocation (local determinism), so
// pointer values and locations are stable across executions.
const (
	dynBit         = 1 << 31
	dynThreadShift = 20
	maxDynThreads  = 1 << 11
	maxDynPerThr   = 1 << dynThreadShift
	// localStepLimit bounds the instructions a thread runs between two events,
	// so that an infinite local loop ends as a bounded execution, not a hang.
	localStepLimit = 50_000_000
	// maxObject bounds one object (global, heap block or frame variable),
	// maxStatics all globals together and maxHeap the live heap blocks and
	// frame variables of one execution (freed ones are credited back), so
	// that bad sizes fail clearly instead of exhausting memory.
	maxObject  = 16 << 20
	maxStatics = 64 << 20
	maxHeap    = 256 << 20
	// maxCallDepth bounds recursion, so that runaway recursion is a runtime
	// error instead of exhausting memory.
	maxCallDepth = 10_000
)

// objOf is the object pointer p points into: the one whose id<<32 is
// nearest, with offsets in [-2^31, 2^31).
func objOf(p int64) uint32 { return uint32((uint64(p) + 1<<31) >> 32) }

// offOf is p's signed byte offset in objOf(p).
func offOf(p int64) int32 { return int32(uint32(uint64(p))) }

func mkPtr(obj uint32, off int64) int64 {
	return int64(uint64(obj)<<32) + off
}

type objKind uint8

const (
	kGlobal objKind = iota
	kFunc
	kString
	kHeap
	kStack
)

type object struct {
	data   []byte // nil once freed
	kind   objKind
	shared bool // accesses are events
	freed  bool
	fn     *function
	name   string  // frame variables: "function.variable", for messages
	typ    cc.Type // frame variables: the variable's type (escape)
	undef  []bool  // per byte: indeterminate (undef.go); nil if none ever was
	// symCells: the symbolic scalars stored in it, by offset (concolic.go)
	symCells map[int]symCell
}

type frame struct {
	fn       *function
	retPC    int32
	slotBase int32
	stackLen int32 // operand stack height of the caller after popping arguments
	// frameObj points to the first frame variable (0 if none); the others
	// follow it with consecutive object ids
	frameObj int64
}

type thread struct {
	// (fields ordered to leave little padding: every pthread_create
	// allocates one, issue 17)
	id       program.ThreadID
	pc       int32
	name     string
	stack    []int64
	slots    []int64
	undef    []bool // per slot (absolute): indeterminate (undef.go)
	frames   []frame
	pend     program.Event
	finished bool
	stuck    bool      // its __VERIFIER_assume failed: it never runs again
	await    *awaiting // set if it is stuck at an await (await.go)
	wrlocks  []int64   // the reader-writer locks it holds for writing (rwlock.go)
	begun    bool      // Begin has fired (non-main threads)
	ending   bool      // End is pending
	// copyUndef: the last load of an aggregate copy read indeterminate
	// bytes, which its store copies as such (fCopy, undef.go)
	copyUndef bool
	nevents   int32
	buf       []bufWrite // its store buffer under TSO and PSO (storebuf.go)
	nforks    int
	nallocs   int
	ret       int64
	atomicN   int // nesting depth of __VERIFIER_atomic sections held
	// frozenDst is where its last create beyond the thread bound stored the
	// pthread_t (threadbound.go)
	frozenDst int64
	tls       map[int32]int64 // its copies of thread-local statics (tls.go)
	specific  map[int64]int64 // its thread-specific data: key -> value (tsd.go)
	dtors     dtorState       // its key destructors' progress at exit (tsd.go)
	// the shadows of stack and slots (concolic.go), and the inputs read
	sstack, sslots []*sym.Term
	ninputs        int
	// effects counts what its local computation did besides reading: events
	// other than reads, fences and failed trylocks, private stores,
	// allocations, builtins with an effect; loops are its back edges (idle.go)
	effects uint64
	// lockSig sums lockHash over the locks th holds (idle.go)
	lockSig uint64
	loops   []loopMark
}

// threadBlock is a thread allocated with room for its first operand stack,
// slots and frames: a pthread_create then allocates once, not four times
// (issue 17). The slices point into the block until they grow.
type threadBlock struct {
	th     thread
	stack  [8]int64
	slots  [8]int64
	frames [2]frame
}

// newThread returns a new thread (threadBlock).
func newThread(id program.ThreadID, name string) *thread {
	b := &threadBlock{}
	b.th.id, b.th.name = id, name
	b.th.stack, b.th.slots, b.th.frames = b.stack[:0], b.slots[:0], b.frames[:0]
	return &b.th
}

// dynList returns an empty list of a thread's allocations with room for a
// few, from a block the execution allocates a few lists at a time (a
// thread's first allocation, its first call's frame variables, was one
// allocation per thread, issue 17). Each list has its own capacity: an
// append past it moves the list out of the block.
func (x *execution) dynList() []*object {
	const per, block = 4, 32
	if cap(x.dynSlab)-len(x.dynSlab) < per {
		x.dynSlab = make([]*object, 0, block)
	}
	n := len(x.dynSlab)
	x.dynSlab = x.dynSlab[:n+per]
	return x.dynSlab[n : n : n+per]
}

type execution struct {
	p *Program
	// own holds the objects of the statics the execution has its own of
	// (not functions: Program.shared), by Program.ownIdx; statics, only
	// while the initial image is built, every static's object by id
	// (object). A slice of every static per execution, most of them the
	// shared functions of the system headers, was a tenth of the bytes rf
	// allocated per execution (issue 17).
	own     []*object
	statics []*object
	dyn     [][]*object
	threads []*thread
	trace   program.Trace
	locks   map[program.Loc]program.ThreadID
	over    bool
	outcome program.Outcome
	// the thread currently running local code (for errors)
	cur *thread
	// objSlab and byteSlab: the free rest of the blocks newObject takes
	// objects and small objects' data from
	objSlab  []object
	byteSlab []byte
	dynSlab  []*object // the same for dyn's lists (dynList)
	// silent suppresses events: an atomic builtin on a private object
	silent bool
	// bounded is set when a thread reached the event bound
	bounded *program.Outcome
	// blocked is set when a thread's __VERIFIER_assume failed (the first)
	blocked *program.Outcome
	// exited is set when a thread called exit or abort (the first)
	exited *program.Outcome
	// failures are the violations of the threads that failed, in the order
	// they happened (fail)
	failures []program.Failure
	// arg is the Arg of the next event emitted (a CAS's expected value)
	arg int64
	// heapBytes counts the bytes of the live heap blocks and frame variables
	heapBytes int64
	// unmodelled is the first read of an indeterminate value (undef.go)
	unmodelled string
	// pub holds the contents of escaped locals: their initial values
	pub publications
	// nthreads counts the threads created, main included (the thread bound)
	nthreads int
	// nfrozen counts the threads created beyond the bound (threadbound.go)
	nfrozen int
	// nsteps counts Steps, to poll stop every so often
	nsteps uint32
	cancel <-chan struct{} // Program.StopWhen's channel at Start
	// imaging: this runs the global initialisers into the initial image,
	// where a thread-local static is its template (tls.go)
	imaging bool
	// sym is the concolic state; nil if the program reads no inputs
	sym *symState
	// the types of mutex attributes (by address) and of mutexes that
	// pthread_mutex_init gave one (mutextype.go); nil until used
	attrTypes  map[int64]int64
	mutexTypes map[program.Loc]int64
}

// atomicLock is the lock __VERIFIER_atomic_begin/end and __VERIFIER_atomic_*
// functions take: a location no object can have.
const atomicLock = program.AtomicSection

var _ program.Execution = (*execution)(nil)

// Start implements program.Program.
func (p *Program) Start() program.Execution {
	x := &execution{p: p, locks: make(map[program.Loc]program.ThreadID), cancel: p.stop}
	if p.hasInputs {
		x.sym = &symState{}
	}
	// Function objects are shared by every execution (Program.shared); the
	// others are the execution's own, allocated together.
	x.own = make([]*object, len(p.statics)-p.nfuncs)
	own := make([]object, len(x.own))
	for i, s := range p.statics {
		if s.kind == kFunc {
			continue
		}
		o := &own[p.ownIdx[i]]
		x.own[p.ownIdx[i]] = o
		o.kind, o.shared = s.kind, s.kind == kGlobal && !s.tls
		if s.kind == kGlobal {
			o.data = append([]byte(nil), s.data...)
		} else {
			o.data = s.data // read-only (strings)
		}
	}
	x.trace.File = p.file
	x.trace.LocNames = p.LocName
	x.trace.Init = x.initValue
	x.trace.Model = p.model
	main := newThread(0, "0")
	main.begun = true
	x.addThread(main)
	x.call(main, p.mainFn, p.mainArgs[:min(len(p.mainArgs), p.mainFn.nparams)], -1) // main(void) takes none
	x.run(main)
	return x
}

func (x *execution) addThread(t *thread) {
	x.nthreads++
	if int(t.id) >= cap(x.threads) {
		// room for every thread the program has had at once: growing by
		// one thread at a time was 3% of rf's time (issue 17)
		n := max(int(t.id)+1, x.p.threadCount())
		x.threads, x.dyn = slices.Grow(x.threads, max(0, n-len(x.threads))), slices.Grow(x.dyn, max(0, n-len(x.dyn)))
	}
	for int(t.id) >= len(x.threads) {
		x.threads = append(x.threads, nil)
	}
	x.threads[t.id] = t
	for int(t.id) >= len(x.dyn) {
		x.dyn = append(x.dyn, nil)
	}
}

var _ program.Reserver = (*execution)(nil)

// Reserve implements program.Reserver.
func (x *execution) Reserve(events int) {
	x.trace.Events = slices.Grow(x.trace.Events, max(0, events-len(x.trace.Events)))
}

// Threads implements program.Execution.
func (x *execution) Threads() int { return len(x.threads) }

// PendingArgs implements program.PendingArgs: the atomic CAS builtin sets
// its pending event's Arg when the thread stops at it (builtins.go).
func (x *execution) PendingArgs() bool { return true }

// Pending implements program.Execution.
func (x *execution) Pending(t program.ThreadID) (program.Event, program.ThreadStatus) {
	if int(t) >= len(x.threads) || x.threads[t] == nil {
		return program.Event{}, program.Absent
	}
	th := x.threads[t]
	if th.finished {
		return program.Event{}, program.Finished
	}
	if th.stuck {
		return program.Event{}, program.Stuck
	}
	e := th.pend
	if len(th.buf) > 0 && x.drains(th) {
		return e, program.Waiting // for its flushes (storebuf.go)
	}
	switch e.Kind {
	case program.Acquire:
		if _, held := x.locks[e.Loc]; held {
			if x.code(th).a == bTryLock {
				e.Kind = program.LockFail
				return e, program.Enabled
			}
			return e, program.Waiting
		}
	case program.Join:
		if c := x.threads[e.Value]; c == nil || !c.finished || len(c.buf) > 0 {
			return e, program.Waiting // TSO, PSO: and its buffer drained
		}
	}
	return e, program.Enabled
}

func (x *execution) code(th *thread) *instr { return &x.p.code[th.pc] }

// Done implements program.Execution.
func (x *execution) Done() (bool, program.Outcome) {
	if x.over {
		return true, x.outcome
	}
	if x.p.model != program.SC && x.buffered() {
		return false, program.Outcome{} // a flush can run
	}
	// Most often the thread that ran last can go on: the scan below looks
	// at every thread before it first (explorers ask after every step,
	// and it was a twentieth of rf's time on readers.c). Its only effect
	// besides the answer is on executions with inputs.
	if th := x.cur; x.sym == nil && th != nil && th.await == nil && !th.finished && !th.stuck {
		if _, st := x.Pending(th.id); st == program.Enabled {
			return false, program.Outcome{}
		}
	}
	waiting, woken, timed := false, false, false
	for _, th := range x.threads {
		if th != nil && th.await != nil {
			if x.sym != nil && len(th.await.o.symCells) > 0 {
				x.incomplete("a thread waits on a location that holds an input-dependent value at line %d (whether it is woken is not tracked)", th.await.pos.Line)
			}
			// stuck at an await: it waits, unless a write after its read
			// lets it through (await.go), or it is a timed wait's, which
			// times out instead (timedwait.go)
			if th.await.woken() {
				woken = true
			} else if th.await.timed {
				timed = true
			} else {
				waiting = true
			}
		}
		if th == nil || th.finished || th.stuck {
			continue
		}
		if _, st := x.Pending(th.id); st == program.Enabled {
			return false, program.Outcome{}
		}
		if x.timedAcquire(th) {
			timed = true // timedwait.go
			continue
		}
		waiting = true
	}
	x.over = true
	switch {
	case x.bounded != nil:
		// a thread stopped by the bound: blocked threads may wait for it
		x.outcome = *x.bounded
	case len(x.failures) > 0:
		// Threads waiting for a failed thread (for a lock it holds, for its
		// end) are not deadlocked: the program ended at the failure.
		x.outcome = x.failures[0].Outcome
	case x.exited != nil:
		// The program ended: threads waiting for a lock the exiting thread
		// holds, or for each other, are not deadlocked, and a failed
		// assumption of another thread may come after the exit. With such
		// waiting threads the end state is one no code observes, whose
		// shape depends on where the waiting threads stopped: like a failed
		// assumption's, the execution is Blocked (not maximal).
		x.outcome = *x.exited
		if waiting {
			x.outcome.Kind = program.Blocked
			x.outcome.Message += " while other threads wait for it"
		}
	case x.blocked != nil:
		// A thread whose assumption failed cannot go on, so threads waiting
		// for it (or for each other) are not a deadlock of a feasible run.
		x.outcome = *x.blocked
	case timed:
		// A timed wait would time out instead of waiting forever: that is
		// the run in which it takes its timeout branch (timedwait.go), so
		// this one is not maximal and its waiters are no deadlock.
		x.outcome = program.Outcome{Kind: program.Blocked, Message: "a timed wait waits forever: its timeout is explored instead"}
	case woken:
		// A waiter missed a write that came after its await (a signal, a
		// post, an unlock): a run in which it reads the write is explored
		// instead (await.go).
		x.outcome = program.Outcome{Kind: program.Blocked, Message: "an await read a value before a write that would let it through"}
	case waiting:
		x.outcome = program.Outcome{Kind: program.Deadlock, Message: x.deadlockMessage()}
	}
	return true, x.outcome
}

func (x *execution) deadlockMessage() string {
	msg := "deadlock:"
	for _, th := range x.threads {
		if th == nil || th.finished {
			continue
		}
		if th.await != nil {
			msg += x.awaitMessage(th)
			continue
		}
		switch th.pend.Kind {
		case program.Acquire:
			msg += fmt.Sprintf(" T%s waits for %s at line %d;", th.name, x.p.LocName(th.pend.Loc), th.pend.Pos.Line)
		case program.Join:
			msg += fmt.Sprintf(" T%s joins T%s at line %d;", th.name, x.threads[th.pend.Value].name, th.pend.Pos.Line)
		}
	}
	return msg[:len(msg)-1]
}

// Trace implements program.Execution.
func (x *execution) Trace() *program.Trace {
	x.trace.Threads = x.p.threadTable()
	return &x.trace
}

// fail records a violation (or, for kind Bounded, a tool limit) of th at
// th.pc.
//
// A violation stops only th (Stuck, holding what it holds); the others run
// on until each ends, waits or stops, as after exit or abort. The failure
// is local to th, so any run of the others is a run in which it merely came
// last: their violations and races are real. Ending the whole execution at
// the failure instead hid the other threads' later writes from the
// explorers, and with them the reads-from alternatives behind the failure:
// rf and mcr-seeds missed a race behind a failed assertion under
// --keep-going (testdata/c/violation_hides_race.c). Every failure of an
// execution is kept (Failures), since which of two comes first depends on
// the interleaving, not on the execution's class.
//
// A tool limit (Bounded) ends the whole execution: what follows is cut.
func (x *execution) fail(th *thread, kind program.OutcomeKind, format string, args ...any) {
	if x.over || th.stuck {
		return
	}
	out := program.Outcome{Kind: kind, Thread: th.id, Message: fmt.Sprintf(format, args...)}
	if int(th.pc) < len(x.p.code) {
		out.Pos = x.pos(th)
	}
	if kind == program.Bounded || x.imaging {
		x.over = true
		x.outcome = out
		return
	}
	th.stuck = true
	if kind == program.AssertionFailure {
		// SV-COMP's atomic sections run without interruption; the lock
		// that models them does not stop other threads' plain accesses
		// (program.AtomicBreach). A failure that needs one inside a
		// section (no reordering of the run runs the sections whole:
		// program.AtomicReorder) is not reported, and the search is not
		// complete.
		why := program.AtomicBreach(x.Trace(), x.trace.Events)
		if why != "" && !program.AtomicReorder(x.trace.Events, th.id) {
			x.noteUnmodelled(fmt.Sprintf("the assertion failure at line %d needs %s, and SV-COMP runs a section without interruption (not reported)", out.Pos.Line, why))
			return
		}
	}
	x.failures = append(x.failures, program.Failure{Outcome: out, Events: len(x.trace.Events)})
}

// Failures implements program.Failer.
func (x *execution) Failures() []program.Failure { return x.failures }

// Step implements program.Execution: fire the pending event of t, then run t
// to its next event. A read-modify-write fires its read and write together.
func (x *execution) Step(t program.ThreadID) bool {
	if x.over {
		return false
	}
	th := x.threads[t]
	if _, st := x.Pending(t); st != program.Enabled {
		panic(fmt.Sprintf("cfront: Step(%d) on a thread that is not enabled", t))
	}
	if x.nsteps++; x.nsteps%1024 == 0 && x.cancelled(th) {
		return false
	}
	x.fire(th)
	if !x.over && !th.finished && !th.stuck {
		x.run(th)
	}
	return !x.over
}

// emit appends an event of th to the trace.
func (x *execution) emit(th *thread, kind program.Kind, flags program.Flags, loc program.Loc, val int64, pos program.Pos) {
	if x.silent {
		return
	}
	x.trace.Events = append(x.trace.Events, program.Event{
		Thread: th.id, Index: th.nevents, Kind: kind, Flags: flags, Loc: loc, Value: val, Pos: pos, Arg: x.arg,
	})
	x.arg = 0
	th.nevents++
	switch {
	case kind == program.Acquire:
		th.lockSig += lockHash(loc) // balanced lock operations are no effect (idle.go)
	case kind == program.Release:
		th.lockSig -= lockHash(loc)
	case kind != program.Read && kind != program.Fence && kind != program.LockFail || flags&program.RMW != 0:
		th.effects++
	}
}

// resolve checks an access of w bytes at pointer p and returns the object
// and offset; on an invalid access th fails (fail) and it returns nil.
func (x *execution) resolve(th *thread, p int64, w int) (*object, int) {
	id, off := objOf(p), int(offOf(p))
	if id == 0 {
		x.fail(th, program.NullDereference, "null pointer dereference")
		return nil, 0
	}
	o := x.object(id)
	switch {
	case o == nil:
		x.fail(th, program.RuntimeError, "invalid pointer %#x", uint64(p))
		return nil, 0
	case o.kind == kFunc:
		x.fail(th, program.RuntimeError, "access to function %s as data", x.objName(id, o))
		return nil, 0
	case o.freed:
		what := "use after free"
		if o.kind == kStack {
			what = "use after return"
		}
		x.fail(th, program.RuntimeError, "%s of %s", what, x.objName(id, o))
		return nil, 0
	case off < 0 || off+w > len(o.data):
		x.fail(th, program.RuntimeError, "out-of-bounds access to %s at offset %d (size %d)", x.objName(id, o), off, len(o.data))
		return nil, 0
	}
	return o, off
}

// object returns the object with the given id, nil if there is none.
func (x *execution) object(id uint32) *object {
	if id&dynBit == 0 {
		switch {
		case x.statics != nil:
			if int(id) < len(x.statics) {
				return x.statics[id]
			}
		case int(id) < len(x.p.ownIdx):
			if k := x.p.ownIdx[id]; k >= 0 {
				return x.own[k]
			}
			return x.p.shared[id]
		}
		return nil
	}
	tid, n := int(id&^dynBit)>>dynThreadShift, int(id&(maxDynPerThr-1))
	if tid < len(x.dyn) && n < len(x.dyn[tid]) {
		return x.dyn[tid][n]
	}
	return nil
}

// funcOf returns the function of the static object id, nil if id names no
// function's object.
func (x *execution) funcOf(id uint32) *function {
	if id&dynBit != 0 {
		return nil
	}
	if o := x.object(id); o != nil {
		return o.fn
	}
	return nil
}

// objName names object o (with the given id) for messages: frame variables
// by their function and name, other objects as Program.objName does.
func (x *execution) objName(id uint32, o *object) string {
	if o != nil && o.name != "" {
		return o.name
	}
	return x.p.objName(id)
}

func load(b []byte, w uint8, signed bool) int64 {
	switch w {
	case 1:
		if signed {
			return int64(int8(b[0]))
		}
		return int64(b[0])
	case 2:
		v := binary.LittleEndian.Uint16(b)
		if signed {
			return int64(int16(v))
		}
		return int64(v)
	case 4:
		v := binary.LittleEndian.Uint32(b)
		if signed {
			return int64(int32(v))
		}
		return int64(v)
	default:
		return int64(binary.LittleEndian.Uint64(b))
	}
}

func store(b []byte, w uint8, v int64) {
	switch w {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, uint64(v))
	}
}

// conv normalises v to a w-byte integer (sym.Conv, which the symbolic
// terms of inputs mirror).
func conv(v int64, w uint8, signed bool) int64 { return sym.Conv(v, w, signed) }

// escape marks the stack object p points to as shared: its address reached
// another thread (a store to shared memory or a thread argument), so from now
// on its accesses are events.
func (x *execution) escape(p int64) {
	// Transitively: an object that becomes shared shares every object its
	// contents point to, since the other thread can follow those pointers
	// (a struct on main's stack holding a pointer to another local, passed
	// to pthread_create: the second local's accesses were private, and a
	// whole barrier's races and interleavings went unexplored). Pointers
	// are found by their encoding at every 4-byte offset: an integer that
	// looks like a pointer only makes one more object shared, which costs
	// events, never findings.
	work := []int64{p}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		id := objOf(p)
		if id&dynBit == 0 || id == 0 {
			continue
		}
		o := x.object(id)
		if o == nil || o.shared {
			continue
		}
		o.shared = true
		x.published(id, o)
		for off := 0; off+8 <= len(o.data); off += 4 {
			if q := load(o.data[off:], 8, false); objOf(q)&dynBit != 0 {
				work = append(work, q)
			}
		}
	}
}

// alloc creates a dynamic object of size bytes owned by th; name names
// frame variables in messages. A negative size is the program's error; the
// interpreter's own limits (threads and allocations it can number, object
// and heap sizes) end the execution as bounded: the exploration is then
// incomplete, and the program is not blamed.
func (x *execution) alloc(th *thread, size int64, kind objKind, name string) int64 {
	th.effects++
	switch {
	case size < 0:
		x.fail(th, program.RuntimeError, "allocation of %d bytes", size)
		return 0
	case int(th.id) >= maxDynThreads:
		x.fail(th, program.Bounded, "thread limit (%d) reached: thread T%s cannot allocate memory", maxDynThreads, shortName(th.name))
		return 0
	case th.nallocs >= maxDynPerThr:
		x.fail(th, program.Bounded, "allocation limit (%d per thread) reached in thread T%s", maxDynPerThr, shortName(th.name))
		return 0
	case size > maxObject:
		x.fail(th, program.Bounded, "object size limit (%d bytes) reached: allocation of %d bytes", maxObject, size)
		return 0
	case x.heapBytes+size > maxHeap:
		x.fail(th, program.Bounded, "heap limit (%d bytes live in one execution) reached: allocation of %d bytes", maxHeap, size)
		return 0
	}
	x.heapBytes += size
	o := x.newObject(size)
	o.kind, o.shared, o.name = kind, kind == kHeap, name
	if cap(x.dyn[th.id]) == 0 {
		x.dyn[th.id] = x.dynList()
	}
	x.dyn[th.id] = append(x.dyn[th.id], o)
	id := uint32(dynBit | int(th.id)<<dynThreadShift | th.nallocs)
	th.nallocs++
	return mkPtr(id, 0)
}

// newObject returns a zeroed object with size bytes of zeroed data. Small
// objects and their data come from blocks the execution allocates a few
// at a time (every call's frame variables are objects: allocating each on
// its own was a tenth of ReadsFrom-SMC's allocations, issue 17); an
// object's data never grows, so blocks are never reallocated.
func (x *execution) newObject(size int64) *object {
	if len(x.objSlab) == cap(x.objSlab) {
		x.objSlab = make([]object, 0, 8)
	}
	x.objSlab = x.objSlab[:len(x.objSlab)+1]
	o := &x.objSlab[len(x.objSlab)-1]
	const small, block = 64, 512
	if size > small {
		o.data = make([]byte, size)
		return o
	}
	if int64(cap(x.byteSlab)-len(x.byteSlab)) < size {
		x.byteSlab = make([]byte, 0, block)
	}
	n := len(x.byteSlab)
	x.byteSlab = x.byteSlab[:n+int(size)]
	o.data = x.byteSlab[n : n+int(size) : n+int(size)]
	return o
}

// release frees a heap block or a dead frame variable and credits its bytes
// against the heap limit; later accesses through pointers to it are errors.
func (x *execution) release(o *object) {
	if o.freed {
		return
	}
	o.freed = true
	x.heapBytes -= int64(len(o.data))
	o.data = nil
}

// releaseFrame frees the frame variables of f.
func (x *execution) releaseFrame(f *frame) {
	if f.frameObj == 0 {
		return
	}
	base := objOf(f.frameObj)
	for i := range f.fn.frameVars {
		if o := x.object(base + uint32(i)); o != nil {
			x.release(o)
		}
	}
}

// shortName abbreviates a fork-tree thread name for one-line messages: a
// chain of 2,000 threads each creating the next has a 4,000-byte name.
func shortName(name string) string {
	if len(name) <= 40 {
		return name
	}
	return fmt.Sprintf("%s...%s (depth %d)", name[:16], name[len(name)-16:], strings.Count(name, "."))
}

// call pushes a frame for fn on th with the given argument values; retPC -1
// marks the thread's bottom frame.
func (x *execution) call(th *thread, fn *function, args []int64, retPC int32) {
	if len(th.frames) >= maxCallDepth {
		x.fail(th, program.RuntimeError, "call depth exceeds %d (unbounded recursion?)", maxCallDepth)
		return
	}
	base := int32(len(th.slots))
	// A thread's first call: room for its usual operand stack and frames
	// at once, instead of growing them an element at a time (cap 0 means
	// len 0: nothing is lost).
	if cap(th.stack) == 0 {
		th.stack = make([]int64, 0, 16)
	}
	if cap(th.frames) == 0 {
		th.frames = make([]frame, 0, 4)
	}
	th.slots = slices.Grow(th.slots, fn.nslots)
	for i := 0; i < fn.nslots; i++ {
		var v int64
		if i < len(args) {
			v = args[i]
		}
		th.slots = append(th.slots, v)
	}
	if x.sym != nil {
		x.symCall(th, base, fn.nslots)
	}
	f := frame{fn: fn, retPC: retPC, slotBase: base, stackLen: int32(len(th.stack))}
	for i, v := range fn.frameVars {
		p := x.alloc(th, v.size, kStack, v.name)
		if p != 0 {
			x.object(objOf(p)).typ = v.typ
		}
		if p == 0 {
			if x.outcome.Pos.Line == 0 {
				x.outcome.Pos = fn.pos // a thread's first call has no caller
			}
			return
		}
		if i == 0 {
			f.frameObj = p
		}
	}
	for _, pc := range fn.params {
		o := x.object(objOf(f.frameObj) + uint32(pc.v))
		store(o.data, pc.w, th.slots[base+int32(pc.slot)])
		if x.sym != nil {
			x.symParam(th, o, pc.w, base+int32(pc.slot))
		}
	}
	th.frames = append(th.frames, f)
	th.pc = fn.entry
}

// ret pops the top frame of th; at the bottom frame the thread's End becomes pending.
func (x *execution) ret(th *thread, v int64) {
	f := th.frames[len(th.frames)-1]
	th.frames = th.frames[:len(th.frames)-1]
	th.slots = th.slots[:f.slotBase]
	th.stack = th.stack[:f.stackLen]
	// the frame is dead: later accesses through escaped pointers are errors
	x.releaseFrame(&f)
	if f.retPC < 0 || len(th.frames) == 0 {
		if x.runDestructors(th, f.fn, v) {
			return // the key destructors run first (tsd.go)
		}
		if f.fn.exitHook {
			v = th.dtors.ret
		}
		// The thread ends. Main returning ends only the main thread; the
		// others go on (as in Nidhugg), so "main does not join" works.
		th.ret = v
		th.ending = true
		x.stop(th, program.End, 0, 0, 0)
		return
	}
	th.pc = f.retPC
	if !f.fn.void {
		th.stack = append(th.stack, v)
	}
	if x.sym != nil {
		x.symReturn(th, !f.fn.void, f.stackLen)
	}
}

func (x *execution) pop(th *thread) int64 {
	v := th.stack[len(th.stack)-1]
	th.stack = th.stack[:len(th.stack)-1]
	return v
}

// cut stops th at a bound: th never runs again, the others go on, so that
// what they do is still seen. The execution ends as bounded, saying why.
// th is stuck, not finished: the real thread would go on, so a join of it
// must wait (a finished thread would let its joiner reach code the program
// may never reach, and report a finding that is not real).
func (x *execution) cut(th *thread, why string) {
	th.stuck = true
	if x.bounded == nil {
		x.bounded = &program.Outcome{Kind: program.Bounded, Thread: th.id, Pos: x.pos(th), Message: why}
	}
}

// cancelled reports whether the run is cancelled (Program.StopWhen); if so
// the execution is over, bounded. Callers poll it every so many steps.
func (x *execution) cancelled(th *thread) bool {
	select {
	case <-x.cancel: // a nil channel never fires
	default:
		return false
	}
	x.over = true
	x.outcome = program.Outcome{Kind: program.Bounded, Thread: th.id, Pos: x.pos(th),
		Message: "the run was stopped (timeout or interrupt) during this execution"}
	return true
}

// stop makes the instruction at th.pc th's pending event.
func (x *execution) stop(th *thread, kind program.Kind, flags program.Flags, loc program.Loc, val int64) {
	if th.nevents >= int32(x.p.maxEvents) {
		x.cut(th, fmt.Sprintf("thread T%s reached the event bound (%d)", th.name, x.p.maxEvents))
		return
	}
	th.pend = program.Event{Thread: th.id, Index: th.nevents, Kind: kind, Flags: flags, Loc: loc, Value: val, Pos: x.pos(th)}
}
