package cfront

import "modernc.org/cc/v4"

// This file models pthread_once (POSIX): the first caller runs the
// routine; every other caller returns only after it has returned. The
// pthread_once_t word (PTHREAD_ONCE_INIT, 0) goes 0 -> 1 when a caller
// claims the routine (a compare-and-swap) and 1 -> onceDone after the
// routine returns (an atomic store); a caller that loses the CAS awaits
// onceDone (await.go). A routine that never returns leaves the others
// waiting: a deadlock once nothing else can run.
//
//	if (CAS(once, 0, 1) == 0) { routine(); store(once, onceDone) }
//	else await(once == onceDone)
//	return 0

// onceDone is the word's value after the routine has returned.
const onceDone = 2

// once compiles pthread_once(as[0], as[1]).
func (c *compiler) once(x *cc.PostfixExpression, as []cc.ExpressionNode) {
	pos := toPos(x)
	t := c.syncObj(x, "pthread_once", as, 2)
	c.word(t, 0)
	c.push(0)
	c.push(1)
	c.syncOp(bAtomicCAS, 3, pos)
	lost := c.emit(instr{op: opJnz})
	c.expr(as[1])
	c.emit(instr{op: opCallInd, k: 0, pos: pos})
	if ft := calleeType(as[1].Type()); ft != nil && ft.Result().Kind() != cc.Void {
		c.emit(instr{op: opPop})
	}
	c.word(t, 0)
	c.push(onceDone)
	c.syncOp(bAtomicStore, 2, pos) // its result, 0, is pthread_once's
	done := c.emit(instr{op: opJmp})
	c.patch(lost)
	c.word(t, 0)
	c.push(0)
	c.syncOp(bOnceAwait, 2, pos)
	c.emit(instr{op: opPop})
	c.push(0)
	c.patch(done)
}
