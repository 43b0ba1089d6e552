package cfront

import (
	"modernc.org/cc/v4"

	"mcr/program"
)

// This file holds the small emission helpers the synchronisation models
// (barrier.go, rwlock.go, semaphore.go) are written with: each model is a
// few lines of bytecode over 4-byte words of the object its pointer
// argument points to.

// syncObj evaluates the pointer argument as[0] of a synchronisation call
// into a new temporary, evaluates and drops the arguments from as[keep] on,
// and returns the temporary. The arguments before keep (but the first) are
// the caller's to evaluate.
func (c *compiler) syncObj(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, keep int) int {
	c.needArgs(x, name, as, keep)
	t := c.newTemp()
	c.expr(as[0])
	c.emit(instr{op: opSetLocal, a: int32(t)})
	for _, a := range as[keep:] {
		c.expr(a)
		c.emit(instr{op: opPop})
	}
	return t
}

// word pushes a pointer to byte off of the object temporary t points to.
func (c *compiler) word(t int, off int64) {
	c.emit(instr{op: opGetLocal, a: int32(t)})
	if off != 0 {
		c.emit(instr{op: opPush, k: off})
		c.emit(instr{op: opPtrAdd, k: 1})
	}
}

// syncOp emits builtin id over k stack values on a signed 4-byte word.
func (c *compiler) syncOp(id int32, k int, pos program.Pos) {
	c.emit(instr{op: opBuiltin, a: id, k: int64(k), w: 4, flag: fSigned, pos: pos})
}

// push emits a constant.
func (c *compiler) push(v int64) { c.emit(instr{op: opPush, k: v}) }

// get and set emit reads and writes of temporaries.
func (c *compiler) get(t int) { c.emit(instr{op: opGetLocal, a: int32(t)}) }
func (c *compiler) set(t int) { c.emit(instr{op: opSetLocal, a: int32(t)}) }

// jumpTo emits a jump (opJmp, opJz, opJnz) back to an earlier pc.
func (c *compiler) jumpTo(op opcode, pc int32) { c.emit(instr{op: op, a: pc}) }

// casLoop emits the acquire loop that a read lock and a semaphore wait
// share, on the word temporary t points to:
//
//	blocking (await is an await builtin):
//	    do { v = await(word) } while (!CAS(word, v, v+delta)); push 0
//	trying (await is 0):
//	    do { v = load(word); if (fails(v)) { push busy; break } }
//	    while (!CAS(word, v, v+delta)); push 0
//
// fails emits the failure test on the v it finds on the stack.
func (c *compiler) casLoop(t int, await int32, fails func(), delta, busy int64, pos program.Pos) {
	v := c.newTemp()
	failed := int32(-1)
	loop := c.pc()
	c.word(t, 0)
	if await != 0 {
		c.push(0)
		c.syncOp(await, 2, pos)
		c.set(v)
	} else {
		c.syncOp(bAtomicLoad, 1, pos)
		c.set(v)
		c.get(v)
		fails()
		failed = c.emit(instr{op: opJnz})
	}
	c.word(t, 0)
	c.get(v)
	c.get(v)
	c.push(delta)
	c.emit(instr{op: opAdd})
	c.syncOp(bAtomicCAS, 3, pos)
	c.get(v)
	c.emit(instr{op: opEq})
	c.jumpTo(opJz, loop)
	c.push(0)
	if failed >= 0 {
		done := c.emit(instr{op: opJmp})
		c.patch(failed)
		c.push(busy)
		c.patch(done)
	}
}
