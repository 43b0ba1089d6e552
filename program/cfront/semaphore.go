package cfront

import (
	"modernc.org/cc/v4"
)

// This file models POSIX unnamed semaphores (<semaphore.h>: sem_init,
// sem_wait, sem_trywait, sem_post, sem_getvalue, sem_destroy; POSIX.1-2017
// XSH "sem_wait", "sem_post") with atomic accesses of the semaphore's value,
// a 4-byte word at the start of the sem_t:
//
//	sem_init(s, pshared, v): value = v
//	sem_post:    value++ (one read-modify-write)
//	sem_wait:    do { v = await(value != 0) } while (!CAS(value, v, v-1))
//	sem_trywait: do { v = load(value); if (v == 0) return -1 } while (!CAS(value, v, v-1))
//
// "If the semaphore value is currently zero, then the calling thread shall
// not return from the call to sem_wait() until it either locks the
// semaphore or the call is interrupted by a signal" (signals are not
// modelled): the await stops the thread while the value is 0, and a post
// it missed makes the execution blocked, explored again with the await
// reading the post (await.go). Each operation takes effect at one atomic
// event (the post's increment, the wait's successful CAS), so waiters need
// no internal lock and sem_trywait fails exactly when it reads 0. A post's
// increment read by a waiter's await and CAS orders the poster's earlier
// accesses before the waiter's later ones, as POSIX's memory
// synchronisation (XBD 4.12) requires. errno is not modelled: a failed
// sem_trywait returns -1 and leaves errno alone. pshared is ignored (one
// process).

// semCall compiles a sem_ call; false if name is none.
func (c *compiler) semCall(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) bool {
	pos := toPos(x)
	switch name {
	case "sem_init":
		s := c.syncObj(x, name, as, 3)
		c.expr(as[1])
		c.emit(instr{op: opPop})
		c.word(s, 0)
		c.exprTo(as[2], c.ast.UInt)
		c.syncOp(bAtomicStore, 2, pos)
	case "sem_post":
		s := c.syncObj(x, name, as, 1)
		c.word(s, 0)
		c.push(1)
		c.syncOp(bFetchAdd, 2, pos)
		c.emit(instr{op: opPop})
		c.push(0)
	case "sem_getvalue":
		s := c.syncObj(x, name, as, 2)
		c.expr(as[1])
		c.word(s, 0)
		c.syncOp(bAtomicLoad, 1, pos)
		c.emit(instr{op: opStore, w: 4, flag: fSigned, pos: pos})
		c.push(0)
	case "sem_wait":
		c.casLoop(c.syncObj(x, name, as, 1), bSemAwait, nil, -1, 0, pos)
	case "sem_trywait":
		zero := func() { c.emit(instr{op: opLNot}) }
		c.casLoop(c.syncObj(x, name, as, 1), 0, zero, -1, -1, pos)
	default:
		return false
	}
	return true
}
