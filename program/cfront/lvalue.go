package cfront

// This file compiles lvalues: where a variable, element, member or
// dereference lives (a register slot or memory), loading and storing it,
// assignment and aggregate copies.

import (
	"modernc.org/cc/v4"
)

// lv describes an lvalue: a register slot, or memory whose address has been pushed.
type lv struct {
	slot  int // >= 0: register slot
	typ   cc.Type
	atom  bool
	undef bool      // a slot of a local declared without an initialiser
	bits  *bitField // a bit-field; the address is its unit's (bitfield.go)
}

// lvalue compiles e as an lvalue (pushing its address when in memory).
func (c *compiler) lvalue(e cc.ExpressionNode) lv {
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			d, ok := x.ResolvedTo().(*cc.Declarator)
			if !ok {
				c.errorf(x, "%s is not a variable", x.Token.SrcStr())
			}
			if l, ok := c.vars[d]; ok {
				if l.vla {
					c.emit(instr{op: opGetLocal, a: int32(l.slot)})
					return lv{slot: -1, typ: l.typ}
				}
				if l.slot >= 0 {
					return lv{slot: l.slot, typ: l.typ, atom: l.atom, undef: l.undef}
				}
				c.emit(instr{op: opAddrFrame, a: int32(l.fv)})
				return lv{slot: -1, typ: l.typ, atom: l.atom}
			}
			if id, ok := c.locals[d]; ok {
				c.emit(instr{op: opAddrObj, a: id})
				return lv{slot: -1, typ: d.Type(), atom: isAtomicDecl(d)}
			}
			if d.Type().Kind() == cc.Function {
				fn := c.function(d.Name(), d)
				c.need(fn)
				c.emit(instr{op: opAddrObj, a: int32(fn.objID)})
				return lv{slot: -1, typ: d.Type()}
			}
			id, ok := c.globals[d.Name()]
			if !ok {
				c.errorf(x, "unknown variable %s", d.Name())
			}
			c.emit(instr{op: opAddrObj, a: id})
			return lv{slot: -1, typ: d.Type(), atom: isAtomicDecl(d)}
		case cc.PrimaryExpressionExpr:
			return c.lvalue(x.ExpressionList)
		case cc.PrimaryExpressionString:
			s, _ := stringLiteral(x)
			c.emit(instr{op: opAddrObj, a: c.stringObj(s)})
			return lv{slot: -1, typ: x.Type()}
		}
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return c.lvalue(x.AssignmentExpression)
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return c.lvalue(x.PrimaryExpression)
		case cc.PostfixExpressionIndex:
			a, i := x.PostfixExpression, x.ExpressionList
			if !isPtr(a.Type()) {
				a, i = i, a
			}
			c.ptrValue(a)
			c.exprTo(i, c.ast.Long)
			c.emit(instr{op: opPtrAdd, k: elemSize(a.Type()), pos: toPos(x)})
			return lv{slot: -1, typ: x.Type(), atom: isAtomicType(x.Type())}
		case cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
			f := x.Field()
			if f == nil {
				c.errorf(x, "unknown field %s", x.Token2.SrcStr())
			}
			var bits *bitField
			if f.IsBitfield() {
				bits = c.fieldBits(x, f)
			}
			if x.Case == cc.PostfixExpressionSelect {
				l := c.lvalue(x.PostfixExpression)
				if l.slot >= 0 {
					c.errorf(x, "internal error: struct in a register")
				}
			} else {
				c.ptrValue(x.PostfixExpression)
			}
			off := f.Offset()
			if bits != nil {
				off = bits.unit
			}
			if off != 0 {
				c.emit(instr{op: opPush, k: off})
				c.emit(instr{op: opAdd})
			}
			return lv{slot: -1, typ: x.Type(), atom: isAtomicType(f.Type()), bits: bits}
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return c.lvalue(x.PostfixExpression)
		case cc.UnaryExpressionDeref:
			c.ptrValue(x.CastExpression)
			return lv{slot: -1, typ: x.Type(), atom: isAtomicType(x.Type())}
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return c.lvalue(x.UnaryExpression)
		}
	}
	if isAggregate(e.Type()) {
		// a struct or union value that is no lvalue (a call's result, a
		// conditional, an assignment): its expression pushes the address of
		// the object holding it (structret.go)
		c.expr(e)
		return lv{slot: -1, typ: e.Type()}
	}
	c.errorf(e, "expression is not an lvalue")
	return lv{}
}

// ptrValue pushes a pointer that is about to be dereferenced; a load of it
// from shared memory is marked Deref for the null-read property.
func (c *compiler) ptrValue(e cc.ExpressionNode) {
	c.expr(e)
	if last := &c.p.code[len(c.p.code)-1]; last.op == opLoad && e.Type().Kind() == cc.Ptr {
		last.flag |= fDeref
	}
}

// addr pushes the address of lvalue e (which must be in memory).
func (c *compiler) addr(e cc.ExpressionNode) {
	l := c.lvalue(e)
	if l.slot >= 0 {
		c.errorf(e, "internal error: address of a register variable")
	}
	if l.bits != nil {
		c.errorf(e, "address of a bit-field")
	}
}

// loadLV loads the value of an lvalue.
func (c *compiler) loadLV(n cc.Node, l lv, extra uint8) {
	if l.slot >= 0 {
		c.emit(instr{op: opGetLocal, a: int32(l.slot), flag: flagIf(l.undef, fUndef), pos: toPos(n)})
		return
	}
	if l.bits != nil {
		c.loadBits(n, l.bits, l.atom)
		return
	}
	switch undecayed(l.typ).Kind() {
	case cc.Array, cc.Function, cc.Struct, cc.Union:
		return // the address is the value
	}
	w, s := c.scalar(n, l.typ)
	c.emit(instr{op: opLoad, w: w, flag: flagIf(s, fSigned) | flagIf(l.atom, fAtomic) | extra, pos: toPos(n)})
}

// emitStore stores the value on the stack into the memory lvalue below it.
func (c *compiler) emitStore(t cc.Type, atom bool, extra uint8, n cc.Node) {
	w, s := c.scalar(n, t)
	f := flagIf(s, fSigned) | flagIf(atom, fAtomic) | flagIf(t.Kind() == cc.Ptr, fPtr) | extra
	c.emit(instr{op: opStore, w: w, flag: f, pos: toPos(n)})
}

// storeLV stores the value on the stack into l, leaving the value.
func (c *compiler) storeLV(n cc.Node, l lv) {
	if l.slot >= 0 {
		c.emit(instr{op: opDup})
		c.emit(instr{op: opSetLocal, a: int32(l.slot), flag: flagIf(l.undef, fUndef)}) // w 0: now set
		return
	}
	if l.bits != nil {
		c.storeBits(n, l.bits, l.atom, true)
		return
	}
	c.emitStore(l.typ, l.atom, fKeep, n)
}

func (c *compiler) assign(x *cc.AssignmentExpression) {
	t := x.UnaryExpression.Type()
	if x.Case == cc.AssignmentExpressionAssign && (t.Kind() == cc.Struct || t.Kind() == cc.Union) {
		c.addr(x.UnaryExpression)
		c.addr(x.AssignmentExpression)
		c.copyAgg(t, x)
		return
	}
	l := c.lvalue(x.UnaryExpression)
	if x.Case == cc.AssignmentExpressionAssign {
		c.exprTo(x.AssignmentExpression, t)
		c.storeLV(x, l)
		return
	}
	// compound assignment: lvalue op= value
	if l.slot < 0 {
		c.emit(instr{op: opDup})
	}
	c.loadLV(x.UnaryExpression, l, 0)
	rhs := x.AssignmentExpression
	var op opcode
	switch x.Case {
	case cc.AssignmentExpressionMul:
		op = opMul
	case cc.AssignmentExpressionDiv:
		op = opDiv
		c.checkPromoted(x, x.UnaryExpression, x.AssignmentExpression)
	case cc.AssignmentExpressionMod:
		op = opMod
		c.checkPromoted(x, x.UnaryExpression, x.AssignmentExpression)
	case cc.AssignmentExpressionAdd:
		op = opAdd
	case cc.AssignmentExpressionSub:
		op = opSub
	case cc.AssignmentExpressionLsh:
		op = opShl
	case cc.AssignmentExpressionRsh:
		op = opShr
	case cc.AssignmentExpressionAnd:
		op = opAnd
	case cc.AssignmentExpressionXor:
		op = opXor
	case cc.AssignmentExpressionOr:
		op = opOr
	}
	if isPtr(t) {
		c.exprTo(rhs, c.ast.Long)
		c.emit(instr{op: opPtrAdd, k: elemSize(t), flag: flagIf(op == opSub, fNeg), pos: toPos(x)})
	} else {
		// compute in the promoted common type, then convert back
		ct := cc.UsualArithmeticConversions(cc.IntegerPromotion(t), cc.IntegerPromotion(c.rtype(rhs)))
		if op == opShl || op == opShr {
			ct = cc.IntegerPromotion(t)
		}
		c.convert(x, t, ct)
		if op == opShl || op == opShr {
			c.exprTo(rhs, cc.IntegerPromotion(c.rtype(rhs)))
		} else {
			c.exprTo(rhs, ct)
		}
		c.binop(x, op, ct)
		c.convert(x, ct, t)
	}
	c.storeLV(x, l)
}

// copyAgg copies an aggregate of type t from the address on top of the
// stack to the address below it, one scalar (one event if the object is
// shared) at a time, and leaves the destination's address: the value of an
// assignment or a return.
func (c *compiler) copyAgg(t cc.Type, n cc.Node) {
	src, dst := c.newTemp(), c.newTemp()
	c.emit(instr{op: opSetLocal, a: int32(src)})
	c.emit(instr{op: opSetLocal, a: int32(dst)})
	c.walkScalars(n, t, 0, func(off int64, st cc.Type) {
		c.emit(instr{op: opGetLocal, a: int32(dst)})
		c.emit(instr{op: opPush, k: off})
		c.emit(instr{op: opAdd})
		c.emit(instr{op: opGetLocal, a: int32(src)})
		c.emit(instr{op: opPush, k: off})
		c.emit(instr{op: opAdd})
		c.loadLV(n, lv{slot: -1, typ: st}, fCopy)
		c.emitStore(st, false, fCopy, n)
	})
	c.emit(instr{op: opGetLocal, a: int32(dst)})
}

// walkScalars calls f for every scalar inside type t at base offset off.
func (c *compiler) walkScalars(n cc.Node, t cc.Type, off int64, f func(int64, cc.Type)) {
	switch t.Kind() {
	case cc.Array:
		at := t.(*cc.ArrayType)
		et := at.Elem()
		if et.Size() <= 0 {
			return
		}
		for i := int64(0); i < t.Size()/et.Size(); i++ {
			c.walkScalars(n, et, off+i*et.Size(), f)
		}
	case cc.Struct:
		st := t.(*cc.StructType)
		var bits []*bitField
		if hasBitFields(st) {
			bits = c.bitLayout(n, st)
		}
		done := map[int64]bool{} // units of bit-fields already visited
		for i := 0; i < st.NumFields(); i++ {
			fl := st.FieldByIndex(i)
			if fl.IsBitfield() {
				// a run of bit-fields is one scalar: its unit
				if b := bits[i]; b != nil && !done[b.unit] {
					done[b.unit] = true
					f(off+b.unit, c.unitType(b.w))
				}
				continue
			}
			c.walkScalars(n, fl.Type(), off+fl.Offset(), f)
		}
	case cc.Union:
		// A union holds one member at a time: copy it as its largest
		// member's scalars, which cover every member's bytes but padding;
		// a pointer member wins a tie, so that storing the copy in shared
		// memory shares what it may point to (escape)
		ut, ok := t.(interface {
			NumFields() int
			FieldByIndex(int) *cc.Field
		})
		if !ok {
			c.unsupported(n, "union type "+t.String())
		}
		var big cc.Type
		for i := 0; i < ut.NumFields(); i++ {
			if fl := ut.FieldByIndex(i); fl.IsBitfield() {
				c.unsupported(n, "bit-field "+fl.Name()+" in a union")
			}
			ft := ut.FieldByIndex(i).Type()
			if big == nil || ft.Size() > big.Size() || ft.Size() == big.Size() && ft.Kind() == cc.Ptr {
				big = ft
			}
		}
		if big != nil {
			c.walkScalars(n, big, off, f)
		}
	default:
		f(off, t)
	}
}
