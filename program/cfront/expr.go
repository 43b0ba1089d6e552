package cfront

import (
	"modernc.org/cc/v4"

	"mcr/program"
)

// This file implements the compiler's expressions. Every expression pushes
// exactly one value (void expressions push a dummy 0), normalised to its C
// type: sign- or zero-extended to 64 bits.

// scalar returns the width and signedness of a scalar type.
func (c *compiler) scalar(n cc.Node, t cc.Type) (uint8, bool) {
	c.checkType(n, t)
	switch t.Kind() {
	case cc.Ptr, cc.Array, cc.Function:
		return 8, false
	case cc.Void:
		return 8, true
	case cc.Struct, cc.Union:
		c.unsupported(n, "struct value used as a scalar")
	}
	if fw := floatWidth(t); fw != 0 {
		return fw, false // bit patterns (float.go)
	}
	sz := t.Size()
	if sz != 1 && sz != 2 && sz != 4 && sz != 8 {
		c.unsupported(n, "type "+t.String())
	}
	return uint8(sz), cc.IsSignedInteger(t)
}

// undecayed is t before array or function decay, when cc/v4 typed an
// operand with its decayed type.
func undecayed(t cc.Type) cc.Type {
	if t.Kind() == cc.Ptr {
		return t.Undecay()
	}
	return t
}

// isLvalueForm reports whether e designates an object (identifier, member,
// subscript, dereference, or such in parentheses): only these can have an
// array type that cc/v4 reports decayed. A parameter declared as an array
// (`char *argv[]`) is a pointer (C11 6.7.6.3p7), not one of them.
func isLvalueForm(e cc.ExpressionNode) bool {
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			d, ok := x.ResolvedTo().(*cc.Declarator)
			return !ok || !d.IsParam()
		case cc.PrimaryExpressionExpr:
			return isLvalueForm(x.ExpressionList)
		}
	case *cc.ExpressionList:
		return x.ExpressionList == nil && isLvalueForm(x.AssignmentExpression)
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
			return true
		case cc.PostfixExpressionPrimary:
			return isLvalueForm(x.PrimaryExpression)
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionDeref:
			return true
		case cc.UnaryExpressionPostfix:
			return isLvalueForm(x.PostfixExpression)
		}
	case *cc.CastExpression:
		return x.Case == cc.CastExpressionUnary && isLvalueForm(x.UnaryExpression)
	}
	return false
}

func isPtr(t cc.Type) bool {
	k := t.Kind()
	return k == cc.Ptr || k == cc.Array || k == cc.Function
}

// elemSize is the size of what pointer (or array) type t points to.
func elemSize(t cc.Type) int64 {
	var et cc.Type
	switch x := t.(type) {
	case *cc.PointerType:
		et = x.Elem()
	case *cc.ArrayType:
		et = x.Elem()
	default:
		return 1
	}
	if et.Kind() == cc.Void || et.Kind() == cc.Function {
		return 1 // GNU: arithmetic on void* steps bytes
	}
	if s := et.Size(); s > 0 {
		return s
	}
	return 1
}

func pointee(t cc.Type) cc.Type {
	switch x := t.(type) {
	case *cc.PointerType:
		return x.Elem()
	case *cc.ArrayType:
		return x.Elem()
	}
	return nil
}

// convert emits the conversion of the value on the stack from type from to type to.
func (c *compiler) convert(n cc.Node, from, to cc.Type) {
	if to.Kind() == cc.Void {
		return
	}
	if to.Kind() == cc.Bool {
		if fw := floatWidth(from); fw != 0 {
			c.emit(instr{op: opFBool, w: fw, pos: toPos(n)})
		} else if from.Kind() != cc.Bool {
			c.emit(instr{op: opBool})
		}
		return
	}
	tw, ts := c.scalar(n, to)
	if from.Kind() == cc.Void || from.Kind() == cc.Struct || from.Kind() == cc.Union {
		return
	}
	if floatWidth(from) != 0 || floatWidth(to) != 0 {
		c.convertFloat(n, from, to)
		return
	}
	fw, fs := c.scalar(n, from)
	if tw < fw || (tw == fw && ts != fs) || (tw > fw && fs != ts && tw < 8) {
		c.emit(instr{op: opConv, w: tw, flag: flagIf(ts, fSigned)})
	}
}

func flagIf(b bool, f uint8) uint8 {
	if b {
		return f
	}
	return 0
}

// exprTo pushes e converted to type t.
func (c *compiler) exprTo(e cc.ExpressionNode, t cc.Type) {
	c.expr(e)
	c.convert(e, c.rtype(e), t)
}

// rtype is the type of e's value after array and function decay.
func (c *compiler) rtype(e cc.ExpressionNode) cc.Type {
	t := e.Type()
	if k := t.Kind(); k == cc.Array || k == cc.Function {
		return t.Decay()
	}
	return t
}

// cond pushes e's truth value (any non-zero is true; jumps test != 0).
// A floating value is tested against 0.0 first: -0.0 is false, a NaN true.
func (c *compiler) cond(e cc.ExpressionNode) {
	c.expr(e)
	if fw := floatWidth(c.rtype(e)); fw != 0 {
		c.emit(instr{op: opFBool, w: fw, pos: toPos(e)})
	}
}

// expr pushes the value of e.
func (c *compiler) expr(e cc.ExpressionNode) {
	t := e.Type()
	if v, ok := constInt(e); ok && cc.IsIntegerType(t) && e.Pure() {
		w, s := c.scalar(e, t)
		c.emit(instr{op: opPush, k: conv(v, w, s)})
		return
	}
	if isLvalueForm(e) {
		t = undecayed(t)
	}
	switch t.Kind() {
	case cc.Array, cc.Function:
		if _, isStr := e.Value().(cc.StringValue); !isStr {
			if pe, ok := e.(*cc.PrimaryExpression); !ok || pe.Case != cc.PrimaryExpressionString {
				c.addr(e)
				return
			}
		}
	}
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		c.primary(x)
	case *cc.PostfixExpression:
		c.postfix(x)
	case *cc.UnaryExpression:
		c.unary(x)
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			c.expr(x.UnaryExpression)
			return
		}
		c.expr(x.CastExpression)
		if x.Type().Kind() == cc.Void {
			return
		}
		c.convert(x, c.rtype(x.CastExpression), x.Type())
	case *cc.MultiplicativeExpression:
		op := map[cc.MultiplicativeExpressionCase]opcode{cc.MultiplicativeExpressionMul: opMul, cc.MultiplicativeExpressionDiv: opDiv, cc.MultiplicativeExpressionMod: opMod}[x.Case]
		c.arith(x, op, x.MultiplicativeExpression, x.CastExpression)
	case *cc.AdditiveExpression:
		if x.Case == cc.AdditiveExpressionMul {
			c.expr(x.MultiplicativeExpression)
			return
		}
		c.additive(x)
	case *cc.ShiftExpression:
		if x.Case == cc.ShiftExpressionAdd {
			c.expr(x.AdditiveExpression)
			return
		}
		c.checkPromoted(x, x.ShiftExpression)
		c.exprTo(x.ShiftExpression, x.Type())
		c.exprTo(x.AdditiveExpression, cc.IntegerPromotion(x.AdditiveExpression.Type()))
		w, s := c.scalar(x, x.Type())
		if x.Case == cc.ShiftExpressionLsh {
			c.emit(instr{op: opShl})
			c.emit(instr{op: opConv, w: w, flag: flagIf(s, fSigned)})
		} else {
			c.emit(instr{op: opShr, flag: flagIf(s, fSigned)})
		}
	case *cc.RelationalExpression:
		if x.Case == cc.RelationalExpressionShift {
			c.expr(x.ShiftExpression)
			return
		}
		op := map[cc.RelationalExpressionCase]opcode{cc.RelationalExpressionLt: opLt, cc.RelationalExpressionGt: opGt, cc.RelationalExpressionLeq: opLe, cc.RelationalExpressionGeq: opGe}[x.Case]
		c.compare(x, op, x.RelationalExpression, x.ShiftExpression)
	case *cc.EqualityExpression:
		if x.Case == cc.EqualityExpressionRel {
			c.expr(x.RelationalExpression)
			return
		}
		op := opEq
		if x.Case == cc.EqualityExpressionNeq {
			op = opNe
		}
		c.compare(x, op, x.EqualityExpression, x.RelationalExpression)
	case *cc.AndExpression:
		if x.Case == cc.AndExpressionEq {
			c.expr(x.EqualityExpression)
			return
		}
		c.arith(x, opAnd, x.AndExpression, x.EqualityExpression)
	case *cc.ExclusiveOrExpression:
		if x.Case == cc.ExclusiveOrExpressionAnd {
			c.expr(x.AndExpression)
			return
		}
		c.arith(x, opXor, x.ExclusiveOrExpression, x.AndExpression)
	case *cc.InclusiveOrExpression:
		if x.Case == cc.InclusiveOrExpressionXor {
			c.expr(x.ExclusiveOrExpression)
			return
		}
		c.arith(x, opOr, x.InclusiveOrExpression, x.ExclusiveOrExpression)
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionOr {
			c.expr(x.InclusiveOrExpression)
			return
		}
		c.logical(x.LogicalAndExpression, x.InclusiveOrExpression, true)
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLAnd {
			c.expr(x.LogicalAndExpression)
			return
		}
		c.logical(x.LogicalOrExpression, x.LogicalAndExpression, false)
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionLOr {
			c.expr(x.LogicalOrExpression)
			return
		}
		c.conditional(x)
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionCond {
			c.expr(x.ConditionalExpression)
			return
		}
		c.assign(x)
	case *cc.ExpressionList:
		for l := x; l != nil; l = l.ExpressionList {
			c.expr(l.AssignmentExpression)
			if l.ExpressionList != nil {
				c.emit(instr{op: opPop})
			}
		}
	default:
		c.unsupported(e, "expression")
	}
}

func (c *compiler) primary(x *cc.PrimaryExpression) {
	switch x.Case {
	case cc.PrimaryExpressionIdent:
		if x.Type().Kind() == cc.Struct || x.Type().Kind() == cc.Union {
			c.addr(x) // struct values are handled by address
			return
		}
		lv := c.lvalue(x)
		c.loadLV(x, lv, 0)
	case cc.PrimaryExpressionInt, cc.PrimaryExpressionChar, cc.PrimaryExpressionLChar:
		v, ok := constInt(x)
		if !ok {
			c.unsupported(x, "constant "+x.Token.SrcStr())
		}
		c.emit(instr{op: opPush, k: v})
	case cc.PrimaryExpressionFloat:
		c.floatConst(x)
	case cc.PrimaryExpressionString:
		s, _ := stringLiteral(x)
		c.emit(instr{op: opAddrObj, a: c.stringObj(s)})
	case cc.PrimaryExpressionLString:
		c.unsupported(x, "wide string literal")
	case cc.PrimaryExpressionExpr:
		c.expr(x.ExpressionList)
	case cc.PrimaryExpressionStmt:
		c.stmtExpr(x)
	case cc.PrimaryExpressionGeneric:
		c.unsupported(x, "_Generic selection")
	default:
		c.unsupported(x, "expression")
	}
}

func (c *compiler) stringObj(s string) int32 {
	if id, ok := c.strIDs[s]; ok {
		return id
	}
	data := []byte(s)
	if len(data) == 0 || data[len(data)-1] != 0 {
		data = append(data, 0)
	}
	id := c.addStatic(&static{name: "string", kind: kString, data: data})
	c.strIDs[s] = id
	return id
}

func (c *compiler) arith(n cc.ExpressionNode, op opcode, a, b cc.ExpressionNode) {
	c.checkPromoted(n, a, b)
	t := n.Type()
	c.exprTo(a, t)
	c.exprTo(b, t)
	if floatWidth(t) != 0 {
		c.binop(n, op, t)
		return
	}
	w, s := c.scalar(n, t)
	c.emit(instr{op: op, flag: flagIf(s, fSigned), pos: toPos(n)})
	if op == opAdd || op == opSub || op == opMul || op == opDiv {
		c.emit(instr{op: opConv, w: w, flag: flagIf(s, fSigned)})
	}
}

func (c *compiler) additive(x *cc.AdditiveExpression) {
	a, b := x.AdditiveExpression, x.MultiplicativeExpression
	ta, tb := c.rtype(a), c.rtype(b)
	op := opAdd
	if x.Case == cc.AdditiveExpressionSub {
		op = opSub
	}
	switch {
	case isPtr(ta) && isPtr(tb): // pointer difference
		c.expr(a)
		c.expr(b)
		c.emit(instr{op: opPtrDiff, k: elemSize(ta), pos: toPos(x)})
	case isPtr(ta):
		c.expr(a)
		c.exprTo(b, c.ast.Long)
		c.emit(instr{op: opPtrAdd, k: elemSize(ta), flag: flagIf(op == opSub, fNeg), pos: toPos(x)})
	case isPtr(tb): // i + p
		c.exprTo(a, c.ast.Long)
		c.expr(b)
		c.emit(instr{op: opSwap})
		c.emit(instr{op: opPtrAdd, k: elemSize(tb), pos: toPos(x)})
	default:
		c.arith(x, op, a, b)
	}
}

func (c *compiler) compare(n cc.ExpressionNode, op opcode, a, b cc.ExpressionNode) {
	if op != opEq && op != opNe {
		c.checkPromoted(n, a, b) // == and != agree in int and unsigned int
	}
	ta, tb := c.rtype(a), c.rtype(b)
	var t cc.Type
	if isPtr(ta) || isPtr(tb) {
		t = c.ast.ULong
	} else {
		t = cc.UsualArithmeticConversions(ta, tb)
	}
	c.exprTo(a, t)
	c.exprTo(b, t)
	c.binop(n, op, t)
}

func (c *compiler) logical(a, b cc.ExpressionNode, and bool) {
	c.cond(a)
	c.emit(instr{op: opBool})
	c.emit(instr{op: opDup})
	var j int32
	if and {
		j = c.emit(instr{op: opJz})
	} else {
		j = c.emit(instr{op: opJnz})
	}
	c.emit(instr{op: opPop})
	c.cond(b)
	c.emit(instr{op: opBool})
	c.patch(j)
}

func (c *compiler) conditional(x *cc.ConditionalExpression) {
	c.checkPromoted(x, x.ExpressionList, x.ConditionalExpression)
	t := x.Type()
	c.cond(x.LogicalOrExpression)
	jz := c.emit(instr{op: opJz})
	c.branchValue(x.ExpressionList, t)
	j := c.emit(instr{op: opJmp})
	c.patch(jz)
	c.branchValue(x.ConditionalExpression, t)
	c.patch(j)
}

func (c *compiler) branchValue(e cc.ExpressionNode, t cc.Type) {
	switch t.Kind() {
	case cc.Void, cc.Struct, cc.Union:
		c.expr(e)
	default:
		c.exprTo(e, t)
	}
}

func (c *compiler) unary(x *cc.UnaryExpression) {
	switch x.Case {
	case cc.UnaryExpressionPostfix:
		c.expr(x.PostfixExpression)
	case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
		c.incDec(x.UnaryExpression, x.Case == cc.UnaryExpressionInc, false, x)
	case cc.UnaryExpressionAddrof:
		if x.CastExpression.Type().Kind() == cc.Function {
			c.expr(x.CastExpression)
			return
		}
		c.addr(x.CastExpression)
	case cc.UnaryExpressionDeref:
		if k := x.Type().Kind(); k == cc.Function {
			c.expr(x.CastExpression)
			return
		}
		l := c.lvalue(x)
		c.loadLV(x, l, 0)
	case cc.UnaryExpressionPlus:
		c.exprTo(x.CastExpression, x.Type())
	case cc.UnaryExpressionMinus, cc.UnaryExpressionCpl:
		c.checkPromoted(x, x.CastExpression)
		c.exprTo(x.CastExpression, x.Type())
		w, s := c.scalar(x, x.Type())
		if fw := floatWidth(x.Type()); fw != 0 && x.Case == cc.UnaryExpressionMinus {
			c.emit(instr{op: opFNeg, w: fw, pos: toPos(x)})
			return
		}
		op := opNeg
		if x.Case == cc.UnaryExpressionCpl {
			op = opCpl
		}
		c.emit(instr{op: op})
		c.emit(instr{op: opConv, w: w, flag: flagIf(s, fSigned)})
	case cc.UnaryExpressionNot:
		c.cond(x.CastExpression)
		c.emit(instr{op: opLNot})
	case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofExpr, cc.UnaryExpressionAlignofType:
		v, ok := constInt(x)
		if !ok {
			c.unsupported(x, "sizeof of a variable-length type")
		}
		c.emit(instr{op: opPush, k: v})
	default:
		c.unsupported(x, "unary operator "+x.Token.SrcStr())
	}
}

// incDec compiles ++/-- (prefix when post is false).
func (c *compiler) incDec(e cc.ExpressionNode, inc, post bool, n cc.Node) {
	t := e.Type()
	// step adds or subtracts one (one element for pointers) to the value on the stack
	step := func() {
		if fw := floatWidth(t); fw != 0 {
			c.emit(instr{op: opPush, k: fbits(1, fw)})
			c.binop(n, map[bool]opcode{true: opAdd, false: opSub}[inc], t)
			return
		}
		c.emit(instr{op: opPush, k: 1})
		switch {
		case isPtr(t):
			c.emit(instr{op: opPtrAdd, k: elemSize(t), flag: flagIf(!inc, fNeg), pos: toPos(n)})
		case inc:
			c.emit(instr{op: opAdd})
		default:
			c.emit(instr{op: opSub})
		}
	}
	w, s := c.scalar(n, t)
	l := c.lvalue(e)
	if l.slot >= 0 {
		c.emit(instr{op: opGetLocal, a: int32(l.slot)})
		if post {
			c.emit(instr{op: opDup})
		}
		step()
		c.emit(instr{op: opConv, w: w, flag: flagIf(s, fSigned)})
		if post {
			c.emit(instr{op: opSetLocal, a: int32(l.slot)})
		} else {
			c.emit(instr{op: opDup})
			c.emit(instr{op: opSetLocal, a: int32(l.slot)})
		}
		return
	}
	if l.bits != nil {
		// a bit-field: the store is a read-modify-write of its unit
		c.emit(instr{op: opDup})
		c.loadLV(n, l, 0)
		old := c.newTemp()
		if post {
			c.emit(instr{op: opDup})
			c.emit(instr{op: opSetLocal, a: int32(old)})
		}
		step()
		c.emit(instr{op: opConv, w: w, flag: flagIf(s, fSigned)})
		c.storeBits(n, l.bits, l.atom, !post)
		if post {
			c.emit(instr{op: opGetLocal, a: int32(old)})
		}
		return
	}
	c.emit(instr{op: opDup})
	c.loadLV(n, l, 0)
	if post {
		c.emit(instr{op: opDup}) // addr old old
	}
	step()
	c.emit(instr{op: opConv, w: w, flag: flagIf(s, fSigned)})
	f := flagIf(s, fSigned) | flagIf(l.atom, fAtomic)
	if post {
		c.emit(instr{op: opStorePost, w: w, flag: f, pos: toPos(n)})
	} else {
		c.emit(instr{op: opStore, w: w, flag: f | fKeep, pos: toPos(n)})
	}
}

func (c *compiler) postfix(x *cc.PostfixExpression) {
	switch x.Case {
	case cc.PostfixExpressionPrimary:
		c.expr(x.PrimaryExpression)
	case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
		if k := x.Type().Kind(); k == cc.Struct || k == cc.Union {
			c.addr(x)
			return
		}
		l := c.lvalue(x)
		c.loadLV(x, l, 0)
	case cc.PostfixExpressionCall:
		c.call(x)
	case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
		c.incDec(x.PostfixExpression, x.Case == cc.PostfixExpressionInc, true, x)
	case cc.PostfixExpressionComplit:
		c.unsupported(x, "compound literal")
	default:
		c.unsupported(x, "postfix expression")
	}
}

func args(x *cc.PostfixExpression) []cc.ExpressionNode {
	var out []cc.ExpressionNode
	for l := x.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		out = append(out, l.AssignmentExpression)
	}
	return out
}

// call compiles a function call: a builtin, a defined function, or a call
// through a function pointer.
func (c *compiler) call(x *cc.PostfixExpression) {
	as := args(x)
	var name string
	if pe, ok := x.PostfixExpression.(*cc.PrimaryExpression); ok && pe.Case == cc.PrimaryExpressionIdent {
		if d, ok := pe.ResolvedTo().(*cc.Declarator); ok && d.Type().Kind() == cc.Function {
			name = d.Name()
		} else if pe.ResolvedTo() == nil {
			name = pe.Token.SrcStr()
		}
	}
	if name != "" {
		if c.builtinCall(x, name, as) {
			return
		}
		fn, ok := c.funcs[name]
		if lib := c.funcs["__mcr_"+name]; (!ok || !fn.defined) && libcFuncs[name] && lib != nil && lib.defined {
			fn, ok = lib, true // libc.go
			if note, partial := libcPartial[name]; partial {
				c.emit(instr{op: opNoModel, k: 1, a: c.str(note), pos: toPos(x)})
			}
		} else if (!ok || !fn.defined) && libcFuncs[name] && c.noLibc {
			panic(bail{errNeedLibc}) // compiled again with the library
		}
		if !ok || !fn.defined {
			if why, ok := unsupportedCalls[name]; ok {
				c.unsupported(x, "call to "+name+" ("+why+")")
			}
			if d := calleeDecl(x); c.ownExtern(d) && c.externCall(x, d, as) {
				return
			}
			// Refused only if an execution reaches it: code that never runs
			// (a usage message behind an argc test) must not stop the check.
			c.emit(instr{op: opNoModel, a: c.str("call to " + name + ", which has no definition in the program and no model in mcr"), pos: toPos(x)})
			c.emit(instr{op: opPush})
			return
		}
		c.need(fn)
		n := len(as)
		if fn.sret {
			c.pushResultSlot(x, x.Type())
			n++
		}
		c.pushArgs(x, as)
		c.emit(instr{op: opCall, a: c.funcIndex(fn), k: int64(n), pos: toPos(x)})
		if fn.void {
			c.emit(instr{op: opPush})
		}
		return
	}
	ft := calleeType(x.PostfixExpression.Type())
	c.expr(x.PostfixExpression)
	n := len(as)
	if ft != nil && isAggregate(ft.Result()) {
		c.pushResultSlot(x, ft.Result())
		n++
	}
	c.pushArgs(x, as)
	c.emit(instr{op: opCallInd, k: int64(n), pos: toPos(x)})
	if ft == nil || ft.Result().Kind() == cc.Void {
		c.emit(instr{op: opPush})
	}
}

// argPromotion is the default argument promotion of C11 6.5.2.2p6 (an
// argument without a parameter type: variadic or unprototyped).
func argPromotion(ast *cc.AST, t cc.Type) cc.Type {
	if t.Kind() == cc.Float {
		return ast.Double
	}
	return cc.IntegerPromotion(t)
}

func calleeType(t cc.Type) *cc.FunctionType {
	if pt, ok := t.(*cc.PointerType); ok {
		t = pt.Elem()
	}
	ft, _ := t.(*cc.FunctionType)
	return ft
}

func (c *compiler) pushArgs(x *cc.PostfixExpression, as []cc.ExpressionNode) {
	ft := calleeType(x.PostfixExpression.Type())
	var params []*cc.Parameter
	if ft != nil {
		params = ft.Parameters()
	}
	for i, a := range as {
		if isAggregate(a.Type()) {
			c.pushAggregateArg(a)
			continue
		}
		if i < len(params) && params[i].Type().Kind() != cc.Void {
			c.exprTo(a, params[i].Type())
		} else {
			c.exprTo(a, argPromotion(c.ast, c.rtype(a)))
		}
	}
}

var _ = program.Read

// stmtExpr compiles a GNU statement expression ({ ... }): the block's items
// in order, the value being that of its last item if that is an
// expression statement (GCC's rule), else none (void; 0 is pushed for the
// caller to drop). Linux's container_of and glibc's assert in SV-COMP's
// preprocessed .i tasks are written with them. Its locals are frame
// variables of the enclosing function, as GCC keeps them too. A value of
// struct or union type is refused (aggregates travel through frame
// objects, structret.go).
func (c *compiler) stmtExpr(x *cc.PrimaryExpression) {
	t := x.Type()
	if k := t.Kind(); k == cc.Struct || k == cc.Union {
		c.unsupported(x, "statement expression ({ ... }) of "+t.String()+" type")
	}
	cs := x.CompoundStatement
	var last cc.ExpressionNode
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		bi := l.BlockItem
		if l.BlockItemList == nil && bi.Case == cc.BlockItemStmt && bi.Statement.Case == cc.StatementExpr &&
			bi.Statement.ExpressionStatement.ExpressionList != nil && t.Kind() != cc.Void {
			last = bi.Statement.ExpressionStatement.ExpressionList
			break
		}
		c.blockItem(bi)
	}
	if last == nil {
		c.emit(instr{op: opPush})
		return
	}
	c.expr(last)
}
