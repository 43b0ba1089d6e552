//go:build cgo && !noz3

package z3

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// mask returns the w low bits set (w in 0..64).
func mask(w uint) uint64 {
	if w == 0 {
		return 0
	}
	return ^uint64(0) >> (64 - w)
}

// signed reads the low w bits of a in two's complement.
func signed(a uint64, w uint) int64 { return int64(a<<(64-w)) >> (64 - w) }

// refBin is BVBin's operation on w-bit values, computed with Go's integers: division and remainder by
// zero as in SMT-LIB, shifts by w or more bits as in SMT-LIB (not as in C, where they are undefined).
func refBin(op BVOp, a, b uint64, w uint) uint64 {
	m := mask(w)
	sa, sb := signed(a, w), signed(b, w)
	switch op {
	case BVAdd:
		return (a + b) & m
	case BVSub:
		return (a - b) & m
	case BVMul:
		return (a * b) & m
	case BVUDiv:
		if b == 0 {
			return m
		}
		return a / b
	case BVURem:
		if b == 0 {
			return a
		}
		return a % b
	case BVSDiv:
		if b == 0 { // -1 for a >= 0, 1 for a < 0
			if sa >= 0 {
				return m
			}
			return 1
		}
		return uint64(sa/sb) & m // Go truncates toward zero, and MinInt64 / -1 wraps to MinInt64
	case BVSRem:
		if b == 0 {
			return a
		}
		return uint64(sa%sb) & m // the sign of the dividend, as C's %
	case BVAnd:
		return a & b
	case BVOr:
		return a | b
	case BVXor:
		return a ^ b
	case BVShl:
		if b >= uint64(w) {
			return 0
		}
		return (a << b) & m
	case BVLShr:
		if b >= uint64(w) {
			return 0
		}
		return a >> b
	case BVAShr:
		if b >= uint64(w) {
			b = uint64(w) - 1 // every bit a copy of the sign bit
		}
		return uint64(sa>>b) & m
	}
	panic(fmt.Sprintf("op %d", op))
}

// refCmp is BVCompare's comparison of w-bit values.
func refCmp(op BVCmp, a, b uint64, w uint) bool {
	sa, sb := signed(a, w), signed(b, w)
	switch op {
	case BVEq:
		return a == b
	case BVNe:
		return a != b
	case BVSLt:
		return sa < sb
	case BVSLe:
		return sa <= sb
	case BVSGt:
		return sa > sb
	case BVSGe:
		return sa >= sb
	case BVULt:
		return a < b
	case BVULe:
		return a <= b
	case BVUGt:
		return a > b
	case BVUGe:
		return a >= b
	}
	panic(fmt.Sprintf("cmp %d", op))
}

// operand returns a random w-bit value, often one where the operations have edge cases: 0, 1, all ones,
// the signed extremes, or a shift amount around w.
func operand(r *rand.Rand, w uint) uint64 {
	m := mask(w)
	switch r.IntN(4) {
	case 0:
		edges := []uint64{0, 1, 2, m, m - 1, m >> 1, m>>1 + 1, uint64(w) - 1, uint64(w), uint64(w) + 1}
		return edges[r.IntN(len(edges))] & m
	case 1:
		return r.Uint64N(uint64(w)+2) & m
	}
	return r.Uint64() & m
}

// TestBVOps checks every bit-vector builder against Go's arithmetic on random operands of widths 1, 8, 16,
// 32 and 64: each result is asserted equal to a fresh constant, whose value in the model must be Go's.
func TestBVOps(t *testing.T) {
	const pairs = 30 // per width
	r := rand.New(rand.NewPCG(1, 2))
	c, s := newContext(t)
	for _, w := range []uint{1, 8, 16, 32, 64} {
		for range pairs {
			a, b := operand(r, w), operand(r, w)
			hi := uint(r.IntN(int(w)))
			lo := uint(r.IntN(int(hi) + 1))
			n := uint(r.IntN(int(64-w) + 1))
			c.Reset()
			s.Reset()
			x, y := c.BVVar("a", w), c.BVVar("b", w)
			assertAll(t, s, c.Eq(x, c.BV(a, w)), c.Eq(y, c.BV(b, w)))

			type want struct {
				name  string
				term  Term // the operation on x (and y)
				width uint
				value uint64
			}
			var ws []want
			for op := BVAdd; op <= BVAShr; op++ {
				ws = append(ws, want{fmt.Sprintf("BVBin(%d)", op), c.BVBin(op, x, y), w, refBin(op, a, b, w)})
			}
			var cmps []Term
			for op := BVEq; op <= BVUGe; op++ {
				f := c.BVCompare(op, x, y)
				cmps = append(cmps, f)
				ws = append(ws, want{fmt.Sprintf("BVCompare(%d)", op), c.BoolToBV(f, 1), 1, b2u(refCmp(op, a, b, w))})
			}
			sx := uint64(signed(a, w)) & mask(w+n)
			ws = append(ws,
				want{"BVNeg", c.BVNeg(x), w, -a & mask(w)},
				want{"BVNot", c.BVNot(x), w, ^a & mask(w)},
				want{fmt.Sprintf("Extract(%d, %d)", hi, lo), c.Extract(hi, lo, x), hi - lo + 1, a >> lo & mask(hi-lo+1)},
				want{fmt.Sprintf("SignExt(%d)", n), c.SignExt(n, x), w + n, sx},
				want{fmt.Sprintf("ZeroExt(%d)", n), c.ZeroExt(n, x), w + n, a},
				want{"Ite(a <u b)", c.Ite(c.BVCompare(BVULt, x, y), x, y), w, min(a, b)},
				want{"BoolToBV(a = b)", c.BoolToBV(c.Eq(x, y), w), w, b2u(a == b)},
			)
			for i, wt := range ws {
				assertAll(t, s, c.Eq(c.BVVar(fmt.Sprint("r", i), wt.width), wt.term))
			}
			check(t, s, Sat)
			m, err := s.Model()
			if err != nil {
				t.Fatal(err)
			}
			for i, wt := range ws {
				got, ok := m.BV(c.BVVar(fmt.Sprint("r", i), wt.width))
				if !ok || got != wt.value {
					t.Errorf("%d bits, a = %#x, b = %#x: %s = %#x, %v; Go computes %#x", w, a, b, wt.name, got, ok, wt.value)
				}
			}
			for i, f := range cmps {
				op := BVEq + BVCmp(i)
				if got, ok := m.Bool(f); !ok || got != refCmp(op, a, b, w) {
					t.Errorf("%d bits, a = %#x, b = %#x: Model.Bool(BVCompare(%d)) = %v, %v", w, a, b, op, got, ok)
				}
			}
		}
	}
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func TestBVSolve(t *testing.T) {
	c, s := newContext(t)
	x := c.BVVar("x", 8)
	// x*3 + 1 = 16 over 8 bits: x = 5, the one solution since 3 is odd.
	assertAll(t, s, c.Eq(c.BVBin(BVAdd, c.BVBin(BVMul, x, c.BV(3, 8)), c.BV(1, 8)), c.BV(16, 8)))
	check(t, s, Sat)
	m, _ := s.Model()
	if v, ok := m.BV(x); !ok || uint8(v*3+1) != 16 {
		t.Errorf("x = %d, %v; want x*3 + 1 = 16 (mod 256)", v, ok)
	}

	// Signed overflow: y > 0 and y + 1 < 0 over 32 bits holds only for the largest int32.
	s.Reset()
	y := c.BVVar("y", 32)
	zero := c.BV(0, 32)
	assertAll(t, s, c.BVCompare(BVSGt, y, zero), c.BVCompare(BVSLt, c.BVBin(BVAdd, y, c.BV(1, 32)), zero))
	check(t, s, Sat)
	m, _ = s.Model()
	if v, ok := m.BV(y); !ok || v != 1<<31-1 {
		t.Errorf("y = %#x, %v; want 0x7fffffff", v, ok)
	}

	// BVVar is cached per name and width, and names a constant apart from an IntVar of the same name.
	s.Reset()
	if c.BVVar("x", 8) != x {
		t.Error("BVVar(x, 8) is not cached")
	}
	assertAll(t, s, c.Eq(x, c.BV(1, 8)), c.Eq(c.BVVar("x", 16), c.BV(2, 16)), c.Eq(c.IntVar("x"), c.Int(3)))
	check(t, s, Sat)

	// No square is 3 modulo 8, so none is 3 modulo 2^32. (A QF_IDL solver answered sat with x = 0.)
	s.Reset()
	z := c.BVVar("z", 32)
	assertAll(t, s, c.Eq(c.BVBin(BVMul, z, z), c.BV(3, 32)))
	check(t, s, Unsat)

	s.Reset()
	assertAll(t, s, c.BVCompare(BVULt, x, c.BV(5, 8)), c.BVCompare(BVUGt, x, c.BV(10, 8)))
	check(t, s, Unsat)
}

func TestBVModel(t *testing.T) {
	c, s := newContext(t)
	x := c.BVVar("x", 64)
	assertAll(t, s, c.Eq(x, c.BV(^uint64(0), 64)))
	check(t, s, Sat)
	m, _ := s.Model()
	if v, ok := m.BV(x); !ok || v != ^uint64(0) {
		t.Errorf("BV(x) = %#x, %v; want all ones", v, ok)
	}
	if v, ok := m.BV(c.BVVar("free", 16)); !ok || v != 0 { // model completion
		t.Errorf("BV(free) = %d, %v; want 0, true", v, ok)
	}
	if v, ok := m.BV(c.BV(0x1ff, 8)); !ok || v != 0xff { // BV keeps the low width bits
		t.Errorf("BV(0x1ff, 8) = %#x, %v; want 0xff", v, ok)
	}
	for name, f := range map[string]Term{
		"a 72-bit term": c.SignExt(8, x),
		"an integer":    c.Int(1),
		"a formula":     c.True(),
		"the zero Term": {},
	} {
		if _, ok := m.BV(f); ok {
			t.Errorf("BV of %s succeeded", name)
		}
	}
	if v, ok := m.Bool(c.BVCompare(BVULt, c.BVVar("free", 16), c.BV(0, 16))); !ok || v {
		t.Errorf("Bool(free <u 0) = %v, %v; want false, true", v, ok)
	}
	if v, ok := m.Bool(c.Eq(x, c.BV(^uint64(0), 64))); !ok || !v {
		t.Errorf("Bool(x = -1) = %v, %v; want true, true", v, ok)
	}
	if _, ok := m.Bool(x); ok {
		t.Error("Bool of a bit-vector succeeded")
	}
	assertAll(t, s, c.True())
	if _, ok := m.BV(x); ok {
		t.Error("BV on a stale model succeeded")
	}
	if _, ok := m.Bool(c.True()); ok {
		t.Error("Bool on a stale model succeeded")
	}
}

// TestBVErrors checks that sort and width errors, found by the binding or by Z3, fail the builder and
// leave the Context and Solver usable.
func TestBVErrors(t *testing.T) {
	c, s := newContext(t)
	for _, tt := range []struct {
		name string
		f    func(x8, y16 Term) Term
		want string // in the error
	}{
		{"BVBin of 8 and 16 bits", func(x8, y16 Term) Term { return c.BVBin(BVAdd, x8, y16) }, "8 and 16 bits"},
		{"BVCompare of 16 and 8 bits", func(x8, y16 Term) Term { return c.BVCompare(BVSLt, y16, x8) }, "16 and 8 bits"},
		{"BVBin of an integer", func(x8, y16 Term) Term { return c.BVBin(BVMul, x8, c.Int(2)) }, "not a bit-vector"},
		{"BVNeg of a formula", func(x8, y16 Term) Term { return c.BVNeg(c.True()) }, "not a bit-vector"},
		{"unknown BVOp", func(x8, y16 Term) Term { return c.BVBin(BVAShr+1, x8, x8) }, "unknown operation"},
		{"unknown BVCmp", func(x8, y16 Term) Term { return c.BVCompare(-1, x8, x8) }, "unknown comparison"},
		{"BVVar of 0 bits", func(x8, y16 Term) Term { return c.BVVar("v", 0) }, "not in 1..64"},
		{"BV of 65 bits", func(x8, y16 Term) Term { return c.BV(1, 65) }, "not in 1..64"},
		{"BVVar NUL", func(x8, y16 Term) Term { return c.BVVar("a\x00b", 8) }, "NUL"},
		{"Extract past the top", func(x8, y16 Term) Term { return c.Extract(8, 0, x8) }, "bits 8..0 of a term of 8 bits"},
		{"Extract hi < lo", func(x8, y16 Term) Term { return c.Extract(2, 3, x8) }, "bits 2..3"},
		{"SignExt too wide", func(x8, y16 Term) Term { return c.SignExt(1<<16, x8) }, "more than 65536 bits"},
		{"ZeroExt huge", func(x8, y16 Term) Term { return c.ZeroExt(^uint(0), x8) }, "more than 65536 bits"},
		{"BoolToBV of 0 bits", func(x8, y16 Term) Term { return c.BoolToBV(c.True(), 0) }, "not in 1..64"},
		// Found by Z3, through its error handler:
		{"Ite of 8 and 16 bits", func(x8, y16 Term) Term { return c.Ite(c.True(), x8, y16) }, "Ite: Sort"},
		{"Ite on a bit-vector", func(x8, y16 Term) Term { return c.Ite(x8, x8, x8) }, "Ite: Sort"},
		{"BoolToBV of a bit-vector", func(x8, y16 Term) Term { return c.BoolToBV(x8, 8) }, "BoolToBV: Sort"},
		{"Eq of 8 and 16 bits", func(x8, y16 Term) Term { return c.Eq(x8, y16) }, "Eq: Sort"},
	} {
		c.Reset()
		x8, y16 := c.BVVar("x", 8), c.BVVar("y", 16)
		if c.Err() != nil {
			t.Fatal(c.Err())
		}
		if f := tt.f(x8, y16); f != (Term{}) {
			t.Errorf("%s succeeded", tt.name)
			continue
		}
		if err := c.Err(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Err = %v; want one mentioning %q", tt.name, err, tt.want)
		}
	}
	c.Reset()
	x := c.BVVar("x", 8)
	if err := s.Assert(c.BVCompare(BVEq, x, c.BV(1, 16))); err == nil || !strings.Contains(err.Error(), "8 and 16 bits") {
		t.Errorf("Assert of a failed comparison = %v; want the width error", err)
	}
	c.Reset()
	assertAll(t, s, c.Eq(c.BVVar("x", 8), c.BV(7, 8)))
	check(t, s, Sat) // the failures left the solver usable
	c.Close()
	if c.BV(1, 8) != (Term{}) || c.BVVar("x", 8) != (Term{}) || c.Err() != ErrClosed {
		t.Error("bit-vector builders work on a closed Context")
	}
}

// TestBVSolverKind checks that a Solver leaves QF_IDL for bit-vector formulas, also ones that are
// bit-vector comparisons inside integer and boolean terms, and refuses them once it holds order
// constraints.
func TestBVSolverKind(t *testing.T) {
	c, s := newContext(t)
	z := c.BVVar("z", 32)
	square3 := c.Eq(c.BVBin(BVMul, z, z), c.BV(3, 32)) // unsat, but sat for the QF_IDL solver
	for name, f := range map[string]func() Term{
		"Not":     func() Term { return c.Not(c.Not(square3)) },
		"And":     func() Term { return c.And(c.Lt(c.Var(0), c.Var(1)), square3) },
		"Implies": func() Term { return c.Implies(c.True(), square3) },
		"Ite, Add": func() Term {
			return c.Eq(c.Add(c.Ite(square3, c.Int(1), c.Int(0)), 1), c.Int(2))
		},
	} {
		s.Close()
		s, _ = c.NewSolver()
		assertAll(t, s, f())
		if res, err := s.Check(context.Background(), 0); res != Unsat || err != nil {
			t.Errorf("%s: Check = %v, %v; want unsat", name, res, err)
		}
	}

	// Open scopes carry over to the new solver; Reset keeps it.
	s.Close()
	s, _ = c.NewSolver()
	for range 2 {
		if err := s.Push(); err != nil {
			t.Fatal(err)
		}
	}
	assertAll(t, s, square3)
	check(t, s, Unsat)
	if err := s.Pop(2); err != nil {
		t.Fatal(err)
	}
	check(t, s, Sat)
	if err := s.Pop(1); err == nil {
		t.Error("Pop(1) with no open scope succeeded")
	}
	s.Reset()
	assertAll(t, s, c.Lt(c.Var(0), c.Var(1)), square3)
	check(t, s, Unsat)

	s.Close()
	s, _ = c.NewSolver()
	assertAll(t, s, c.Lt(c.Var(0), c.Var(1)))
	if err := s.Assert(square3); err == nil || !strings.Contains(err.Error(), "bit-vector") {
		t.Errorf("Assert of a bit-vector formula after order constraints = %v; want an error", err)
	}
	check(t, s, Sat) // the order constraints alone
}

// An input x of a C program, an unsigned char, must satisfy x*3 + 1 == 16 to take a branch.
func ExampleContext_BVBin() {
	c, err := NewContext()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	s, _ := c.NewSolver()
	x := c.BVVar("x", 8)
	s.Assert(c.BVCompare(BVEq, c.BVBin(BVAdd, c.BVBin(BVMul, x, c.BV(3, 8)), c.BV(1, 8)), c.BV(16, 8)))
	res, _ := s.Check(context.Background(), time.Second)
	m, _ := s.Model()
	v, _ := m.BV(x)
	fmt.Println(res, v)
	// Output: sat 5
}
