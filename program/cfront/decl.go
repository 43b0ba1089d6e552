package cfront

// This file compiles local declarations and initialisers (of locals, static
// locals and globals).

import (
	"strings"

	"modernc.org/cc/v4"
)

func isAtomicDecl(d *cc.Declarator) bool {
	return d.IsAtomic() || isAtomicType(d.Type())
}

func isAtomicType(t cc.Type) bool {
	if t == nil {
		return false
	}
	if td := t.Typedef(); td != nil && (td.IsAtomic() || strings.HasPrefix(td.Name(), "atomic_")) {
		return true
	}
	return false
}

// localDecl compiles a block-scope declaration.
func (c *compiler) localDecl(d *cc.Declaration) {
	if d.Case != cc.DeclarationDecl {
		return // static assertions, auto type
	}
	for il := d.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
		idl := il.InitDeclarator
		decl := idl.Declarator
		if decl.IsTypename() || decl.IsExtern() {
			continue
		}
		t := decl.Type()
		if t.Kind() == cc.Function {
			continue
		}
		c.checkType(decl, t)
		if decl.IsStatic() {
			id := c.newStatic(decl, c.fn.name+"."+decl.Name())
			c.locals[decl] = id
			if idl.Initializer != nil {
				c.staticLocalInit(id, t, idl.Initializer)
			}
			continue
		}
		if t.Size() < 0 {
			c.vlaDecl(decl, t, idl.Initializer != nil)
			continue
		}
		lv := &local{slot: -1, typ: t, atom: isAtomicDecl(decl)}
		agg := t.Kind() == cc.Array || t.Kind() == cc.Struct || t.Kind() == cc.Union
		if agg || decl.AddressTaken() {
			lv.fv = c.frameAlloc(decl, t, decl.Name())
		} else {
			lv.slot = c.newTemp()
		}
		c.vars[decl] = lv
		if idl.Initializer == nil {
			// Its value is indeterminate until set (C11 6.7.9p10). Reading
			// it reads 0 and makes the search incomplete (Unmodelled):
			// every value would have to be tried, as an input.
			lv.undef = true
			if lv.slot >= 0 {
				c.emit(instr{op: opPush})
				c.emit(instr{op: opSetLocal, a: int32(lv.slot), w: 1, flag: fUndef, k: undefSpec(t), pos: toPos(idl)})
			} else {
				c.emit(instr{op: opAddrFrame, a: int32(lv.fv)})
				// a: the input spec of an address-taken integer scalar, which
				// WithUndefInputs makes an input like a slot's (0: none)
				c.emit(instr{op: opZero, k: t.Size(), flag: fUndef, a: int32(undefSpec(t)), pos: toPos(idl)})
			}
			continue
		}
		if lv.slot >= 0 {
			c.initExpr(idl.Initializer, t)
			c.emit(instr{op: opSetLocal, a: int32(lv.slot)})
			continue
		}
		if agg {
			c.emit(instr{op: opAddrFrame, a: int32(lv.fv)})
			c.emit(instr{op: opZero, k: t.Size()})
		}
		c.initMem(func(off int64) { c.emit(instr{op: opAddrFrame, a: int32(lv.fv), k: off}) }, t, idl.Initializer, 0)
	}
}

// vlaDecl compiles the declaration of a variable-length array (C11
// 6.7.6.2): its length is evaluated here, and its storage is a stack
// object of that many elements, private to the thread until its address
// escapes, like a fixed-size local array. One difference: the storage
// lives until the execution ends, not until the block does (C frees it at
// the end of its scope), so a use after its scope is not reported. Only
// one dimension may vary, and sizeof of the array is refused.
func (c *compiler) vlaDecl(decl *cc.Declarator, t cc.Type, init bool) {
	at, ok := t.(*cc.ArrayType)
	if !ok || !at.IsVLA() || at.SizeExpression() == nil || at.Elem().Size() < 0 || init {
		c.unsupported(decl, "variable-length array "+decl.Name()+" (only one varying dimension, no initialiser)")
	}
	slot := c.newTemp()
	c.exprTo(at.SizeExpression(), c.ast.Long)
	c.emit(instr{op: opPush, k: at.Elem().Size()})
	c.emit(instr{op: opMul})
	c.emit(instr{op: opPush, k: int64(c.str(c.fn.name + "." + decl.Name()))})
	c.emit(instr{op: opBuiltin, a: bAllocVLA, k: 2, pos: toPos(decl)})
	c.emit(instr{op: opSetLocal, a: int32(slot)})
	c.vars[decl] = &local{slot: slot, typ: t, vla: true}
}

// staticLocalInit compiles a static local's initialiser into a separate
// piece of code run with the global initialisers.
func (c *compiler) staticLocalInit(id int32, t cc.Type, init *cc.Initializer) {
	// Emit the initialiser out of line: jump over it here, and splice a call
	// of it into <init> by compiling it as its own tiny function.
	fn := &function{name: "<init " + c.p.statics[id].name + ">", defined: true, void: true}
	skip := c.emit(instr{op: opJmp})
	fn.entry = c.pc()
	saved := c.fn
	c.fn = fn
	c.initStatic(id, t, init)
	c.emit(instr{op: opRet})
	c.fn = saved
	c.patch(skip)
	c.p.funcs = append(c.p.funcs, fn)
	c.staticInits = append(c.staticInits, fn)
}

// initStatic compiles the initialiser of static object id.
func (c *compiler) initStatic(id int32, t cc.Type, init *cc.Initializer) {
	c.initMem(func(off int64) { c.emit(instr{op: opAddrObj, a: id, k: off}) }, t, init, 0)
}

// initMem stores initializer init of type t at the address addr(off) pushes.
func (c *compiler) initMem(addr func(off int64), t cc.Type, init *cc.Initializer, off int64) {
	switch init.Case {
	case cc.InitializerExpr:
		e := init.AssignmentExpression
		switch t.Kind() {
		case cc.Array:
			if s, ok := stringLiteral(e); ok {
				n := t.Size()
				b := []byte(s)
				for i := int64(0); i < n && i < int64(len(b)); i++ {
					addr(off + i)
					c.emit(instr{op: opPush, k: int64(b[i])})
					c.emit(instr{op: opStore, w: 1})
				}
				return
			}
			c.unsupported(init, "array initialiser that is not a list or string")
		case cc.Struct, cc.Union:
			addr(off)
			c.addr(e)
			c.copyAgg(t, init)
			c.emit(instr{op: opPop})
			return
		}
		if f := init.Field(); f != nil && f.IsBitfield() {
			// leaves carry the offset of the field as cc/v4 lays it out;
			// the unit is placed by gcc's layout (bitfield.go)
			b := c.fieldBits(init, f)
			addr(off - f.Offset() + b.unit)
			c.exprTo(e, t)
			c.storeBits(init, b, false, false)
			return
		}
		addr(off)
		c.exprTo(e, t)
		c.emitStore(t, false, 0, init)
	case cc.InitializerInitList:
		for l := init.InitializerList; l != nil; l = l.InitializerList {
			sub := l.Initializer
			if sub == nil {
				continue
			}
			st := sub.Type()
			if sub.Case == cc.InitializerExpr {
				// leaves carry their offset within the outermost object
				c.initMem(addr, st, sub, sub.Offset())
				continue
			}
			c.initMem(addr, st, sub, sub.Offset())
		}
	}
}

// initExpr pushes the value of a scalar initializer.
func (c *compiler) initExpr(init *cc.Initializer, t cc.Type) {
	switch init.Case {
	case cc.InitializerExpr:
		c.exprTo(init.AssignmentExpression, t)
	case cc.InitializerInitList:
		if init.InitializerList != nil && init.InitializerList.Initializer != nil {
			c.initExpr(init.InitializerList.Initializer, t)
			return
		}
		c.emit(instr{op: opPush})
	}
}

func stringLiteral(e cc.ExpressionNode) (string, bool) {
	if v, ok := e.Value().(cc.StringValue); ok {
		return string(v), true
	}
	return "", false
}
