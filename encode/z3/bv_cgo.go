//go:build cgo && !noz3

// This file holds the bit-vector part of the binding (z3_cgo.go is the rest), with the same conventions:
// one cgo call per operation, through the C helpers of mcr_z3.h.

package z3

/*
#include "mcr_z3.h"
*/
import "C"

import (
	"fmt"
	"math"
	"strings"
	"unsafe"
)

// maxWidth bounds the width of the bit-vectors that Extract, SignExt and ZeroExt make, far below the
// sizes at which Z3's int parameters overflow.
const maxWidth = 1 << 16

// bvName is the key of a BVVar in Context.bvNames.
type bvName struct {
	name  string
	width uint
}

// bvSort returns the bit-vector sort of width 1..64, made once per Context.
func (c *Context) bvSort(op string, width uint) (C.Z3_sort, bool) {
	if c.z == nil {
		c.fail(op, ErrClosed)
		return nil, false
	}
	if width < 1 || width > 64 {
		c.fail(op, fmt.Errorf("width %d not in 1..64", width))
		return nil, false
	}
	if c.bvs[width-1] == nil {
		r := C.mcr_bv_sort(c.z, C.uint(width))
		if r.err != C.Z3_OK {
			if c.err == nil {
				c.err = c.z3Error(op, r.err)
			}
			return nil, false
		}
		c.bvs[width-1] = r.s
	}
	return c.bvs[width-1], true
}

// BVVar returns the bit-vector constant called name, of width bits (1..64), cached like IntVar. It is a
// different constant from IntVar(name) and from BVVar(name, w) of another width w. The name must not
// contain a NUL byte.
func (c *Context) BVVar(name string, width uint) Term {
	if idx, ok := c.bvNames[bvName{name, width}]; ok {
		return c.term(idx)
	}
	sort, ok := c.bvSort("BVVar", width)
	if !ok {
		return Term{}
	}
	if strings.IndexByte(name, 0) >= 0 {
		return c.fail("BVVar", fmt.Errorf("name %q contains a NUL byte", name))
	}
	cs := C.CString(name)
	t := c.keep("BVVar", C.mcr_mk_bv_var(c.z, sort, cs))
	C.free(unsafe.Pointer(cs))
	if t.idx != 0 {
		c.bvNames[bvName{name, width}] = t.idx
	}
	return t
}

// BV returns the bit-vector numeral of width bits (1..64) whose bits are the low width bits of v.
func (c *Context) BV(v uint64, width uint) Term {
	sort, ok := c.bvSort("BV", width)
	if !ok {
		return Term{}
	}
	return c.keep("BV", C.mcr_mk_bv(c.z, sort, C.uint64_t(v&(math.MaxUint64>>(64-width)))))
}

// bvOps maps BVOp and then BVCmp (offset by len(BVOp)) to the operations of mcr_mk_bv_binary.
var bvOps = [...]C.int{
	BVAdd: C.MCR_BVADD, BVSub: C.MCR_BVSUB, BVMul: C.MCR_BVMUL, BVSDiv: C.MCR_BVSDIV, BVUDiv: C.MCR_BVUDIV,
	BVSRem: C.MCR_BVSREM, BVURem: C.MCR_BVUREM, BVAnd: C.MCR_BVAND, BVOr: C.MCR_BVOR, BVXor: C.MCR_BVXOR,
	BVShl: C.MCR_BVSHL, BVLShr: C.MCR_BVLSHR, BVAShr: C.MCR_BVASHR,
}

var bvCmps = [...]C.int{
	BVEq: C.MCR_BVEQ, BVNe: C.MCR_BVNE, BVSLt: C.MCR_BVSLT, BVSLe: C.MCR_BVSLE, BVSGt: C.MCR_BVSGT,
	BVSGe: C.MCR_BVSGE, BVULt: C.MCR_BVULT, BVULe: C.MCR_BVULE, BVUGt: C.MCR_BVUGT, BVUGe: C.MCR_BVUGE,
}

// BVBin returns the bit-vector a op b; a and b must have the same width, which the result has. Division
// and remainder by zero are not errors: they follow SMT-LIB, where a/0 is all ones (-1 signed) for BVUDiv,
// 1 or -1 for BVSDiv (-1 if a >= 0), and a%0 is a for BVURem and BVSRem. Callers that need C's rules
// guard the divisor themselves. An unknown op, operands that are not bit-vectors or whose widths differ
// are errors (see Context.Err).
func (c *Context) BVBin(op BVOp, a, b Term) Term {
	if op < 0 || int(op) >= len(bvOps) {
		return c.fail("BVBin", fmt.Errorf("unknown operation %d", op))
	}
	return c.bvBinary("BVBin", bvOps[op], a, b)
}

// BVCompare returns the formula a op b of two bit-vectors of the same width. An unknown op, operands that
// are not bit-vectors or whose widths differ are errors (see Context.Err).
func (c *Context) BVCompare(op BVCmp, a, b Term) Term {
	if op < 0 || int(op) >= len(bvCmps) {
		return c.fail("BVCompare", fmt.Errorf("unknown comparison %d", op))
	}
	return c.bvBinary("BVCompare", bvCmps[op], a, b)
}

func (c *Context) bvBinary(op string, code C.int, a, b Term) Term {
	x, wa, ok := c.bvArg(op, a)
	if !ok {
		return Term{}
	}
	y, wb, ok := c.bvArg(op, b)
	if !ok {
		return Term{}
	}
	if wa != wb {
		return c.fail(op, fmt.Errorf("operands of %d and %d bits", wa, wb))
	}
	return c.inherit(c.keep(op, C.mcr_mk_bv_binary(c.z, code, x, y)), a)
}

// BVNeg returns the two's complement negation -a of the bit-vector a, of a's width.
func (c *Context) BVNeg(a Term) Term { return c.bvUnary("BVNeg", C.MCR_BVNEG, a, 0, 0) }

// BVNot returns the bitwise complement ^a of the bit-vector a, of a's width.
func (c *Context) BVNot(a Term) Term { return c.bvUnary("BVNot", C.MCR_BVNOT, a, 0, 0) }

// Extract returns bits hi down to lo of the bit-vector a, a bit-vector of hi-lo+1 bits; bit 0 is the
// least significant. It fails unless lo <= hi < a's width.
func (c *Context) Extract(hi, lo uint, a Term) Term {
	return c.bvUnary("Extract", C.MCR_EXTRACT, a, hi, lo)
}

// SignExt returns the bit-vector a extended by n copies of its sign bit, of a's width + n bits. The result
// may have at most 65536 bits.
func (c *Context) SignExt(n uint, a Term) Term { return c.bvUnary("SignExt", C.MCR_SIGN_EXT, a, n, 0) }

// ZeroExt returns the bit-vector a extended by n zero bits, of a's width + n bits. The result may have at
// most 65536 bits.
func (c *Context) ZeroExt(n uint, a Term) Term { return c.bvUnary("ZeroExt", C.MCR_ZERO_EXT, a, n, 0) }

func (c *Context) bvUnary(op string, code C.int, a Term, i, j uint) Term {
	x, w, ok := c.bvArg(op, a)
	if !ok {
		return Term{}
	}
	switch code {
	case C.MCR_EXTRACT:
		if j > i || i >= w {
			return c.fail(op, fmt.Errorf("bits %d..%d of a term of %d bits", i, j, w))
		}
	case C.MCR_SIGN_EXT, C.MCR_ZERO_EXT:
		if i > maxWidth-w {
			return c.fail(op, fmt.Errorf("term of %d bits extended by %d bits: more than %d bits", w, i, maxWidth))
		}
	}
	return c.keep(op, C.mcr_mk_bv_unary(c.z, code, x, C.uint(i), C.uint(j)))
}

// Ite returns the term "if cond then a else b", of the sort of a and b, which must be the same (for
// bit-vectors: the same width); cond is a formula. Z3 reports other sorts as errors (see Context.Err).
func (c *Context) Ite(cond, a, b Term) Term {
	p, ok := c.args1("Ite", cond)
	if !ok {
		return Term{}
	}
	x, ok := c.args1("Ite", a)
	if !ok {
		return Term{}
	}
	y, ok := c.args1("Ite", b)
	if !ok {
		return Term{}
	}
	return c.inherit(c.keep("Ite", C.mcr_mk_ite(c.z, p, x, y)), cond, a, b)
}

// BoolToBV returns the bit-vector of width bits (1..64) that is 1 if the formula cond holds and 0 if not.
func (c *Context) BoolToBV(cond Term, width uint) Term {
	sort, ok := c.bvSort("BoolToBV", width)
	if !ok {
		return Term{}
	}
	p, ok := c.args1("BoolToBV", cond)
	if !ok {
		return Term{}
	}
	return c.keep("BoolToBV", C.mcr_mk_bool_to_bv(c.z, sort, p))
}

// bvArg checks one bit-vector argument of builder op and returns its AST and width.
func (c *Context) bvArg(op string, t Term) (C.Z3_ast, uint, bool) {
	a, ok := c.args1(op, t)
	if !ok {
		return nil, 0, false
	}
	w := uint(c.widths[t.idx-1])
	if w == 0 {
		c.fail(op, fmt.Errorf("operand is not a bit-vector"))
		return nil, 0, false
	}
	return a, w, true
}

// BV returns the value of the bit-vector term t in the model as its unsigned bits; constants the
// assertions leave free get a value too (Z3's model completion). It returns false if the model is stale,
// t is not a live Term of the solver's Context, or t is not a bit-vector of at most 64 bits.
func (m Model) BV(t Term) (uint64, bool) {
	a, ok := m.live(t)
	if !ok {
		return 0, false
	}
	s := m.s
	r := C.mcr_model_bv(s.c.z, s.model, a)
	return uint64(r.v), bool(r.ok)
}

// Bool returns the value of the formula t in the model, with model completion like BV. It returns false
// if the model is stale, t is not a live Term of the solver's Context, or t is not a formula.
func (m Model) Bool(t Term) (value, ok bool) {
	a, ok := m.live(t)
	if !ok {
		return false, false
	}
	s := m.s
	switch C.mcr_model_bool(s.c.z, s.model, a) {
	case C.Z3_L_TRUE:
		return true, true
	case C.Z3_L_FALSE:
		return false, true
	}
	return false, false
}
