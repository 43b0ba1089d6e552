package cfront

import (
	"modernc.org/cc/v4"
)

// This file models POSIX barriers (pthread_barrier_init/wait/destroy,
// POSIX.1-2017 XSH "pthread_barrier_wait"): "the calling thread shall block
// until the required number of threads have called pthread_barrier_wait()
// specifying the barrier"; then one of them gets
// PTHREAD_BARRIER_SERIAL_THREAD, the others 0, and the barrier is reset for
// the next round. The pthread_barrier_t holds three 4-byte words: the
// threads arrived in this round (offset 0), the round's generation (4) and
// the count given to pthread_barrier_init (8). All accesses are atomic:
//
//	wait: g = load(gen); a = ++arrived
//	      if a == load(count): arrived = 0; gen++; return SERIAL (-1)
//	      else: await(gen != g); return 0
//
// A thread reads the generation before it arrives, and the round's last
// thread advances it only after every thread's increment, so every waiter
// of a round reads that round's generation; the last thread resets the
// count before advancing the generation, so no waiter of the next round
// can arrive before the reset. Each waiter's arrival is read (through the
// chain of increments) by the last thread, whose generation increment is
// read by each waiter's await: every access before the barrier precedes
// every access after it in all threads, and an access in the wrong round
// races or fails as it would on a real barrier. Too few arriving threads
// leave the waiters stuck at their awaits: a deadlock.

// serialThread is PTHREAD_BARRIER_SERIAL_THREAD (glibc's value, -1).
const serialThread = -1

// einval is the EINVAL error number: a barrier count of 0.
const einval = 22

// barrierCall compiles a pthread_barrier_ call; false if name is none.
func (c *compiler) barrierCall(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) bool {
	pos := toPos(x)
	switch name {
	case "pthread_barrier_init":
		b, n := c.syncObj(x, name, as, 3), c.newTemp()
		c.expr(as[1])
		c.emit(instr{op: opPop})
		c.exprTo(as[2], c.ast.UInt)
		c.set(n)
		c.get(n)
		bad := c.emit(instr{op: opJz})
		c.word(b, 8)
		c.get(n)
		c.syncOp(bAtomicStore, 2, pos)
		c.emit(instr{op: opPop})
		for _, off := range []int64{0, 4} {
			c.word(b, off)
			c.push(0)
			c.syncOp(bAtomicStore, 2, pos)
			c.emit(instr{op: opPop})
		}
		c.push(0)
		done := c.emit(instr{op: opJmp})
		c.patch(bad)
		c.push(einval)
		c.patch(done)
	case "pthread_barrier_wait":
		b, g := c.syncObj(x, name, as, 1), c.newTemp()
		c.word(b, 4)
		c.syncOp(bAtomicLoad, 1, pos)
		c.set(g)
		c.word(b, 0)
		c.push(1)
		c.syncOp(bAddFetch, 2, pos)
		c.word(b, 8)
		c.syncOp(bAtomicLoad, 1, pos)
		c.emit(instr{op: opEq})
		wait := c.emit(instr{op: opJz})
		c.word(b, 0)
		c.push(0)
		c.syncOp(bAtomicStore, 2, pos)
		c.emit(instr{op: opPop})
		c.word(b, 4)
		c.push(1)
		c.syncOp(bFetchAdd, 2, pos)
		c.emit(instr{op: opPop})
		c.push(serialThread)
		done := c.emit(instr{op: opJmp})
		c.patch(wait)
		c.word(b, 4)
		c.get(g)
		c.syncOp(bBarrierAwait, 2, pos)
		c.emit(instr{op: opPop})
		c.push(0)
		c.patch(done)
	default:
		return false
	}
	return true
}
