package cfront

// This file compiles statements: blocks, labels, selection, iteration and
// jumps.

import (
	"modernc.org/cc/v4"
)

func (c *compiler) stmt(s *cc.Statement) {
	switch s.Case {
	case cc.StatementLabeled:
		c.labeled(s.LabeledStatement)
	case cc.StatementCompound:
		c.compound(s.CompoundStatement)
	case cc.StatementExpr:
		if e := s.ExpressionStatement.ExpressionList; e != nil {
			outer := c.discarded
			c.discarded = discardedCall(e)
			c.expr(e)
			c.discarded = outer
			c.emit(instr{op: opPop})
		}
	case cc.StatementSelection:
		c.selection(s.SelectionStatement)
	case cc.StatementIteration:
		c.iteration(s.IterationStatement)
	case cc.StatementJump:
		c.jump(s.JumpStatement)
	case cc.StatementAsm:
		c.unsupported(s, "inline assembly")
	default:
		c.unsupported(s, "statement")
	}
}

func (c *compiler) labeled(ls *cc.LabeledStatement) {
	switch ls.Case {
	case cc.LabeledStatementLabel:
		c.labels[ls.Token.SrcStr()] = c.pc()
	case cc.LabeledStatementCaseLabel:
		if c.sw == nil {
			c.errorf(ls, "case outside switch")
		}
		v, ok := constInt(ls.ConstantExpression)
		if !ok {
			c.errorf(ls, "case label is not an integer constant")
		}
		c.sw.cases = append(c.sw.cases, switchCase{v, c.pc()})
	case cc.LabeledStatementDefault:
		if c.sw == nil {
			c.errorf(ls, "default outside switch")
		}
		c.sw.deflt, c.sw.hasD = c.pc(), true
	case cc.LabeledStatementRange:
		c.unsupported(ls, "case range")
	}
	c.stmt(ls.Statement)
}

func constInt(e cc.ExpressionNode) (int64, bool) {
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		return int64(v), true
	}
	return 0, false
}

func (c *compiler) selection(s *cc.SelectionStatement) {
	switch s.Case {
	case cc.SelectionStatementIf, cc.SelectionStatementIfElse:
		c.cond(s.ExpressionList)
		jz := c.emit(instr{op: opJz})
		c.stmt(s.Statement)
		if s.Case == cc.SelectionStatementIfElse {
			j := c.emit(instr{op: opJmp})
			c.patch(jz)
			c.stmt(s.Statement2)
			c.patch(j)
		} else {
			c.patch(jz)
		}
	case cc.SelectionStatementSwitch:
		t := cc.IntegerPromotion(s.ExpressionList.Type())
		c.exprTo(s.ExpressionList, t)
		tmp := c.newTemp()
		c.emit(instr{op: opSetLocal, a: int32(tmp)})
		toDispatch := c.emit(instr{op: opJmp})
		saved := c.sw
		c.sw = &switchCtx{}
		c.loops = append(c.loops, &loopCtx{isSwitch: true})
		c.stmt(s.Statement)
		toEnd := c.emit(instr{op: opJmp})
		c.patch(toDispatch)
		w, signed := c.scalar(s, t)
		// The temporary is dead once a case is chosen: it is cleared on the
		// way out, so that a loop iteration that switched on an input and
		// kept nothing leaves the state as it found it (idle.go).
		clear := func() {
			c.emit(instr{op: opPush})
			c.emit(instr{op: opSetLocal, a: int32(tmp)})
		}
		for _, cs := range c.sw.cases {
			c.emit(instr{op: opGetLocal, a: int32(tmp)})
			c.emit(instr{op: opPush, k: conv(cs.val, w, signed)})
			c.emit(instr{op: opEq})
			next := c.emit(instr{op: opJz})
			clear()
			c.emit(instr{op: opJmp, a: cs.pc})
			c.patch(next)
		}
		clear()
		if c.sw.hasD {
			c.emit(instr{op: opJmp, a: c.sw.deflt})
		}
		c.patch(toEnd)
		lc := c.loops[len(c.loops)-1]
		c.loops = c.loops[:len(c.loops)-1]
		for _, b := range lc.breaks {
			c.patch(b)
		}
		c.sw = saved
	}
}

func (c *compiler) iteration(s *cc.IterationStatement) {
	if c.spinAwait(s) {
		return
	}
	lc := &loopCtx{}
	switch s.Case {
	case cc.IterationStatementWhile:
		top := c.pc()
		c.cond(s.ExpressionList)
		jz := c.emit(instr{op: opJz})
		c.loops = append(c.loops, lc)
		c.stmt(s.Statement)
		c.loops = c.loops[:len(c.loops)-1]
		for _, ct := range lc.conts {
			c.p.code[ct].a = top
		}
		c.emit(instr{op: opJmp, a: top})
		c.patch(jz)
	case cc.IterationStatementDo:
		top := c.pc()
		c.loops = append(c.loops, lc)
		c.stmt(s.Statement)
		c.loops = c.loops[:len(c.loops)-1]
		for _, ct := range lc.conts {
			c.patch(ct)
		}
		c.cond(s.ExpressionList)
		c.emit(instr{op: opJnz, a: top})
	case cc.IterationStatementFor, cc.IterationStatementForDecl:
		// for (init; cond; post): the declaration form has no init expression
		cond, post := s.ExpressionList2, s.ExpressionList3
		if s.Case == cc.IterationStatementForDecl {
			c.localDecl(s.Declaration)
			cond, post = s.ExpressionList, s.ExpressionList2
		} else if s.ExpressionList != nil {
			c.expr(s.ExpressionList)
			c.emit(instr{op: opPop})
		}
		top := c.pc()
		jz := int32(-1)
		if cond != nil {
			c.cond(cond)
			jz = c.emit(instr{op: opJz})
		}
		c.loops = append(c.loops, lc)
		c.stmt(s.Statement)
		c.loops = c.loops[:len(c.loops)-1]
		for _, ct := range lc.conts {
			c.patch(ct)
		}
		if post != nil {
			c.expr(post)
			c.emit(instr{op: opPop})
		}
		c.emit(instr{op: opJmp, a: top})
		if jz >= 0 {
			c.patch(jz)
		}
	}
	for _, b := range lc.breaks {
		c.patch(b)
	}
}

func (c *compiler) jump(s *cc.JumpStatement) {
	switch s.Case {
	case cc.JumpStatementGoto:
		name := s.Token2.SrcStr()
		c.gotos[name] = append(c.gotos[name], c.emit(instr{op: opJmp}))
	case cc.JumpStatementGotoExpr:
		c.unsupported(s, "computed goto")
	case cc.JumpStatementContinue:
		for i := len(c.loops) - 1; i >= 0; i-- {
			if !c.loops[i].isSwitch {
				c.loops[i].conts = append(c.loops[i].conts, c.emit(instr{op: opJmp}))
				return
			}
		}
		c.errorf(s, "continue outside a loop")
	case cc.JumpStatementBreak:
		if len(c.loops) == 0 {
			c.errorf(s, "break outside a loop or switch")
		}
		lc := c.loops[len(c.loops)-1]
		lc.breaks = append(lc.breaks, c.emit(instr{op: opJmp}))
	case cc.JumpStatementReturn:
		c.ret(s.ExpressionList, s)
	}
}
