package cfront

import (
	"modernc.org/cc/v4"
)

// This file models POSIX condition variables with the events every
// explorer already knows: reads, read-modify-writes, locks and a blocking
// await. A condition variable's first four bytes count its signals:
//
//	pthread_cond_wait(c, m):  s = atomic load *c; unlock(m);
//	                          await(atomic load *c != s); lock(m)
//	pthread_cond_signal(c),
//	pthread_cond_broadcast(c): atomic *c += 1
//
// A signal wakes every waiter: POSIX lets pthread_cond_signal unblock "at
// least one" thread, so this adds no behaviour POSIX forbids, and a waiter
// that a real signal would wake is woken. The count is read while the
// mutex is held, so a signal between the unlock and the await is not lost;
// a signal before the wait is (a lost wake-up).
//
// The await is a read: if it sees the count unchanged, its thread stops
// there (stuck, like a failed __VERIFIER_assume, issue 12) and the others
// run on. At the end of the execution a thread stuck at an await whose
// count is still unchanged waits forever: with nothing else to run that is
// a deadlock (a lost wake-up). If the count changed after the await read
// it, the waiter would have been woken: the execution is blocked (not
// maximal), and the explorers find the order in which the await reads the
// signal, because the await's read and the signal's write are both in the
// trace.
//
// Spurious wake-ups (Options.SpuriousWakeups, --spurious-wakeups) make a
// wait an unlock followed by a lock: every POSIX behaviour, including a
// waiter that wakes with no signal at all. They are off by default because
// the usual `while (!ready) pthread_cond_wait(...)` loop then spins: every
// iteration is an execution of its own, up to the event bound.

// condWait compiles pthread_cond_wait(as[0], as[1]).
func (c *compiler) condWait(x *cc.PostfixExpression, as []cc.ExpressionNode) {
	c.needArgs(x, "pthread_cond_wait", as, 2)
	pos := toPos(x)
	cv, mu, seq := c.newTemp(), c.newTemp(), c.newTemp()
	c.expr(as[0])
	c.emit(instr{op: opSetLocal, a: int32(cv)})
	c.expr(as[1])
	c.emit(instr{op: opSetLocal, a: int32(mu)})
	if !c.spurious {
		c.emit(instr{op: opGetLocal, a: int32(cv)})
		c.emit(instr{op: opBuiltin, a: bAtomicLoad, k: 1, w: 4, pos: pos})
		c.emit(instr{op: opSetLocal, a: int32(seq)})
	}
	c.emit(instr{op: opGetLocal, a: int32(mu)})
	c.emit(instr{op: opBuiltin, a: bUnlock, k: 1, pos: pos})
	c.emit(instr{op: opPop})
	if !c.spurious {
		c.emit(instr{op: opGetLocal, a: int32(cv)})
		c.emit(instr{op: opGetLocal, a: int32(seq)})
		c.emit(instr{op: opBuiltin, a: bCondAwait, k: 2, w: 4, pos: pos})
		c.emit(instr{op: opPop})
	}
	c.emit(instr{op: opGetLocal, a: int32(mu)})
	c.emit(instr{op: opBuiltin, a: bLock, k: 1, pos: pos})
}

// condSignal compiles pthread_cond_signal and pthread_cond_broadcast.
func (c *compiler) condSignal(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) {
	c.needArgs(x, name, as, 1)
	c.expr(as[0])
	c.emit(instr{op: opPush, k: 1})
	c.emit(instr{op: opBuiltin, a: bFetchAdd, k: 2, w: 4, pos: toPos(x)})
	c.emit(instr{op: opPop})
	c.emit(instr{op: opPush})
}

// condInit compiles pthread_cond_init: the count starts at 0 (a dynamic
// condition variable's memory is indeterminate before).
func (c *compiler) condInit(x *cc.PostfixExpression, as []cc.ExpressionNode) {
	c.needArgs(x, "pthread_cond_init", as, 1)
	c.expr(as[0])
	for _, a := range as[1:] {
		c.expr(a)
		c.emit(instr{op: opPop})
	}
	c.emit(instr{op: opPush})
	c.emit(instr{op: opBuiltin, a: bAtomicStore, k: 2, w: 4, pos: toPos(x)})
}
