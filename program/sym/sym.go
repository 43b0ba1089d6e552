// Package sym holds the symbolic side of concolic execution (issue 16):
// terms over a program's inputs with the exact 64-bit semantics of the C
// interpreter's stack machine (program/cfront), the path constraints an
// execution records, the queries built from them, and the explicit solver
// that decides a query by enumerating small input domains.
//
// Every term denotes an int64, as every value on the interpreter's stack
// does: arithmetic wraps at 64 bits, comparisons yield 0 or 1, and Conv is
// the interpreter's opConv (keep the low w bytes, then sign- or
// zero-extend). An input variable denotes its value already normalised to
// its C type (a char input is in [-128, 127]).
package sym

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"mcr/program"
)

// Op is a term's operator.
type Op uint8

// The operators. Binary ones take A and B; unary ones A; Ite takes A (the
// condition, non-zero is true), B and C.
const (
	OpConst Op = iota
	OpVar
	OpAdd
	OpSub
	OpMul
	OpSDiv // the interpreter's signed division: b == -1 gives -a
	OpUDiv
	OpSRem // b == -1 gives 0
	OpURem
	OpAnd
	OpOr
	OpXor
	OpShl  // a << (b & 63)
	OpLShr // logical shift right by b & 63
	OpAShr // arithmetic shift right by b & 63
	OpEq   // 0 or 1
	OpNe
	OpSLt
	OpSLe
	OpULt
	OpULe
	OpNeg
	OpNot  // bitwise complement
	OpConv // W bytes, Signed
	OpIte
)

var opNames = [...]string{"const", "var", "add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "and", "or", "xor",
	"shl", "lshr", "ashr", "eq", "ne", "slt", "sle", "ult", "ule", "neg", "not", "conv", "ite"}

func (o Op) String() string { return opNames[o] }

// Var is an input: the K-th nondeterministic value thread Thread (its
// fork-tree name) asked for, of W bytes (1, 2, 4 or 8), signed or not;
// Bool inputs are 0 or 1.
type Var struct {
	Thread string
	K      int
	W      uint8
	Signed bool
	Bool   bool
	Type   string // the C type's name, for messages ("int", "_Bool")
	// Call is where the input was read: the closing parenthesis of the
	// __VERIFIER_nondet_* (or rand) call, as SV-COMP's witness format 2.0
	// places a function_return waypoint; zero for an uninitialised local.
	Call program.Pos
	// Step is the number of trace events (flushes included) before the
	// input was read: Path.Vars are in execution order, and an input with
	// Step <= n was read before the trace's event n (a witness keeps the
	// inputs read before its violation)
	Step int
}

// ID is the input's identity.
func (v *Var) ID() program.InputID { return program.InputID{Thread: v.Thread, K: v.K} }

// Name is a solver-friendly name: "in_T0.1_3".
func (v *Var) Name() string { return "in_T" + v.Thread + "_" + strconv.Itoa(v.K) }

// Norm normalises a raw value to the input's type.
func (v *Var) Norm(raw int64) int64 {
	if v.Bool {
		if raw != 0 {
			return 1
		}
		return 0
	}
	return Conv(raw, v.W, v.Signed)
}

// DomainSize is the number of values the input can take (0: 2^64).
func (v *Var) DomainSize() uint64 {
	if v.Bool {
		return 2
	}
	if v.W >= 8 {
		return 0
	}
	return 1 << (8 * uint(v.W))
}

// Term is an immutable term. Terms are built by the constructors below
// and shared freely (a term is a DAG).
type Term struct {
	Op      Op
	W       uint8 // OpConv: width in bytes
	Signed  bool  // OpConv
	Val     int64 // OpConst
	Var     *Var  // OpVar
	A, B, C *Term
}

// Const returns the constant v.
func Const(v int64) *Term { return &Term{Op: OpConst, Val: v} }

// NewVar returns the term of input v.
func NewVar(v *Var) *Term { return &Term{Op: OpVar, Var: v} }

// Bin returns a op b.
func Bin(op Op, a, b *Term) *Term { return &Term{Op: op, A: a, B: b} }

// Un returns op a (OpNeg, OpNot).
func Un(op Op, a *Term) *Term { return &Term{Op: op, A: a} }

// ConvTerm returns a normalised to w bytes (the interpreter's conv).
func ConvTerm(a *Term, w uint8, signed bool) *Term {
	if w >= 8 {
		return a
	}
	if a.Op == OpConv && a.W == w && a.Signed == signed {
		return a
	}
	if a.Op == OpVar && (a.Var.Bool || a.Var.W == w && a.Var.Signed == signed || a.Var.W < w && (a.Var.Signed == signed || !a.Var.Signed)) {
		return a // the input's values fit: an identity
	}
	return &Term{Op: OpConv, W: w, Signed: signed, A: a}
}

// Ite returns c != 0 ? a : b.
func Ite(c, a, b *Term) *Term { return &Term{Op: OpIte, A: c, B: a, C: b} }

// Conv is the interpreter's conversion of v to a w-byte integer.
func Conv(v int64, w uint8, signed bool) int64 {
	switch w {
	case 1:
		if signed {
			return int64(int8(v))
		}
		return int64(uint8(v))
	case 2:
		if signed {
			return int64(int16(v))
		}
		return int64(uint16(v))
	case 4:
		if signed {
			return int64(int32(v))
		}
		return int64(uint32(v))
	}
	return v
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Apply computes op on concrete operands exactly as the interpreter does.
// Division by zero gives 0 (the interpreter never divides by zero: it
// records the divisor's constraint and stops with an error).
func Apply(op Op, a, b int64) int64 {
	switch op {
	case OpAdd:
		return a + b
	case OpSub:
		return a - b
	case OpMul:
		return a * b
	case OpSDiv:
		switch b {
		case 0:
			return 0
		case -1:
			return -a
		}
		return a / b
	case OpUDiv:
		if b == 0 {
			return 0
		}
		return int64(uint64(a) / uint64(b))
	case OpSRem:
		switch b {
		case 0:
			return a
		case -1:
			return 0
		}
		return a % b
	case OpURem:
		if b == 0 {
			return a
		}
		return int64(uint64(a) % uint64(b))
	case OpAnd:
		return a & b
	case OpOr:
		return a | b
	case OpXor:
		return a ^ b
	case OpShl:
		return a << (uint64(b) & 63)
	case OpLShr:
		return int64(uint64(a) >> (uint64(b) & 63))
	case OpAShr:
		return a >> (uint64(b) & 63)
	case OpEq:
		return b2i(a == b)
	case OpNe:
		return b2i(a != b)
	case OpSLt:
		return b2i(a < b)
	case OpSLe:
		return b2i(a <= b)
	case OpULt:
		return b2i(uint64(a) < uint64(b))
	case OpULe:
		return b2i(uint64(a) <= uint64(b))
	case OpNeg:
		return -a
	case OpNot:
		return ^a
	}
	panic("sym: Apply of " + op.String())
}

// Env gives inputs their (normalised) values.
type Env func(v *Var) int64

// Eval evaluates t under env. memo may be nil; pass one map to evaluate
// several terms that share subterms.
func Eval(t *Term, env Env, memo map[*Term]int64) int64 {
	if memo == nil {
		memo = map[*Term]int64{}
	}
	return eval(t, env, memo)
}

func eval(t *Term, env Env, memo map[*Term]int64) int64 {
	switch t.Op {
	case OpConst:
		return t.Val
	case OpVar:
		return env(t.Var)
	}
	if v, ok := memo[t]; ok {
		return v
	}
	var r int64
	switch t.Op {
	case OpConv:
		r = Conv(eval(t.A, env, memo), t.W, t.Signed)
	case OpIte:
		if eval(t.A, env, memo) != 0 {
			r = eval(t.B, env, memo)
		} else {
			r = eval(t.C, env, memo)
		}
	case OpNeg, OpNot:
		r = Apply(t.Op, eval(t.A, env, memo), 0)
	default:
		r = Apply(t.Op, eval(t.A, env, memo), eval(t.B, env, memo))
	}
	memo[t] = r
	return r
}

// Vars returns the inputs t mentions, sorted by name, added to seen.
func Vars(t *Term, seen map[*Term]bool, out map[program.InputID]*Var) {
	if seen[t] {
		return
	}
	seen[t] = true
	switch t.Op {
	case OpConst:
		return
	case OpVar:
		out[t.Var.ID()] = t.Var
		return
	}
	for _, c := range []*Term{t.A, t.B, t.C} {
		if c != nil {
			Vars(c, seen, out)
		}
	}
}

// String renders t canonically: each subterm is numbered at its first
// occurrence in a post-order walk and referred to by number afterwards,
// so that shared subterms are printed once.
func (t *Term) String() string {
	var b strings.Builder
	p := printer{ids: map[*Term]int{}, b: &b}
	p.print(t)
	return b.String()
}

type printer struct {
	ids map[*Term]int
	b   *strings.Builder
}

func (p *printer) print(t *Term) {
	switch t.Op {
	case OpConst:
		p.b.WriteString(strconv.FormatInt(t.Val, 10))
		return
	case OpVar:
		p.b.WriteString(t.Var.Name())
		return
	}
	if id, ok := p.ids[t]; ok {
		fmt.Fprintf(p.b, "#%d", id)
		return
	}
	p.b.WriteByte('(')
	p.b.WriteString(t.Op.String())
	if t.Op == OpConv {
		fmt.Fprintf(p.b, "%d%c", t.W, "us"[b2i(t.Signed)])
	}
	for _, c := range []*Term{t.A, t.B, t.C} {
		if c != nil {
			p.b.WriteByte(' ')
			p.print(c)
		}
	}
	p.b.WriteByte(')')
	p.ids[t] = len(p.ids)
}

// Constraint is one input-dependent decision of an execution: the branch
// condition Term was non-zero (Taken) or zero. A concretisation (a
// symbolic address, index or argument taken at its concrete value) is the
// constraint term == value, taken.
type Constraint struct {
	Term   *Term
	Taken  bool
	Pos    program.Pos
	Thread program.ThreadID
	// Events is the number of events of Thread before the decision: it
	// lies between event Events-1 and event Events of its thread.
	Events int32
	// What says what the constraint is for messages ("branch", "assume",
	// "index", ...).
	What string
	// Conc: a concretisation, Term is (t == Value). Flipping it asks for
	// a value of t not seen yet at this point of the path.
	Conc  bool
	Value int64
}

// Holds reports whether c holds under env.
func (c *Constraint) Holds(env Env, memo map[*Term]int64) bool {
	return (Eval(c.Term, env, memo) != 0) == c.Taken
}

// Key is c's canonical text.
func (c *Constraint) Key() string {
	if c.Taken {
		return c.Term.String()
	}
	return "(not " + c.Term.String() + ")"
}

// Path is what an execution records for concolic exploration: its
// input-dependent constraints in the order they were met, the inputs it
// read, and why its input handling is incomplete ("" if it is not).
type Path struct {
	Constraints []Constraint
	Vars        []*Var
	Incomplete  string
	// StoreTerms gives the term of each write event (by trace position)
	// that stored an input-derived value in shared memory; StoreUnknown
	// says why a store of such a value has no event known ("" if none).
	// Explorers that tell executions apart by read values need to know
	// whether a read's value tells its term (explore.valuesTellTerms).
	StoreTerms   map[int32]*Term
	StoreUnknown string
}

// Query asks for input values under which every constraint of Keep holds
// and Flip does not.
type Query struct {
	Keep []Constraint
	Flip Constraint
}

// Vars returns the inputs the query mentions, sorted by name.
func (q *Query) Vars() []*Var {
	m := map[program.InputID]*Var{}
	seen := map[*Term]bool{}
	for i := range q.Keep {
		Vars(q.Keep[i].Term, seen, m)
	}
	Vars(q.Flip.Term, seen, m)
	out := make([]*Var, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// Status is a solver's answer.
type Status uint8

const (
	Unknown Status = iota
	Sat
	Unsat
)

func (s Status) String() string { return [...]string{"unknown", "sat", "unsat"}[s] }

// Solver decides queries. On Sat the model gives values (normalised) to
// the query's inputs; an Unknown answer carries a reason.
type Solver interface {
	Solve(q *Query) (Status, map[program.InputID]int64, string)
}
