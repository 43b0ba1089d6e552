// This file declares the types and errors shared by the cgo binding (z3_cgo.go) and its stub (z3_stub.go).

package z3

import "errors"

// ErrNotBuilt is returned by NewContext when mcr was built without the Z3 binding.
var ErrNotBuilt = errors.New("SMT backend not built: mcr was compiled without cgo or with the noz3 tag; use the explicit backend")

// ErrClosed is returned when a closed Context or Solver (or a zero Context) is used.
var ErrClosed = errors.New("z3: use of a closed Context or Solver")

// ErrAbandoned is the error of a Check that Z3 did not end within a grace
// period of its timeout: the Check was given up and its Context abandoned
// (every later use reports ErrClosed).
var ErrAbandoned = errors.New("z3: check abandoned")

// ReasonRlimit is Solver.ReasonUnknown after a Check stopped by the resource limit of Solver.SetRlimit.
const ReasonRlimit = "resource limit"

// errInvalidTerm describes a Term argument that is the zero Term, belongs to another Context, or was
// released by Reset.
var errInvalidTerm = errors.New("invalid Term (zero, from another Context, or released by Reset)")

// Result is the answer of Solver.Check. The zero value is Unknown.
type Result uint8

const (
	// Unknown: Z3 gave up (timeout, interruption, incompleteness) or Check failed; see the error and
	// Solver.ReasonUnknown.
	Unknown Result = iota
	// Sat: the assertions have a model; Solver.Model returns it.
	Sat
	// Unsat: the assertions have no model.
	Unsat
)

// String returns "unknown", "sat" or "unsat", as in SMT-LIB.
func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Term is an integer, boolean or bit-vector Z3 expression owned by a Context. It is a small value; copy it
// freely. A Term is valid from its creation until its Context's next Reset or Close. The zero Term is
// invalid and is what builders return on failure (see Context.Err). Two Terms built by separate calls may
// denote the same expression without being ==.
type Term struct {
	c   *Context
	gen uint32 // the Context's generation when the Term was made; Reset increments it
	idx uint32 // 1-based index into the Context's arena; 0 only in the zero Term
}

// Model is a satisfying assignment found by the last Check of a Solver that returned Sat. It is valid
// until that Solver's next Assert, Push, Pop, Reset, Check or Close; afterwards Int reports false. The
// Solver owns the underlying Z3 model and releases it; a Model needs no cleanup.
type Model struct {
	s   *Solver
	gen uint64 // the Solver's model generation when the Model was returned
}

// BVOp identifies a binary bit-vector operation of Context.BVBin. Both operands and the result have one
// width. The signed operations read the operands in two's complement.
type BVOp int

const (
	BVAdd  BVOp = iota // a + b modulo 2^width
	BVSub              // a - b modulo 2^width
	BVMul              // a * b modulo 2^width
	BVSDiv             // signed division, rounding toward zero (C's /)
	BVUDiv             // unsigned division
	BVSRem             // signed remainder, with the sign of a (C's %)
	BVURem             // unsigned remainder
	BVAnd              // bitwise and
	BVOr               // bitwise or
	BVXor              // bitwise exclusive or
	BVShl              // a shifted left by b (unsigned) bits: 0 if b >= width
	BVLShr             // a shifted right by b (unsigned) bits, filling with zeros: 0 if b >= width
	BVAShr             // a shifted right by b (unsigned) bits, copying the sign bit
)

// BVCmp identifies a comparison of two bit-vectors of one width, for Context.BVCompare; the result is a
// Boolean term. The signed comparisons read the operands in two's complement.
type BVCmp int

const (
	BVEq  BVCmp = iota // a = b
	BVNe               // a != b
	BVSLt              // a < b, signed
	BVSLe              // a <= b, signed
	BVSGt              // a > b, signed
	BVSGe              // a >= b, signed
	BVULt              // a < b, unsigned
	BVULe              // a <= b, unsigned
	BVUGt              // a > b, unsigned
	BVUGe              // a >= b, unsigned
)
