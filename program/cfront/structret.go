package cfront

import (
	"fmt"

	"modernc.org/cc/v4"
)

// This file implements structs and unions passed and returned by value.
//
// The compiler handles an aggregate value by its address: an expression of
// struct or union type pushes the address of an object holding the value.
// Calls keep to that rule:
//
//   - A function returning an aggregate (function.sret) takes a hidden
//     first argument, slot 0: a pointer to a result object in the caller's
//     frame, one frame temporary per call site. `return e;` copies e there
//     and returns the pointer, so the call expression denotes the
//     temporary: it can be selected from (f().x), copied (q = f()), used as
//     an initialiser or passed on.
//   - An aggregate argument is copied at the call site into a frame
//     temporary of the caller, and the callee copies that into its own frame
//     object at entry: the parameter is a local of the callee, so changing
//     it changes neither the caller's object nor the temporary, and taking
//     its address gives a pointer that dies with the callee's call.
//
// The copies are copyAgg's scalar loads and stores: on private objects
// (frame temporaries, locals that did not escape) they are no events; on
// shared ones (globals, heap blocks, escaped locals) every scalar is one
// event, as in an assignment, so races on a shared source are reported at
// the copy.

// isAggregate reports whether values of type t are handled by address.
func isAggregate(t cc.Type) bool {
	k := t.Kind()
	return k == cc.Struct || k == cc.Union
}

// frameTemp adds a frame temporary of aggregate type t to the current
// function, named after what it holds, and returns its frame variable.
func (c *compiler) frameTemp(n cc.Node, t cc.Type, what string) int {
	if len(what) > 60 {
		what = what[:57] + "..."
	}
	return c.frameAlloc(n, t, fmt.Sprintf("(%s at line %d)", what, n.Position().Line))
}

// structParam makes aggregate parameter lv a frame object of the callee and
// emits, at the function's entry, the copy from the caller's temporary
// whose address the argument slot holds.
func (c *compiler) structParam(d *cc.Declarator, lv *local) {
	lv.fv = c.frameAlloc(d, lv.typ, d.Name())
	c.emit(instr{op: opAddrFrame, a: int32(lv.fv)})
	c.emit(instr{op: opGetLocal, a: int32(lv.slot)})
	lv.slot = -1
	c.copyAgg(lv.typ, d)
	c.emit(instr{op: opPop})
}

// retAggregate pushes the value of `return value;` in a function returning
// an aggregate: value copied into the caller's result object, whose address
// (slot 0) is what the function returns. Without a value (falling off the
// end) the result object is left as it is.
func (c *compiler) retAggregate(value cc.ExpressionNode) {
	c.emit(instr{op: opGetLocal, a: 0})
	if value == nil {
		return
	}
	if !isAggregate(value.Type()) {
		c.errorf(value, "returning %s from a function returning %s", value.Type(), c.fnResult())
	}
	c.expr(value)
	c.copyAgg(c.fnResult(), value)
}

// pushResultSlot pushes the hidden result pointer of a call x to a function
// returning aggregate type t: the address of a fresh frame temporary.
func (c *compiler) pushResultSlot(x *cc.PostfixExpression, t cc.Type) {
	fv := c.frameTemp(x, t, "result of "+srcText(x.PostfixExpression)+"()")
	c.emit(instr{op: opAddrFrame, a: int32(fv)})
}

// pushAggregateArg pushes the address of a copy of aggregate argument a:
// a frame temporary of the caller, filled here, at the call site, so that
// reads of a shared source are events of the call's line and see the
// value the argument had when it was evaluated.
func (c *compiler) pushAggregateArg(a cc.ExpressionNode) {
	t := a.Type()
	fv := c.frameTemp(a, t, "argument "+srcText(a))
	c.emit(instr{op: opAddrFrame, a: int32(fv)})
	c.expr(a)
	c.copyAgg(t, a) // leaves the temporary's address
}
