package cfront

import (
	"modernc.org/cc/v4"
)

// This file executes spin loops as awaits (issue 15), as Nidhugg's and
// GenMC's spin-assume transformations do. A loop qualifies when
//
//   - its body does nothing: empty, or only expression statements that
//     compile to no loads, stores or calls but no-op builtins (sched_yield,
//     printf with constant arguments, ...), and a for loop has no step;
//   - its condition only reads: loads, atomic loads, arithmetic and
//     comparisons, and assignments to register locals (`while ((v = x) ==
//     0);`), no stores to memory, no calls.
//
// It then runs as "evaluate the condition once; if it holds, the thread
// stops there" (an assumption that the condition is false: a stuck thread,
// issue 12). A spinning iteration changes nothing any thread can see but
// the reads themselves, and the explorers run the one evaluation at every
// point where the spinning thread could have evaluated it for the last
// time (its reads take every visible write as a source), so the findings
// are those of the loop; the executions that spin k times for every k, up
// to the event bound, are gone. A loop that never exits leaves its thread
// stuck and the execution blocked, not bounded: a livelock is not a safety
// violation. Options.NoSpinAwait (--no-spin-await) compiles the loops as
// written.

// spinAwait compiles s as an await if it is a spin loop (see the file
// comment) and reports whether it did; otherwise it emits nothing.
func (c *compiler) spinAwait(s *cc.IterationStatement) bool {
	if c.noSpinAwait {
		return false
	}
	var cond cc.ExpressionNode
	switch s.Case {
	case cc.IterationStatementWhile, cc.IterationStatementDo:
		cond = s.ExpressionList
	case cc.IterationStatementFor:
		if s.ExpressionList3 != nil {
			return false
		}
		cond = s.ExpressionList2
	default:
		return false // for with a declaration: its variable is the loop's state
	}
	if cond == nil || !c.idleBody(s.Statement) {
		return false
	}
	begin := c.pc()
	if s.Case == cc.IterationStatementFor && s.ExpressionList != nil {
		c.expr(s.ExpressionList)
		c.emit(instr{op: opPop})
	}
	start := c.pc()
	c.cond(cond)
	if !c.pure(start, false) {
		c.p.code = c.p.code[:begin] // compiled again, as a loop
		return false
	}
	jz := c.emit(instr{op: opJz})
	c.emit(instr{op: opPush})
	c.emit(instr{op: opBuiltin, a: bAssume, k: 1, w: 2, pos: toPos(s)}) // w 2: a spin loop's await
	c.patch(jz)
	return true
}

// idleBody reports whether a loop body does nothing: empty statements and
// blocks, and expression statements whose code is pure and reads nothing.
func (c *compiler) idleBody(s *cc.Statement) bool {
	switch s.Case {
	case cc.StatementExpr:
		e := s.ExpressionStatement.ExpressionList
		if e == nil {
			return true
		}
		start := c.pc()
		c.expr(e)
		ok := c.pure(start, true)
		c.p.code = c.p.code[:start]
		return ok
	case cc.StatementCompound:
		for l := s.CompoundStatement.BlockItemList; l != nil; l = l.BlockItemList {
			it := l.BlockItem
			if it.Case != cc.BlockItemStmt || !c.idleBody(it.Statement) {
				return false
			}
		}
		return true
	}
	return false
}

// pure reports whether the code from start on only computes: no store to
// memory, no call, no builtin but an atomic load (or, for a body, a no-op)
// and, for a body, no load and no register assignment either.
func (c *compiler) pure(start int32, body bool) bool {
	for _, in := range c.p.code[start:] {
		switch in.op {
		case opStore, opStorePost, opCall, opCallInd, opRet, opZero:
			return false
		case opLoad, opSetLocal:
			if body {
				return false
			}
		case opBuiltin:
			if in.a == bNop || !body && in.a == bAtomicLoad {
				continue
			}
			return false
		}
	}
	return true
}
