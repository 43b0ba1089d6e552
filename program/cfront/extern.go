package cfront

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"modernc.org/cc/v4"

	"mcr/program"
)

// This file gives a function the program declares but never defines (an
// extern of its own source, such as goblint's `extern struct s *get_s();`)
// one of the behaviours such a function may have: it returns without side
// effects, an integer result is an input (concolic, like
// __VERIFIER_nondet_int), a pointer result is the address of the one
// global whose type is its pointee struct (the program's only object the
// function can name) or of one of two objects of its own, chosen at each
// call by inputs (two calls return the same object or not), and an argument that names a function without parameters is
// called once, as a callback. Every other behaviour (side effects on
// globals, other pointers, more or no callback calls, not returning) is
// not explored, so an execution that calls one is Unmodelled: the search is
// never complete (no TRUE), and what it finds happens for some definition
// of the function (a FALSE). __VERIFIER_nondet_pointer returns a fresh
// object at every call, under the same proviso (aliasing and NULL are not
// explored).
//
// Functions declared in system headers keep opNoModel (the execution ends
// bounded): the C library's behaviour is known, and a havoc result would
// invent failures (a strcmp result that is not the comparison).

// extObjectSize is the size of the object an external pointer points to:
// the pointee's type is known only where the result is used.
const extObjectSize = 256

// ownExtern reports whether d, the declaration of a function without a
// definition, is the program's own: in its source file, not in a system
// header or mcr's own headers (a .i task keeps its original file names in
// line markers).
func (c *compiler) ownExtern(d *cc.Declarator) bool {
	if d == nil {
		return false
	}
	pos := d.Position()
	if pos.Filename == c.file && len(c.markers) > 0 {
		// a .i file: the declaration is where its last line marker says
		i := sort.Search(len(c.markers), func(i int) bool { return c.markers[i].line >= pos.Line }) - 1
		return i >= 0 && !c.markers[i].sys
	}
	f := pos.Filename
	return f == c.file || f != "" && !strings.HasPrefix(f, "/") && !strings.HasPrefix(f, "<") && !strings.HasPrefix(f, "mcrinclude")
}

// lineMarker is a line marker of a preprocessed source (`# 12 "file" 3`,
// or `#line 12 "file"`): the lines after line come from file, sys if it is
// a system header (GCC's flag 3, or a path under /usr/ or <built-in>).
type lineMarker struct {
	line int
	sys  bool
}

// lineMarkers returns the line markers of src in order.
func lineMarkers(src []byte) []lineMarker {
	var out []lineMarker
	for n, l := range bytes.Split(src, []byte("\n")) {
		s := strings.TrimSpace(string(l))
		if !strings.HasPrefix(s, "#") {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(strings.TrimPrefix(s, "#"), "line"))
		if len(f) < 2 || f[0][0] < '0' || f[0][0] > '9' || !strings.HasPrefix(f[1], `"`) {
			continue
		}
		file := strings.Trim(f[1], `"`)
		sys := strings.HasPrefix(file, "/usr/") || strings.HasPrefix(file, "<") || slices.Contains(f[2:], "3")
		out = append(out, lineMarker{line: n + 1, sys: sys})
	}
	return out
}

// externCall compiles the call x of the program's own extern function d
// (ownExtern) as described above; it reports false for a result type it
// does not model (a struct, a floating value), which stays opNoModel.
func (c *compiler) externCall(x *cc.PostfixExpression, d *cc.Declarator, as []cc.ExpressionNode) bool {
	name := d.Name()
	t := x.Type()
	var objs []int32
	switch {
	case t.Kind() == cc.Void, t.Kind() == cc.Bool, cc.IsIntegerType(t) && (t.Size() == 1 || t.Size() == 2 || t.Size() == 4 || t.Size() == 8):
	case t.Kind() == cc.Ptr:
		objs = c.externObjects(name, t.(*cc.PointerType).Elem())
	default:
		return false
	}
	pos := toPos(x)
	c.emit(instr{op: opNoModel, k: 1, a: c.str("call to " + name + ", which has no definition: taken as a function that returns without side effects" +
		externResult(t) + "; its other behaviours are not explored"), pos: pos})
	for _, a := range as {
		if fnWithoutParams(a) {
			c.expr(a)
			c.emit(instr{op: opCallInd, k: 0, pos: pos})
			if ft := calleeType(a.Type()); ft != nil && ft.Result().Kind() != cc.Void {
				c.emit(instr{op: opPop})
			}
			continue
		}
		c.expr(a)
		c.emit(instr{op: opPop})
	}
	switch {
	case t.Kind() == cc.Void:
		c.emit(instr{op: opPush})
	case objs != nil:
		c.chooseObject(objs, pos)
	default:
		c.nondet(x, name, nil)
	}
	return true
}

// chooseObject pushes the address of one of objs, chosen by inputs: the
// first if the first input is 0, else the second if the next is 0, ...
// The inputs have no call position: a witness shows no waypoint for them
// (the function's result is a pointer, not the input's value).
func (c *compiler) chooseObject(objs []int32, pos program.Pos) {
	c.p.hasInputs = true
	var ends []int32
	for _, o := range objs[:len(objs)-1] {
		c.emit(instr{op: opPush, k: int64(c.str("_Bool"))})
		c.emit(instr{op: opBuiltin, a: bNondet, k: 1, w: 1, flag: fUndef})
		other := c.emit(instr{op: opJnz})
		c.emit(instr{op: opAddrObj, a: o, pos: pos})
		ends = append(ends, c.emit(instr{op: opJmp}))
		c.patch(other)
	}
	c.emit(instr{op: opAddrObj, a: objs[len(objs)-1], pos: pos})
	for _, e := range ends {
		c.patch(e)
	}
}

// externResult says what the model returns, for the Unmodelled note.
func externResult(t cc.Type) string {
	switch t.Kind() {
	case cc.Void:
		return ""
	case cc.Ptr:
		return ", returning at each call the one global of its pointee type or one of two objects of its own (an input chooses)"
	}
	return ", returning any value (an input)"
}

// externObjects returns the objects a pointer-returning extern function
// may point to, the first the one its first execution takes: the one
// global of the program (with external linkage) whose type is the pointee
// struct or union, if there is one, then two objects of the function's
// own, zero-filled (a possible content): two calls may return the same
// object or not.
func (c *compiler) externObjects(name string, elem cc.Type) []int32 {
	var out []int32
	if g := c.externGlobal(elem); g >= 0 {
		out = append(out, g)
	}
	for i := range 2 {
		key := fmt.Sprintf("\x00extern %s %d", name, i)
		id, ok := c.globals[key]
		if !ok {
			id = c.addStatic(&static{name: fmt.Sprintf("%s()'s object %d", name, i+1), kind: kGlobal, internal: true, data: make([]byte, extObjectSize)})
			c.globals[key] = id
		}
		out = append(out, id)
	}
	return out
}

// externGlobal returns the one global of the program with external
// linkage whose type is the struct or union elem, or -1.
func (c *compiler) externGlobal(elem cc.Type) int32 {
	if k := elem.Kind(); k == cc.Struct || k == cc.Union {
		found := int32(-1)
		for id, s := range c.p.statics {
			if s.kind == kGlobal && !s.internal && !s.tls && s.typ != nil && s.typ.Kind() == k && s.typ.String() == elem.String() {
				if found >= 0 {
					found = -2 // two candidates: neither is the obvious one
					break
				}
				found = int32(id)
			}
		}
		return max(found, -1)
	}
	return -1
}

// fnWithoutParams reports whether argument a names a function (a function
// designator, decayed or with &) that takes no parameters: a callback the
// extern function may call.
func fnWithoutParams(a cc.ExpressionNode) bool {
	ft := calleeType(a.Type())
	if ft == nil || ft.IsVariadic() {
		return false
	}
	for _, p := range ft.Parameters() {
		if p.Type().Kind() != cc.Void {
			return false
		}
	}
	for e := a; e != nil; {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			d, ok := x.ResolvedTo().(*cc.Declarator)
			return x.Case == cc.PrimaryExpressionIdent && ok && d.Type().Kind() == cc.Function
		case *cc.PostfixExpression:
			if x.Case != cc.PostfixExpressionPrimary {
				return false
			}
			e = x.PrimaryExpression
		case *cc.UnaryExpression:
			if x.Case != cc.UnaryExpressionAddrof {
				return false
			}
			e = x.CastExpression
		case *cc.CastExpression:
			if x.Case != cc.CastExpressionUnary {
				return false
			}
			e = x.UnaryExpression
		default:
			return false
		}
	}
	return false
}

// calleeDecl returns the declaration of the function call x names, or nil.
func calleeDecl(x *cc.PostfixExpression) *cc.Declarator {
	if pe, ok := x.PostfixExpression.(*cc.PrimaryExpression); ok && pe.Case == cc.PrimaryExpressionIdent {
		if d, ok := pe.ResolvedTo().(*cc.Declarator); ok && d.Type().Kind() == cc.Function {
			return d
		}
	}
	return nil
}
