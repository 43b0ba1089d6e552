package cfront

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"modernc.org/cc/v4"

	"mcr/program"
)

// This file implements floating point: float (IEEE 754 binary32), double
// (binary64), and long double, which mcr computes as double (gcc's x86-64
// long double is the 80-bit extended format; its sizeof stays 16, the value
// lives in the first 8 bytes).
//
// Representation. A floating value is its IEEE bit pattern in the int64
// cell: a float's 32 bits zero-extended, a double's 64 bits. So a float in
// memory is exactly its 4 bytes and a double its 8, loads and stores are the
// integer ones of that width (unsigned), and an event's value is the bit
// pattern: equal values are equal bits, which is what the trace model
// compares (a read's value, an MCR seed's new value). -0.0 and +0.0 are
// then different values, and a NaN equals itself: right for reads-from and
// value classes, which ask whether a read could tell two writes apart, and
// a program tells -0.0 from +0.0 by 1/x. The operations are typed at
// compile time (opFAdd with w 4 or 8, ...): the stack carries no type tags.
//
// Semantics follow C11 Annex F (IEC 60559) with FLT_EVAL_METHOD 0, as gcc
// on x86-64: float operations round to binary32 (Go's float32 arithmetic),
// double ones to binary64; division by zero gives an infinity or a NaN, not
// an error (F.3, F.9); conversions from integers round to nearest, to
// integers truncate toward zero (C11 6.3.1.4), and a value whose integral
// part does not fit the integer type (or a NaN, an infinity) is undefined
// behaviour in C11 6.3.1.4 and an unspecified value in Annex F.4: reported
// as a runtime error, like the other undefined behaviour mcr detects.
//
// Inputs (concolic.go): the symbolic shadow models integers only, so a
// floating operation on an input-dependent value leaves the value concrete
// and marks the input coverage incomplete, naming the operation and its
// line (symFloat).

// floatWidth is the width of t's values if t is a real floating type: 4
// for float, 8 for double and long double (computed as double); else 0.
func floatWidth(t cc.Type) uint8 {
	switch t.Kind() {
	case cc.Float, cc.Float32:
		return 4
	case cc.Double, cc.LongDouble, cc.Float64:
		return 8
	}
	return 0
}

// fval is the value of the w-byte floating bit pattern v.
func fval(v int64, w uint8) float64 {
	if w == 4 {
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(uint64(v))
}

// fbits is f rounded to the w-byte format, as a bit pattern.
func fbits(f float64, w uint8) int64 {
	if w == 4 {
		return int64(math.Float32bits(float32(f)))
	}
	return int64(math.Float64bits(f))
}

func f32(v int64) float32 { return math.Float32frombits(uint32(v)) }

// floatOps maps the integer opcodes to their floating counterparts.
var floatOps = map[opcode]opcode{
	opAdd: opFAdd, opSub: opFSub, opMul: opFMul, opDiv: opFDiv,
	opEq: opFEq, opNe: opFNe, opLt: opFLt, opLe: opFLe, opGt: opFGt, opGe: opFGe,
}

// binop emits the arithmetic or comparison op on two operands of type t:
// the floating op if t is a floating type.
func (c *compiler) binop(n cc.Node, op opcode, t cc.Type) {
	if fw := floatWidth(t); fw != 0 {
		fop, ok := floatOps[op]
		if !ok {
			c.unsupported(n, "operator on floating-point operands")
		}
		c.emit(instr{op: fop, w: fw, pos: toPos(n)})
		return
	}
	_, s := c.scalar(n, t)
	c.emit(instr{op: op, flag: flagIf(s, fSigned), pos: toPos(n)})
}

// convertFloat emits a conversion between from and to, one of which is a
// floating type (convert handles _Bool and the rest).
func (c *compiler) convertFloat(n cc.Node, from, to cc.Type) {
	fw, tw := floatWidth(from), floatWidth(to)
	switch {
	case fw != 0 && tw != 0:
		if fw != tw {
			c.emit(instr{op: opFToF, w: tw, pos: toPos(n)})
		}
	case tw != 0:
		if isPtr(from) {
			c.unsupported(n, "conversion of a pointer to a floating type")
		}
		_, s := c.scalar(n, from)
		c.emit(instr{op: opIToF, w: tw, flag: flagIf(s, fSigned), pos: toPos(n)})
	default:
		if isPtr(to) {
			c.unsupported(n, "conversion of a floating value to a pointer")
		}
		w, s := c.scalar(n, to)
		c.emit(instr{op: opFToI, w: w, k: int64(fw), flag: flagIf(s, fSigned), pos: toPos(n)})
	}
}

// floatConst pushes a floating constant, parsed from its spelling at the
// constant's own precision (a float constant rounds once, to binary32).
func (c *compiler) floatConst(x *cc.PrimaryExpression) {
	w := floatWidth(x.Type())
	src := x.Token.SrcStr()
	if w == 0 {
		c.unsupported(x, "floating-point constant "+src+" of type "+x.Type().String())
	}
	f, err := strconv.ParseFloat(strings.TrimRight(src, "fFlL"), int(w)*8)
	if err != nil && !errors.Is(err, strconv.ErrRange) { // out of range: an infinity or zero, as gcc
		c.unsupported(x, "floating-point constant "+src)
	}
	c.emit(instr{op: opPush, k: fbits(f, w)})
}

// libm functions (opFMath's a).
const (
	fmFabs = iota
	fmSqrt
	fmFloor
	fmCeil
	fmTrunc
	fmRound
	fmFmin
	fmFmax
	fmFmod
	fmCopysign
	fmInf
	fmNan
	// classifications (glibc's <math.h> macros expand to these GCC
	// builtins): an int result, not a floating one
	fmIsnan
	fmIsinf // __builtin_isinf_sign: -1, 0 or 1
	fmIsfinite
	fmIsnormal
	fmSignbit
	fmFpclassify // (FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x): the one for x's class
)

// classifyFuncs are the type-generic classification builtins.
var classifyFuncs = map[string]int{
	"__builtin_isnan": fmIsnan, "__builtin_isinf": fmIsinf, "__builtin_isinf_sign": fmIsinf,
	"__builtin_isfinite": fmIsfinite, "__builtin_finite": fmIsfinite, "__builtin_isnormal": fmIsnormal,
	"__builtin_signbit": fmSignbit, "__builtin_signbitf": fmSignbit, "__builtin_signbitl": fmSignbit,
	"__builtin_fpclassify": fmFpclassify,
}

// mathFuncs are the libm functions and GCC builtins mcr computes, with
// their operand counts; each also with suffix f (float) and l (long
// double, as double) and prefix __builtin_. They are the exactly rounded
// ones (IEEE 754 requires sqrt correctly rounded; the others are exact), so
// that mcr and glibc agree bit for bit. sin, exp, pow and friends are not:
// glibc's results are not specified to the last bit.
var mathFuncs = map[string][2]int{
	"fabs": {fmFabs, 1}, "sqrt": {fmSqrt, 1}, "floor": {fmFloor, 1}, "ceil": {fmCeil, 1}, "trunc": {fmTrunc, 1},
	"round": {fmRound, 1}, "fmin": {fmFmin, 2}, "fmax": {fmFmax, 2}, "fmod": {fmFmod, 2},
	"copysign": {fmCopysign, 2}, "inf": {fmInf, 0}, "huge_val": {fmInf, 0}, "nan": {fmNan, 0},
}

// mathCall compiles a call of a libm function of mathFuncs; false if name
// is not one.
func (c *compiler) mathCall(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) bool {
	base, builtin := strings.CutPrefix(name, "__builtin_")
	spec, ok := mathFuncs[base]
	w := uint8(8)
	if !ok && (strings.HasSuffix(base, "f") || strings.HasSuffix(base, "l")) {
		spec, ok = mathFuncs[base[:len(base)-1]]
		if strings.HasSuffix(base, "f") {
			w = 4
		}
	}
	if id, ok := classifyFuncs[name]; ok {
		c.classifyCall(x, name, id, as)
		return true
	}
	if !ok || (!builtin && (spec[0] == fmInf || spec[0] == fmNan)) {
		return false
	}
	c.needArgs(x, name, as, spec[1])
	ft := c.ast.Double
	if w == 4 {
		ft = c.ast.Float
	}
	for i, a := range as {
		if i < spec[1] {
			c.exprTo(a, ft)
			continue
		}
		c.expr(a) // nan's tag string
		c.emit(instr{op: opPop})
	}
	c.emit(instr{op: opFMath, a: int32(spec[0]), k: int64(spec[1]), w: w, pos: toPos(x)})
	return true
}

// classifyCall compiles a classification builtin: its operand keeps its
// own floating type (an integer one is converted to double).
func (c *compiler) classifyCall(x *cc.PostfixExpression, name string, id int, as []cc.ExpressionNode) {
	n := 1
	if id == fmFpclassify {
		n = 6
	}
	if len(as) != n {
		c.errorf(x, "%s needs %d arguments", name, n)
	}
	for _, a := range as[:n-1] {
		c.exprTo(a, c.ast.Int)
	}
	v := as[n-1]
	t := c.rtype(v)
	if floatWidth(t) == 0 {
		t = c.ast.Double
	}
	c.exprTo(v, t)
	c.emit(instr{op: opFMath, a: int32(id), k: int64(n), w: floatWidth(t), pos: toPos(x)})
}

// classify computes classification id of the w-byte value v (with the
// FP_* values of fpclassify below it on st).
func classify(id int, v int64, w uint8, st []int64) int64 {
	f := fval(v, w)
	switch id {
	case fmIsnan:
		return b2i(math.IsNaN(f))
	case fmIsinf:
		if math.IsInf(f, 0) {
			return int64(math.Copysign(1, f))
		}
		return 0
	case fmIsfinite:
		return b2i(!math.IsNaN(f) && !math.IsInf(f, 0))
	case fmSignbit:
		return b2i(math.Signbit(f))
	}
	// FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO
	minNormal := 0x1p-1022
	if w == 4 {
		minNormal = 0x1p-126
	}
	class := 2
	switch a := math.Abs(f); {
	case math.IsNaN(f):
		class = 0
	case math.IsInf(f, 0):
		class = 1
	case a == 0:
		class = 4
	case a < minNormal:
		class = 3
	}
	if id == fmIsnormal {
		return b2i(class == 2)
	}
	return st[len(st)-5+class]
}

// floatOp executes the floating instruction in (run); false if th failed.
func (x *execution) floatOp(th *thread, in *instr) bool {
	st := th.stack
	n := len(st)
	w := in.w
	switch in.op {
	case opFAdd, opFSub, opFMul, opFDiv:
		st[n-2] = farith(in.op, st[n-2], st[n-1], w)
		th.stack = st[:n-1]
	case opFEq, opFNe, opFLt, opFLe, opFGt, opFGe:
		// comparing the float values widened to double is exact
		st[n-2] = b2i(relation(in.op-opFEq+opEq, fval(st[n-2], w), fval(st[n-1], w)))
		th.stack = st[:n-1]
	case opFNeg: // flips the sign bit (F.3: -x is not 0-x, which is +0 for x = +0)
		st[n-1] ^= int64(1) << (8*w - 1)
	case opFBool:
		st[n-1] = b2i(fval(st[n-1], w) != 0)
	case opIToF:
		v := st[n-1]
		if in.flag&fSigned != 0 {
			if w == 4 {
				st[n-1] = int64(math.Float32bits(float32(v))) // rounds once
			} else {
				st[n-1] = fbits(float64(v), 8)
			}
		} else if w == 4 {
			st[n-1] = int64(math.Float32bits(float32(uint64(v))))
		} else {
			st[n-1] = fbits(float64(uint64(v)), 8)
		}
	case opFToI:
		v, ok := ftoi(fval(st[n-1], uint8(in.k)), w, in.flag&fSigned != 0)
		if !ok {
			x.fail(th, program.RuntimeError, "conversion of the floating value %v to a %d-byte %s integer: its integral part is out of range (undefined behaviour, C11 6.3.1.4)",
				fval(st[n-1], uint8(in.k)), w, map[bool]string{true: "signed", false: "unsigned"}[in.flag&fSigned != 0])
			return false
		}
		st[n-1] = v
	case opFToF:
		st[n-1] = fbits(fval(st[n-1], 12-w), w) // the other width: 4 <-> 8
	case opFMath:
		k := int(in.k)
		if in.a >= fmIsnan {
			th.stack = append(st[:n-k], classify(int(in.a), st[n-1], w, st[:n-1]))
			break
		}
		var a, b float64
		if k > 0 {
			a = fval(st[n-k], w)
		}
		if k > 1 {
			b = fval(st[n-1], w)
		}
		th.stack = append(st[:n-k], fbits(fmath(int(in.a), a, b), w))
	}
	return true
}

// farith computes a op b in the w-byte format, rounding once.
func farith(op opcode, a, b int64, w uint8) int64 {
	if w == 4 {
		return int64(math.Float32bits(ieee(op, f32(a), f32(b))))
	}
	return fbits(ieee(op, fval(a, 8), fval(b, 8)), 8)
}

// ieee computes x op y in F: Go rounds each operation to F's format.
func ieee[F float32 | float64](op opcode, x, y F) F {
	switch op {
	case opFAdd:
		return x + y
	case opFSub:
		return x - y
	case opFMul:
		return x * y
	}
	return x / y
}

// ftoi truncates f toward zero to a w-byte integer; false if the result
// does not fit (NaN and infinities included).
func ftoi(f float64, w uint8, signed bool) (int64, bool) {
	t := math.Trunc(f)
	bits := int(w) * 8
	if signed {
		lim := math.Ldexp(1, bits-1)
		if !(t >= -lim && t < lim) {
			return 0, false
		}
		return int64(t), true
	}
	if !(t > -1 && t < math.Ldexp(1, bits)) {
		return 0, false
	}
	return int64(uint64(t)), true
}

// fmath computes libm function id on a (and b). The results are exact or
// correctly rounded, so computing a float's in double and rounding after
// gives the float function's result.
func fmath(id int, a, b float64) float64 {
	switch id {
	case fmFabs:
		return math.Abs(a)
	case fmSqrt:
		return math.Sqrt(a)
	case fmFloor:
		return math.Floor(a)
	case fmCeil:
		return math.Ceil(a)
	case fmTrunc:
		return math.Trunc(a)
	case fmRound: // halfway cases away from zero, as C's round
		return math.Round(a)
	case fmFmin, fmFmax: // C11 F.10.9.2: a NaN operand is ignored
		switch {
		case math.IsNaN(a):
			return b
		case math.IsNaN(b):
			return a
		case id == fmFmin:
			return math.Min(a, b)
		}
		return math.Max(a, b)
	case fmFmod:
		return math.Mod(a, b)
	case fmCopysign:
		return math.Copysign(a, b)
	case fmInf:
		return math.Inf(1)
	}
	return math.NaN()
}

// symFloat updates th's shadow for floating instruction in over k
// operands (symStep): the result is concrete, and an input-dependent
// operand makes the input coverage incomplete, since the shadow's terms
// are bit-vector integers and cannot follow IEEE arithmetic.
func (x *execution) symFloat(th *thread, in *instr, k int) {
	ss := th.sstack
	n := len(ss)
	for _, t := range ss[n-k:] {
		if t != nil {
			x.incomplete("an input-dependent value is used in a floating-point operation (%s) at line %d, which the symbolic shadow does not model", opNames[in.op], in.pos.Line)
			break
		}
	}
	clear(ss[n-k:])
	th.sstack = append(ss[:n-k], nil)
}
