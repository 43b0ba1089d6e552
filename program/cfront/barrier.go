package cfront

import (
	"modernc.org/cc/v4"
)

// This file models POSIX barriers (pthread_barrier_init/wait/destroy,
// POSIX.1-2017 XSH "pthread_barrier_wait"): "the calling thread shall block
// until the required number of threads have called pthread_barrier_wait()
// specifying the barrier"; then one of them gets
// PTHREAD_BARRIER_SERIAL_THREAD, the others 0, and the barrier is reset for
// the next round.
//
// The barrier's state is one 4-byte word at the start of the
// pthread_barrier_t, so that a wait is two events, not five (every event is
// a scheduling point: the explorers' work grows with their number):
//
//	bits  0..9   arrived: the threads that arrived in this round
//	bits 10..19  count: pthread_barrier_init's count (1..1023)
//	bits 20..31  generation: the round, modulo 4096
//
//	init: word = count << 10
//	wait: old = fetch_add(word, 1)
//	      if arrived(old)+1 == count(old):
//	          word = count << 10 | (gen(old)+1) << 20; return SERIAL (-1)
//	      else: await(gen(word) != gen(old)); return 0
//
// The round's last thread resets the arrivals and starts the next round in
// one write, which every waiter's await reads: each waiter's arrival is
// read (through the chain of increments) by the last thread, so every
// access before the barrier precedes every access after it in all
// threads, and an access in the wrong round races or fails as on a real
// barrier. A waiter waits for one round only, so the generation's wrap
// after 4096 rounds is harmless. Too few arriving threads leave the
// waiters stuck at their awaits: a deadlock. A count of 0 is EINVAL, one
// above 1023 EAGAIN ("the system lacks the necessary resources").

const (
	barrierArrived = 1 << 10 // the arrived field's limit, and the count's unit
	barrierGen     = 1 << 20 // the generation's unit
	// serialThread is PTHREAD_BARRIER_SERIAL_THREAD (glibc's value, -1).
	serialThread = -1
	einval       = 22
	eagain       = 11
)

// barrierGeneration is the generation field of a barrier word.
func barrierGeneration(v int64) int64 { return int64(uint32(v) >> 20) }

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
		zero := c.emit(instr{op: opJz})
		c.get(n)
		c.push(barrierArrived)
		c.emit(instr{op: opLt})
		big := c.emit(instr{op: opJz})
		c.word(b, 0)
		c.get(n)
		c.push(10)
		c.emit(instr{op: opShl})
		c.syncOp(bAtomicStore, 2, pos)
		done := c.emit(instr{op: opJmp})
		c.patch(zero)
		c.push(einval)
		done2 := c.emit(instr{op: opJmp})
		c.patch(big)
		c.push(eagain)
		c.patch(done)
		c.patch(done2)
	case "pthread_barrier_wait":
		b, old := c.syncObj(x, name, as, 1), c.newTemp()
		c.word(b, 0)
		c.push(1)
		c.syncOp(bFetchAdd, 2, pos)
		c.set(old)
		c.field(old, 0, barrierArrived-1)
		c.push(1)
		c.emit(instr{op: opAdd})
		c.field(old, 10, barrierArrived-1)
		c.emit(instr{op: opEq})
		wait := c.emit(instr{op: opJz})
		c.word(b, 0) // the next round: no arrivals, same count, next generation
		c.field(old, 20, 0)
		c.push(1)
		c.emit(instr{op: opAdd})
		c.push(20)
		c.emit(instr{op: opShl})
		c.get(old)
		c.push(barrierGen - barrierArrived)
		c.emit(instr{op: opAnd})
		c.emit(instr{op: opOr})
		c.syncOp(bAtomicStore, 2, pos)
		c.emit(instr{op: opPop})
		c.push(serialThread)
		done := c.emit(instr{op: opJmp})
		c.patch(wait)
		c.word(b, 0)
		c.field(old, 20, 0)
		c.syncOp(bBarrierAwait, 2, pos)
		c.emit(instr{op: opPop})
		c.push(0)
		c.patch(done)
	default:
		return false
	}
	return true
}

// field pushes (t >> shift) & mask of the 32-bit word in temporary t (mask
// 0: no mask).
func (c *compiler) field(t int, shift, mask int64) {
	c.get(t)
	c.push(0xffffffff)
	c.emit(instr{op: opAnd})
	if shift != 0 {
		c.push(shift)
		c.emit(instr{op: opShr})
	}
	if mask != 0 {
		c.push(mask)
		c.emit(instr{op: opAnd})
	}
}
