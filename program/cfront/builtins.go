package cfront

import (
	"fmt"
	"math"

	"mcr/program"
)

// This file implements the builtins: the pthread, atomic, assertion and
// allocation operations the compiler maps calls to. Every builtin pops its
// k arguments and pushes exactly one result (0 for void ones).

const ebusy = 16

// builtin runs the local part of the builtin at th.pc. It returns true when
// th must stop: an event is pending, or the thread or execution ended.
func (x *execution) builtin(th *thread, in *instr) bool {
	st := th.stack
	n := len(st)
	args := st[n-int(in.k):]
	result := func(v int64) bool {
		th.stack = append(st[:n-int(in.k)], v)
		return false
	}
	atomic := program.Atomic
	switch in.a {
	case bAssertFail:
		x.fail(th, program.AssertionFailure, "assertion `%s` failed", x.cString(args[0]))
		return true
	case bVerifierAssert:
		if args[0] == 0 {
			if in.w == 1 {
				x.fail(th, program.AssertionFailure, "%s", x.p.strs[args[1]])
			} else {
				x.fail(th, program.AssertionFailure, "%s failed", x.p.strs[args[1]])
			}
			return true
		}
		return result(0)
	case bAssume:
		if args[0] == 0 {
			// Only this thread stops (Stuck); the others run on, so that the
			// writes it waited for are executed and become sources of the
			// alternatives that let the assumption pass (issue 12).
			th.stuck = true
			if x.blocked == nil {
				msg := fmt.Sprintf("__VERIFIER_assume failed in thread T%s", th.name)
				if in.w == 2 {
					msg = fmt.Sprintf("thread T%s waits in the spin loop at line %d", th.name, in.pos.Line)
				}
				x.blocked = &program.Outcome{Kind: program.Blocked, Thread: th.id, Pos: in.pos, Message: msg}
			}
			return true
		}
		return result(0)
	case bLock, bTryLock:
		if errno := x.mutexError(th, args[0], true); errno != 0 {
			return result(errno)
		}
		var f program.Flags
		if in.a == bTryLock {
			f = program.Try
		}
		x.stop(th, program.Acquire, f, program.Loc(args[0]), 0)
		return true
	case bUnlock:
		if errno := x.mutexError(th, args[0], false); errno != 0 {
			return result(errno)
		}
		x.stop(th, program.Release, 0, program.Loc(args[0]), 0)
		return true
	case bMutexAttrSetType:
		if !x.setMutexAttrType(th, args[0], args[1]) {
			if x.over || th.stuck {
				return true
			}
			return result(einval)
		}
		return result(0)
	case bMutexInitType:
		x.initMutex(args[0], args[1])
		return result(0)
	case bMutexInit, bNop:
		return result(0)
	case bRwWriter:
		return result(th.noteWriter(args[0], args[1] != 0))
	case bCreate:
		fp := args[0]
		id := objOf(fp)
		if fn := x.funcOf(id); fp == 0 || fn == nil || !fn.defined {
			x.fail(th, program.RuntimeError, "pthread_create with an invalid start routine")
			return true
		}
		if fn := x.funcOf(id); fn.sret {
			// its hidden result pointer would be the thread's argument
			x.fail(th, program.RuntimeError, "pthread_create with start routine %s, which returns a struct or union", fn.name)
			return true
		}
		if x.nthreads >= x.p.maxThreads {
			// the new thread is frozen (threadbound.go)
			id, ok := x.frozenCreate(th, st[n-3])
			if !ok {
				return true
			}
			return result(id)
		}
		child := x.p.child(th.id, th.name, th.nforks)
		x.stop(th, program.Fork, 0, 0, int64(child))
		return true
	case bJoin:
		t := args[0]
		if x.joinFrozen(th, t) {
			return true
		}
		if t < 0 || int(t) >= len(x.threads) || x.threads[t] == nil {
			x.fail(th, program.RuntimeError, "pthread_join of an unknown thread %d", t)
			return true
		}
		if t == int64(th.id) {
			x.fail(th, program.RuntimeError, "thread T%s joins itself", th.name)
			return true
		}
		x.stop(th, program.Join, 0, 0, t)
		return true
	case bExit:
		v := args[0]
		th.dtors.exited = true // pthread_exit, in main too, runs key destructors (tsd.go)
		for i := len(th.frames) - 1; i > 0; i-- {
			x.releaseFrame(&th.frames[i])
		}
		th.frames = th.frames[:1]
		x.ret(th, v)
		if th.dtors.running && !th.ending && !th.stuck && !x.over {
			th.pc-- // the key destructors run first (tsd.go): run steps to the hook's entry
			return false
		}
		return true
	case bSelf:
		return result(int64(th.id))
	case bAtomicLoad, bAtomicStore, bAtomicCAS, bAtomicXchg, bFetchAdd, bFetchSub, bFetchAnd, bFetchOr, bFetchXor, bFetchNand,
		bAddFetch, bSubFetch, bAndFetch, bOrFetch, bXorFetch:
		o, _ := x.resolve(th, args[0], int(in.w))
		if o == nil {
			return true
		}
		kind, flags, val := program.Read, atomic|program.RMW, int64(0)
		switch in.a {
		case bAtomicLoad:
			flags = atomic
		case bAtomicStore:
			kind, flags, val = program.Write, atomic, conv(args[1], in.w, in.flag&fSigned != 0)
		case bAtomicCAS:
			flags = atomic | program.CAS
		}
		if !o.shared {
			return x.firePrivate(th, in, program.Event{Kind: kind, Flags: flags, Loc: program.Loc(args[0]), Value: val})
		}
		x.stop(th, kind, flags, program.Loc(args[0]), val)
		if in.a == bAtomicCAS {
			th.pend.Arg = conv(args[1], in.w, in.flag&fSigned != 0) // what the CAS expects
		}
		return true
	case bFence:
		x.stop(th, program.Fence, 0, 0, 0)
		return true
	case bNondet:
		v, t := x.nondet(th, in)
		result(v)
		th.symSync()
		th.sstack[len(th.sstack)-1] = t
		return false
	case bInput:
		x.noteUnmodelled(fmt.Sprintf("%s at line %d is an input; it was read as a fixed value (1000000000), other values not explored", x.p.strs[args[0]], in.pos.Line))
		return result(1_000_000_000)
	case bCondAwait, bBarrierAwait, bRdAwait, bWrAwait, bSemAwait, bOnceAwait:
		o, _ := x.resolve(th, args[0], 4)
		if o == nil {
			return true
		}
		if !o.shared { // a private object: no other thread can change it
			return x.firePrivate(th, in, program.Event{Kind: program.Read, Flags: program.Atomic, Loc: program.Loc(args[0])})
		}
		x.stop(th, program.Read, program.Atomic, program.Loc(args[0]), 0)
		return true
	case bMalloc, bCalloc:
		size := args[0]
		if in.a == bCalloc {
			n, m := args[0], args[1]
			switch {
			case n < 0 || m < 0:
				size = min(n, m)
			case m != 0 && n > math.MaxInt64/m:
				size = math.MaxInt64 // beyond every limit, not a wrapped small size
			default:
				size = n * m
			}
		}
		p := x.alloc(th, size, kHeap, "")
		if p == 0 {
			return true
		}
		if in.a == bMalloc && size > 0 {
			x.object(objOf(p)).undefine(0, int(size))
		}
		return result(p)
	case bDtorNext:
		return result(th.nextDestructor())
	case bDtorCall:
		th.dtors.called = true
		return result(th.dtors.arg)
	case bGetSpecific:
		return result(th.specific[args[0]])
	case bSetSpecific:
		if th.specific == nil {
			th.specific = map[int64]int64{}
		}
		th.specific[args[0]] = args[1]
		return result(0)
	case bAllocVLA:
		p := x.alloc(th, args[0], kStack, x.p.strs[args[1]])
		if p == 0 {
			return true
		}
		x.object(objOf(p)).undefine(0, int(args[0]))
		return result(p)
	case bFree:
		p := args[0]
		if p == 0 {
			return result(0)
		}
		id := objOf(p)
		o, _ := x.resolve(th, p, 0)
		if o == nil {
			return true
		}
		if o.kind != kHeap || offOf(p) != 0 {
			x.fail(th, program.RuntimeError, "free of %s, which is not the start of a heap block", x.objName(id, o))
			return true
		}
		x.release(o)
		return result(0)
	case bAtomicBegin:
		if th.atomicN > 0 {
			th.atomicN++
			return result(0)
		}
		x.stop(th, program.Acquire, 0, atomicLock, 0)
		return true
	case bAtomicEnd:
		if th.atomicN > 1 {
			th.atomicN--
			return result(0)
		}
		if th.atomicN == 0 {
			x.fail(th, program.RuntimeError, "__VERIFIER_atomic_end without __VERIFIER_atomic_begin")
			return true
		}
		x.stop(th, program.Release, 0, atomicLock, 0)
		return true
	case bExitProcess, bAbort:
		// The program ends here. Executed as the thread's last step of the
		// execution: the thread stops (Stuck, holding what it holds) and
		// the others run on until each ends, waits or stops too; the
		// execution then ends normally. Any run of the others is a run in
		// which the exit was merely late, so the violations and races seen
		// are real, and an execution that ends at the exit at once is a
		// prefix of one explored. Ending the execution here instead hid
		// the other threads' writes from the explorers (rf and mcr-seeds
		// missed violations behind an early exit) and made abort() in a
		// __VERIFIER_atomic_ function (SV-COMP's way to write "assume")
		// look like a deadlock of the threads waiting for its lock.
		th.stuck = true
		if x.exited == nil {
			call := "abort()"
			if in.a == bExitProcess {
				call = fmt.Sprintf("exit(%d)", int32(args[0]))
			}
			x.exited = &program.Outcome{Kind: program.Normal, Thread: th.id, Pos: in.pos,
				Message: fmt.Sprintf("%s called in thread T%s", call, shortName(th.name))}
		}
		return true
	}
	x.fail(th, program.RuntimeError, "internal error: unknown builtin %d", in.a)
	return true
}

// firePrivate executes the builtin at th.pc on a private object at once:
// the operation is local, not an event. It reports whether th stopped
// there (a condition wait on a private variable waits forever).
func (x *execution) firePrivate(th *thread, in *instr, e program.Event) bool {
	th.pend = e
	x.silent = true
	x.fireBuiltin(th, in)
	x.silent = false
	return th.stuck
}

// fireBuiltin executes the event of the builtin at th.pc.
func (x *execution) fireBuiltin(th *thread, in *instr) {
	st := th.stack
	n := len(st)
	args := st[n-int(in.k):]
	e := th.pend
	push := func(v int64) { th.stack = append(st[:n-int(in.k)], v) }
	switch in.a {
	case bCondAwait, bBarrierAwait, bRdAwait, bWrAwait, bSemAwait, bOnceAwait:
		x.fireAwait(th, in, args, push)
	case bLock, bTryLock, bAtomicBegin:
		if _, held := x.locks[e.Loc]; held {
			x.emit(th, program.LockFail, 0, e.Loc, 0, e.Pos)
			push(ebusy)
			return
		}
		x.locks[e.Loc] = th.id
		x.emit(th, program.Acquire, e.Flags, e.Loc, 0, e.Pos) // Try for a trylock
		if in.a == bAtomicBegin {
			th.atomicN = 1
		}
		push(0)
	case bUnlock, bAtomicEnd:
		if h, held := x.locks[e.Loc]; !held || h != th.id {
			x.fail(th, program.RuntimeError, "unlock of %s, which thread T%s does not hold", x.p.LocName(e.Loc), th.name)
			return
		}
		delete(x.locks, e.Loc)
		th.atomicN = 0
		x.emit(th, program.Release, 0, e.Loc, 0, e.Pos)
		push(0)
	case bCreate:
		fn := x.funcOf(objOf(args[0]))
		x.emit(th, program.Fork, 0, 0, e.Value, e.Pos)
		th.nforks++
		child := newThread(program.ThreadID(e.Value), x.p.threadName(program.ThreadID(e.Value)))
		x.addThread(child)
		x.escape(args[1])
		x.call(child, fn, []int64{args[1]}, -1)
		child.pend = program.Event{Thread: child.id, Kind: program.Begin, Pos: fn.pos}
		push(e.Value)
	case bJoin:
		x.emit(th, program.Join, 0, 0, e.Value, e.Pos)
		push(x.threads[e.Value].ret)
	case bFence:
		x.emit(th, program.Fence, 0, 0, 0, e.Pos)
		push(0)
	default:
		x.fireAtomic(th, in, args, e, push)
	}
}

// fireAtomic executes the pending atomic memory operation of th (load,
// store, compare-exchange, read-modify-write) on args[0].
func (x *execution) fireAtomic(th *thread, in *instr, args []int64, e program.Event, push func(int64)) {
	o, off := x.resolve(th, args[0], int(in.w))
	if o == nil {
		return // freed since the event became pending: reported by resolve
	}
	signed := in.flag&fSigned != 0
	if x.sym != nil {
		x.touch(th, o, off, int(in.w), e.Pos, "atomic access to a symbolic value")
	}
	if in.a != bAtomicStore {
		x.readObj(o, off, int(in.w), e.Pos)
	}
	if in.a != bAtomicLoad {
		o.writeObj(off, int(in.w)) // a failed CAS writes nothing, but its read was checked
	}
	switch in.a {
	case bAtomicLoad:
		v := load(o.data[off:], in.w, signed)
		if len(th.buf) > 0 && in.w <= 8 {
			v, _ = th.forward(o, off, in.w, signed)
		}
		x.emit(th, program.Read, e.Flags, e.Loc, v, e.Pos)
		push(v)
	case bAtomicStore:
		x.emit(th, program.Write, e.Flags, e.Loc, e.Value, e.Pos)
		x.put(th, o, off, in.w, e.Value)
		if in.flag&fPtr != 0 {
			x.escape(e.Value)
		}
		push(0)
	case bAtomicCAS:
		old := load(o.data[off:], in.w, signed)
		exp, des := conv(args[1], in.w, signed), conv(args[2], in.w, signed)
		x.arg = exp
		if old == exp {
			x.emit(th, program.Read, e.Flags|program.RMW, e.Loc, old, e.Pos)
			store(o.data[off:], in.w, des)
			x.emit(th, program.Write, program.Atomic|program.RMWWrite, e.Loc, des, e.Pos)
			x.flushNow(th)
		} else {
			x.emit(th, program.Read, e.Flags, e.Loc, old, e.Pos)
		}
		x.arg = 0
		push(old)
	default: // read-modify-writes
		old := load(o.data[off:], in.w, signed)
		v := args[1]
		var nv int64
		switch in.a {
		case bAtomicXchg:
			nv = v
		case bFetchAdd, bAddFetch:
			nv = old + v
		case bFetchSub, bSubFetch:
			nv = old - v
		case bFetchAnd, bAndFetch:
			nv = old & v
		case bFetchOr, bOrFetch:
			nv = old | v
		case bFetchXor, bXorFetch:
			nv = old ^ v
		case bFetchNand:
			nv = ^(old & v)
		}
		nv = conv(nv, in.w, signed)
		x.emit(th, program.Read, e.Flags, e.Loc, old, e.Pos)
		store(o.data[off:], in.w, nv)
		x.emit(th, program.Write, program.Atomic|program.RMWWrite, e.Loc, nv, e.Pos)
		x.flushNow(th)
		switch in.a {
		case bAddFetch, bSubFetch, bAndFetch, bOrFetch, bXorFetch:
			push(nv)
		default:
			push(old)
		}
	}
}

// cString reads a NUL-terminated string at p (for assertion messages).
func (x *execution) cString(p int64) string {
	id := objOf(p)
	o := x.object(id)
	if id == 0 || id&dynBit != 0 || o == nil {
		return "?"
	}
	data, off := o.data, int(offOf(p))
	if off < 0 || off > len(data) {
		return "?"
	}
	b := data[off:]
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
