package encode

import (
	"context"
	"fmt"
	"time"

	"mcr/encode/z3"
	"mcr/program"
	"mcr/program/sym"
)

// InputSolver decides concolic input queries (package sym) with Z3's
// bit-vector theory: every term is a 64-bit vector, as every value of the
// interpreter is an int64; an input of w bytes is a w-byte variable
// extended to 64 bits by its signedness (a _Bool is one bit, so 0 or 1).
// Shift amounts are masked to 6 bits as the interpreter masks them.
type InputSolver struct {
	Timeout time.Duration
}

// Solve implements sym.Solver.
func (s InputSolver) Solve(q *sym.Query) (sym.Status, map[program.InputID]int64, string) {
	c, err := z3.NewContext()
	if err != nil {
		return sym.Unknown, nil, err.Error()
	}
	defer c.Close()
	tr := &bvTranslator{c: c, memo: map[*sym.Term]z3.Term{}, vars: map[program.InputID]bvVar{}}
	sv, err := c.NewSolver()
	if err != nil {
		return sym.Unknown, nil, err.Error()
	}
	defer sv.Close()
	for i := range q.Keep {
		if err := sv.Assert(tr.constraint(&q.Keep[i], false)); err != nil {
			return sym.Unknown, nil, err.Error()
		}
	}
	if err := sv.Assert(tr.constraint(&q.Flip, true)); err != nil {
		return sym.Unknown, nil, err.Error()
	}
	if err := c.Err(); err != nil {
		return sym.Unknown, nil, err.Error()
	}
	res, err := sv.Check(context.Background(), s.Timeout)
	switch res {
	case z3.Unsat:
		return sym.Unsat, nil, ""
	case z3.Sat:
		m, err := sv.Model()
		if err != nil {
			return sym.Unknown, nil, err.Error()
		}
		out := make(map[program.InputID]int64, len(tr.vars))
		for id, v := range tr.vars {
			raw, ok := m.BV(v.t)
			if !ok {
				raw = 0 // not constrained by the model
			}
			out[id] = v.v.Norm(int64(raw))
		}
		return sym.Sat, out, ""
	}
	why := sv.ReasonUnknown()
	if err != nil {
		why = err.Error()
	}
	return sym.Unknown, nil, "z3: " + why
}

type bvVar struct {
	v *sym.Var
	t z3.Term // the raw variable, of the input's width
}

type bvTranslator struct {
	c    *z3.Context
	memo map[*sym.Term]z3.Term
	vars map[program.InputID]bvVar
}

// constraint translates c (negated if neg) to a Z3 boolean.
func (t *bvTranslator) constraint(c *sym.Constraint, neg bool) z3.Term {
	op := z3.BVNe
	if c.Taken == neg {
		op = z3.BVEq
	}
	return t.c.BVCompare(op, t.term(c.Term), t.c.BV(0, 64))
}

var bvBins = map[sym.Op]z3.BVOp{
	sym.OpAdd: z3.BVAdd, sym.OpSub: z3.BVSub, sym.OpMul: z3.BVMul, sym.OpSDiv: z3.BVSDiv, sym.OpUDiv: z3.BVUDiv,
	sym.OpSRem: z3.BVSRem, sym.OpURem: z3.BVURem, sym.OpAnd: z3.BVAnd, sym.OpOr: z3.BVOr, sym.OpXor: z3.BVXor,
	sym.OpShl: z3.BVShl, sym.OpLShr: z3.BVLShr, sym.OpAShr: z3.BVAShr,
}

var bvCmps = map[sym.Op]z3.BVCmp{
	sym.OpEq: z3.BVEq, sym.OpNe: z3.BVNe, sym.OpSLt: z3.BVSLt, sym.OpSLe: z3.BVSLe, sym.OpULt: z3.BVULt, sym.OpULe: z3.BVULe,
}

// term translates a term to a 64-bit vector.
func (t *bvTranslator) term(x *sym.Term) z3.Term {
	if r, ok := t.memo[x]; ok {
		return r
	}
	c := t.c
	var r z3.Term
	switch x.Op {
	case sym.OpConst:
		r = c.BV(uint64(x.Val), 64)
	case sym.OpVar:
		v := x.Var
		id := v.ID()
		bv, ok := t.vars[id]
		if !ok {
			w := uint(8 * v.W)
			if v.Bool {
				w = 1
			}
			bv = bvVar{v: v, t: c.BVVar(v.Name(), w)}
			t.vars[id] = bv
		}
		switch {
		case v.Bool:
			r = c.ZeroExt(63, bv.t)
		case v.W >= 8:
			r = bv.t
		case v.Signed:
			r = c.SignExt(64-uint(8*v.W), bv.t)
		default:
			r = c.ZeroExt(64-uint(8*v.W), bv.t)
		}
	case sym.OpConv:
		a := t.term(x.A)
		w := uint(8 * x.W)
		low := c.Extract(w-1, 0, a)
		if x.Signed {
			r = c.SignExt(64-w, low)
		} else {
			r = c.ZeroExt(64-w, low)
		}
	case sym.OpIte:
		r = c.Ite(c.BVCompare(z3.BVNe, t.term(x.A), c.BV(0, 64)), t.term(x.B), t.term(x.C))
	case sym.OpNeg:
		r = c.BVNeg(t.term(x.A))
	case sym.OpNot:
		r = c.BVNot(t.term(x.A))
	default:
		a, b := t.term(x.A), t.term(x.B)
		if op, ok := bvCmps[x.Op]; ok {
			r = c.BoolToBV(c.BVCompare(op, a, b), 64)
			break
		}
		op, ok := bvBins[x.Op]
		if !ok {
			panic(fmt.Sprintf("encode: no bit-vector translation of %s", x.Op))
		}
		if x.Op == sym.OpShl || x.Op == sym.OpLShr || x.Op == sym.OpAShr {
			b = c.BVBin(z3.BVAnd, b, c.BV(63, 64))
		}
		r = c.BVBin(op, a, b)
	}
	t.memo[x] = r
	return r
}
