package encode

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"mcr/encode/z3"
	"mcr/explicit"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/sym"
)

// randTerm builds a random term over vars, of depth at most d. Divisors
// are made non-zero (x | 1), since division by zero never reaches a query
// (its divisor's constraint comes first) and the two semantics differ
// there.
func randTerm(r *rand.Rand, vars []*sym.Term, d int) *sym.Term {
	if d == 0 || r.IntN(4) == 0 {
		if r.IntN(3) == 0 {
			return sym.Const(int64(r.IntN(11) - 5))
		}
		return vars[r.IntN(len(vars))]
	}
	a, b := randTerm(r, vars, d-1), randTerm(r, vars, d-1)
	switch k := r.IntN(20); {
	case k < 13:
		ops := []sym.Op{sym.OpAdd, sym.OpSub, sym.OpMul, sym.OpAnd, sym.OpOr, sym.OpXor, sym.OpShl, sym.OpLShr, sym.OpAShr,
			sym.OpEq, sym.OpNe, sym.OpSLt, sym.OpSLe}
		return sym.Bin(ops[k], a, b)
	case k < 15:
		ops := []sym.Op{sym.OpULt, sym.OpULe, sym.OpSDiv, sym.OpUDiv, sym.OpSRem, sym.OpURem}
		op := ops[r.IntN(len(ops))]
		if op != sym.OpULt && op != sym.OpULe {
			b = sym.Bin(sym.OpOr, b, sym.Const(1))
		}
		return sym.Bin(op, a, b)
	case k < 17:
		return sym.ConvTerm(a, []uint8{1, 2, 4}[r.IntN(3)], r.IntN(2) == 0)
	case k < 18:
		return sym.Un([]sym.Op{sym.OpNeg, sym.OpNot}[r.IntN(2)], a)
	default:
		return sym.Ite(a, b, randTerm(r, vars, d-1))
	}
}

// TestInputSolverRandom: Z3's bit-vector translation and the explicit
// solver (enumerating the whole domain) agree on random queries over
// small inputs, and every model satisfies its query by evaluation.
func TestInputSolverRandom(t *testing.T) {
	if !z3.Available() {
		t.Skip("no Z3")
	}
	r := rand.New(rand.NewPCG(1, 2))
	types := []sym.Var{{W: 1, Signed: true}, {W: 1}, {Bool: true, W: 1}, {W: 2, Signed: true}}
	cc := &sym.CrossCheck{A: InputSolver{Timeout: 10 * time.Second}, B: sym.Explicit{Limit: 1 << 17}}
	n, sat := 300, 0
	for i := 0; i < n; i++ {
		var vars []*sym.Term
		for k := 0; k < 1+r.IntN(2); k++ {
			v := types[r.IntN(len(types))]
			if k == 1 && v.W == 2 {
				v = types[2]
			}
			v.Thread, v.K = "0", k
			vars = append(vars, sym.NewVar(&v))
		}
		q := &sym.Query{Flip: sym.Constraint{Term: randTerm(r, vars, 4), Taken: r.IntN(2) == 0}}
		for k := 0; k < r.IntN(3); k++ {
			q.Keep = append(q.Keep, sym.Constraint{Term: randTerm(r, vars, 3), Taken: r.IntN(2) == 0})
		}
		if st, _, _ := cc.Solve(q); st == sym.Sat {
			sat++
		}
	}
	if cc.Disagreements > 0 {
		t.Fatalf("%d disagreements; first: %s", cc.Disagreements, cc.First)
	}
	t.Logf("%d queries, %d decided by both, %d sat", n, cc.Both, sat)
	if cc.Both < n*9/10 || sat == 0 || sat == n {
		t.Errorf("%d of %d queries decided by both, %d sat", cc.Both, n, sat)
	}
}

// TestInputSolverTestdata: on the queries of the testdata programs with
// inputs, Z3 and the explicit solver agree wherever both decide.
func TestInputSolverTestdata(t *testing.T) {
	if !z3.Available() {
		t.Skip("no Z3")
	}
	files, _ := filepath.Glob("../testdata/c/inputs/*.c")
	both := 0
	for _, f := range files {
		p, err := cfront.Load(f, cfront.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cc := &sym.CrossCheck{A: InputSolver{Timeout: 10 * time.Second}, B: sym.Explicit{}}
		explore.ExploreInputs(context.Background(), &explicit.RF, p, explore.Options{KeepGoing: true}, explore.Config{Workers: 1},
			explore.InputOptions{Solver: cc})
		if cc.Disagreements > 0 {
			t.Errorf("%s: %d disagreements; first: %s", f, cc.Disagreements, cc.First)
		}
		both += cc.Both
	}
	if both == 0 {
		t.Error("no query decided by both")
	}
}
