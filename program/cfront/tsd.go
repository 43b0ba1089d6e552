package cfront

import (
	"modernc.org/cc/v4"

	"mcr/program"
)

// This file implements thread-specific data (pthread_key_create,
// pthread_key_delete, pthread_setspecific, pthread_getspecific; POSIX.1-2017
// XSH "pthread_key_create"). A thread's values are kept beside its
// registers: a value set by one thread is invisible to every other, so
// setting and getting are local steps, not events. A key is the next number
// of a hidden counter that pthread_key_create increments atomically (an
// event, so two threads creating keys get them in an order the explorers
// see).
//
// Destructors. A key's destructor is stored in a hidden table of function
// pointers indexed by key (an atomic store, so that creating, deleting and
// using a key from different threads are ordered by the explorers like any
// atomic accesses; pthread_key_delete stores null). At thread exit (the
// thread's function returning, or pthread_exit, in main too; not main
// returning, which is exit() in C and runs no destructors) the thread runs
// POSIX's procedure, as glibc does it:
//
//	for round := 0; round < PTHREAD_DESTRUCTOR_ITERATIONS (4); round++ {
//	    for each key k with a non-null value, in increasing order:
//	        v = value[k]; value[k] = null  (glibc clears every value)
//	        d = atomic load destructors[k]
//	        if d != null { d(v) }
//	    if no destructor was called in the round: stop
//	}
//
// A value set again by a destructor, for its own key or one already
// visited, is seen in the next round. The procedure is bytecode compiled
// once (exitHook) around two local builtins (bDtorNext, bDtorCall), so that
// the destructors run as ordinary calls of the thread, with their events.

// pthreadKeysMax is glibc's PTHREAD_KEYS_MAX: the destructor table's size.
// A program creating more keys fails with EAGAIN under glibc; here its
// table store is out of bounds.
const pthreadKeysMax = 1024

// destructorIterations is glibc's PTHREAD_DESTRUCTOR_ITERATIONS.
const destructorIterations = 4

// dtorState is a thread's progress through its key destructors at exit.
type dtorState struct {
	running bool  // the exit hook is running
	exited  bool  // the thread called pthread_exit (main runs destructors then)
	ret     int64 // the thread's result, kept while the destructors run
	arg     int64 // the value of the key visited last: its destructor's argument
	round   int
	last    int64 // the last key visited in the round
	called  bool  // a destructor was called in the round
}

// keyCreate compiles pthread_key_create(as[0], as[1]).
func (c *compiler) keyCreate(x *cc.PostfixExpression, as []cc.ExpressionNode) {
	c.needArgs(x, "pthread_key_create", as, 2)
	if c.keys < 0 {
		c.keys = c.addStatic(&static{name: "<pthread keys>", kind: kGlobal, typ: c.ast.Int, data: make([]byte, 4)})
	}
	pos := toPos(x)
	c.expr(as[0])
	c.emit(instr{op: opAddrObj, a: c.keys})
	c.push(1)
	c.emit(instr{op: opBuiltin, a: bFetchAdd, k: 2, w: 4, pos: pos})
	c.push(1)
	c.emit(instr{op: opAdd})
	if v, ok := constInt(as[1]); !ok || v != 0 {
		k := c.newTemp()
		c.set(k)
		c.dtorSlot(k, pos)
		c.expr(as[1])
		c.emit(instr{op: opBuiltin, a: bAtomicStore, k: 2, w: 8, pos: pos})
		c.emit(instr{op: opPop})
		c.get(k)
	}
	c.emit(instr{op: opStore, w: uint8(pointee(as[0].Type()).Size()), pos: pos})
	c.push(0)
}

// keyDelete compiles pthread_key_delete(as[0]): its destructor is not
// called any more.
func (c *compiler) keyDelete(x *cc.PostfixExpression, as []cc.ExpressionNode) {
	c.needArgs(x, "pthread_key_delete", as, 1)
	k := c.newTemp()
	c.exprTo(as[0], c.ast.Long)
	c.set(k)
	c.dtorSlot(k, toPos(x))
	c.push(0)
	c.emit(instr{op: opBuiltin, a: bAtomicStore, k: 2, w: 8, pos: toPos(x)})
}

// dtorSlot pushes the address of the destructor table's entry for the key
// in temporary k, creating the table and the exit hook on first use (at
// the call at pos, whose line the hook's events then show).
func (c *compiler) dtorSlot(k int, pos program.Pos) {
	if c.p.exitHook == nil {
		c.dtorTable = c.addStatic(&static{name: "<pthread key destructors>", kind: kGlobal, typ: c.ast.Long, data: make([]byte, 8*pthreadKeysMax)})
		c.p.exitHook = c.compileExitHook(c.dtorTable, pos)
	}
	c.emit(instr{op: opAddrObj, a: c.dtorTable})
	c.get(k)
	c.emit(instr{op: opPtrAdd, k: 8})
}

// compileExitHook compiles the thread-exit procedure over the destructor
// table (static id table); see the file comment. It is compiled aside:
// the current function's code continues after it. Its events have no
// place in the source but the first key call's, pos.
func (c *compiler) compileExitHook(table int32, pos program.Pos) *function {
	skip := c.emit(instr{op: opJmp})
	fn := &function{name: "<key destructors>", entry: c.pc(), defined: true, void: true, exitHook: true, nslots: 2}
	c.p.funcs = append(c.p.funcs, fn)
	const k, d = 0, 1
	get := func(s int32) { c.emit(instr{op: opGetLocal, a: s}) }
	set := func(s int32) { c.emit(instr{op: opSetLocal, a: s}) }
	loop := c.pc()
	c.emit(instr{op: opBuiltin, a: bDtorNext})
	c.emit(instr{op: opDup})
	done := c.emit(instr{op: opJz})
	set(k)
	c.emit(instr{op: opAddrObj, a: table})
	get(k)
	c.emit(instr{op: opPtrAdd, k: 8})
	c.emit(instr{op: opBuiltin, a: bAtomicLoad, k: 1, w: 8, pos: pos})
	c.emit(instr{op: opDup})
	set(d)
	c.jumpTo(opJz, loop)
	get(d)
	c.emit(instr{op: opBuiltin, a: bDtorCall})
	// a destructor that returns a value (cast to the destructor type)
	// leaves it on the stack; the hook's return drops it with the rest
	c.emit(instr{op: opCallInd, k: 1, pos: pos})
	c.jumpTo(opJmp, loop)
	c.patch(done)
	c.emit(instr{op: opRet})
	c.patch(skip)
	return fn
}

// runDestructors starts th's key destructors when th ends by returning
// from its bottom frame (function fn, result v): true if the exit hook
// now runs (th goes on there), false if th ends now.
func (x *execution) runDestructors(th *thread, fn *function, v int64) bool {
	hook := x.p.exitHook
	if hook == nil || fn.exitHook || len(th.specific) == 0 || (th.id == 0 && !th.dtors.exited) {
		return false // main returning is exit(): no destructors
	}
	th.dtors = dtorState{running: true, ret: v}
	x.call(th, hook, nil, -1) // on failure th is stuck or the execution over
	return true
}

// nextDestructor returns the next key with a non-null value in th's
// current round (increasing keys), clearing the value and keeping it as
// its destructor's argument, and starts the next round when the current
// one called a destructor; 0 when the procedure is over.
func (th *thread) nextDestructor() int64 {
	s := &th.dtors
	for {
		next := int64(0)
		for k, v := range th.specific {
			if v != 0 && k > s.last && (next == 0 || k < next) {
				next = k
			}
		}
		if next != 0 {
			s.last, s.arg = next, th.specific[next]
			delete(th.specific, next)
			return next
		}
		if !s.called || s.round+1 >= destructorIterations {
			return 0
		}
		s.round, s.last, s.called = s.round+1, 0, false
	}
}
