package sym

import (
	"math"
	"testing"

	"mcr/program"
)

func v(k int, w uint8, signed bool) *Term {
	return NewVar(&Var{Thread: "0", K: k, W: w, Signed: signed})
}

// TestExplicit: the explicit solver's three steps on small queries.
func TestExplicit(t *testing.T) {
	n := v(0, 4, false)        // unsigned int
	ni := ConvTerm(n, 4, true) // stored in an int
	c := v(1, 1, true)         // char
	lt := func(a, b *Term) *Term { return Bin(OpSLt, a, b) }
	k := func(x int64) *Term { return Const(x) }
	for _, tc := range []struct {
		name string
		q    Query
		want Status
	}{
		{"magic constant", Query{Flip: Constraint{Term: Bin(OpEq, n, k(123456)), Taken: false}}, Sat},
		{"range through a conversion",
			Query{Keep: []Constraint{{Term: lt(k(4), ni), Taken: true}, {Term: lt(ni, k(11)), Taken: true}},
				Flip: Constraint{Term: Bin(OpEq, Bin(OpMul, ni, ni), k(64)), Taken: false}}, Sat},
		{"range excludes", Query{Keep: []Constraint{{Term: lt(k(4), ni), Taken: true}, {Term: lt(ni, k(11)), Taken: true}},
			Flip: Constraint{Term: Bin(OpEq, Bin(OpMul, ni, ni), k(9)), Taken: false}}, Unsat},
		{"char enumeration", Query{Flip: Constraint{Term: Bin(OpEq, Bin(OpMul, c, c), k(49)), Taken: false}}, Sat},
		{"char none", Query{Flip: Constraint{Term: Bin(OpEq, Bin(OpMul, c, c), k(50)), Taken: false}}, Unsat},
		{"too large", Query{Flip: Constraint{Term: Bin(OpEq, Bin(OpMul, n, n), k(49)), Taken: false}}, Unknown},
	} {
		st, m, why := Explicit{}.Solve(&tc.q)
		if st != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.name, st, why, tc.want)
		}
		if st == Sat && !tc.q.Satisfied(m) {
			t.Errorf("%s: model %v does not satisfy the query", tc.name, m)
		}
	}
}

// TestSlice: constraints over other inputs leave the query.
func TestSlice(t *testing.T) {
	a, b, c := v(0, 1, true), v(1, 1, true), v(2, 1, true)
	q := Query{Keep: []Constraint{
		{Term: Bin(OpSLt, a, Const(3)), Taken: true},
		{Term: Bin(OpSLt, b, c), Taken: true},
		{Term: Bin(OpSLt, a, b), Taken: true},
		{Term: Bin(OpSLt, a, Const(3)), Taken: true},
		{Term: Bin(OpSLt, v(3, 1, true), Const(0)), Taken: true},
	}, Flip: Constraint{Term: Bin(OpEq, a, Const(1)), Taken: true}}
	s := q.Slice()
	if len(s.Keep) != 3 {
		t.Errorf("slice keeps %d constraints, want 3 (a<3 once, b<c, a<b): %s", len(s.Keep), s)
	}
}

// TestApply: the interpreter's corner cases.
func TestApply(t *testing.T) {
	for _, c := range []struct {
		op      Op
		a, b, r int64
	}{
		{OpSDiv, math.MinInt64, -1, math.MinInt64},
		{OpSRem, math.MinInt64, -1, 0},
		{OpSDiv, -7, 2, -3},
		{OpSRem, -7, 2, -1},
		{OpUDiv, -1, 2, math.MaxInt64},
		{OpShl, 1, 65, 2},
		{OpAShr, -8, 1, -4},
		{OpLShr, -8, 60, 15},
		{OpULt, -1, 1, 0},
	} {
		if r := Apply(c.op, c.a, c.b); r != c.r {
			t.Errorf("%s(%d, %d) = %d, want %d", c.op, c.a, c.b, r, c.r)
		}
	}
	if Conv(0x1ff, 1, true) != -1 || Conv(-1, 2, false) != 0xffff {
		t.Error("Conv")
	}
	_ = program.InputID{}
}
