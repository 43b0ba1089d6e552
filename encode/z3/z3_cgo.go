//go:build cgo && !noz3

// This file implements the binding: it and bv_cgo.go, the bit-vector terms, are the only files in mcr
// that use cgo or C types.
//
// Every Z3 call that can fail goes through one of the small C helpers below, so that a Go operation costs
// one cgo call and the error of that call is read on the OS thread that made it. Z3 reports errors by
// calling the context's error handler; mcr_on_error records the code in a thread-local variable that the
// helper clears before and returns after its Z3 calls. (Z3's default handler prints and calls exit.)

package z3

/*
#cgo LDFLAGS: -lz3
#include "mcr_z3.h"
__thread int mcr_err;
*/
import "C"

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// lifecycle serialises creating and deleting Z3 contexts, which touch Z3's global state.
var lifecycle sync.Mutex

// The malloc arenas are capped at the number of CPUs (at least 2): about one per concurrent Check, which
// is what mcr runs (one Context per worker), instead of glibc's 8 per core (see mcr_malloc_arenas). Z3's
// global parameters are set here too, before any Context exists (see mcr_global_params).
func init() {
	C.mcr_malloc_arenas(C.int(max(2, runtime.NumCPU())))
	C.mcr_global_params()
}

// TrimMemory returns the memory that released formulas left free in the C heap to the system, so that
// the process's resident size follows the formulas alive (call it after Context.Reset). It walks the
// heap's free chunks: cheap next to building and checking the formula it follows.
func TrimMemory() { C.mcr_malloc_trim() }

// Available reports whether this build of mcr contains the Z3 binding. It is true here.
func Available() bool { return true }

// Context is one Z3 context: the factory and owner of Terms and Solvers. It is not safe for concurrent use;
// give each worker goroutine its own. The zero Context is closed. See the package documentation for the
// lifetimes of what it creates.
type Context struct {
	z       C.Z3_context // nil once closed
	ints    C.Z3_sort    // the integer sort, referenced
	cleanup runtime.Cleanup

	bvs     [64]C.Z3_sort     // bvs[w-1] is the bit-vector sort of width w once made, referenced
	gen     uint32            // generation of the live Terms
	asts    []C.Z3_ast        // the arena: asts[i-1] is the AST of Term index i; each holds one reference
	widths  []uint32          // widths[i-1] is the width of Term i if it is a bit-vector, else 0
	bvIn    []bool            // bvIn[i-1]: Term i is or contains a bit-vector term (see Solver.Assert)
	vars    []uint32          // vars[i] is the arena index of Var(i) in this generation, 0 if none yet
	bools   []uint32          // bools[i] is the arena index of BoolVar(i) in this generation, 0 if none yet
	names   map[string]uint32 // arena index of IntVar(name) in this generation
	bvNames map[bvName]uint32 // arena index of BVVar(name, width) in this generation
	tru     uint32            // arena index of True(), 0 if none yet
	fls     uint32            // arena index of False(), 0 if none yet
	scratch []C.Z3_ast        // arguments of n-ary builders
	err     error             // first builder error in this generation
	solvers map[*Solver]struct{}

	imu      sync.Mutex // guards checking against interrupts sent by cancelled Checks
	checking uint64     // sequence number of the Check running now, 0 if none
	checks   uint64     // Checks started so far
}

// NewContext creates a Context with Z3's default configuration and an error handler that turns Z3 errors
// into Go errors. The caller must Close it; if it does not, the garbage collector releases it eventually.
func NewContext() (*Context, error) {
	lifecycle.Lock()
	r := C.mcr_new_context()
	contextMade.Store(true)
	lifecycle.Unlock()
	if r.c == nil {
		return nil, fmt.Errorf("z3: NewContext: Z3 could not create a context")
	}
	c := &Context{z: r.c, ints: r.ints, names: map[string]uint32{}, bvNames: map[bvName]uint32{},
		solvers: map[*Solver]struct{}{}}
	c.cleanup = runtime.AddCleanup(c, deleteContext, r)
	return c, nil
}

// deleteContext frees a Z3 context and every object in it, whatever their reference counts.
func deleteContext(r C.mcr_context) {
	lifecycle.Lock()
	C.mcr_del_context(r.c, r.ints)
	lifecycle.Unlock()
}

// Close releases the Context, its Terms and its Solvers (and so their Models). Using any of them
// afterwards reports ErrClosed or an invalid Term. Close is idempotent.
func (c *Context) Close() {
	if c.z == nil {
		return
	}
	for s := range c.solvers {
		s.Close()
	}
	c.release()
	for _, s := range c.bvs {
		if s != nil {
			C.mcr_dec_sort(c.z, s)
		}
	}
	c.cleanup.Stop()
	deleteContext(C.mcr_context{c: c.z, ints: c.ints})
	c.z, c.ints, c.bvs = nil, nil, [64]C.Z3_sort{}
	c.gen++
	c.asts, c.widths, c.bvIn, c.vars, c.bools, c.scratch = nil, nil, nil, nil, nil, nil
	c.names, c.bvNames, c.solvers = nil, nil, nil
	c.tru, c.fls, c.err = 0, 0, nil
}

// Reset releases every Term made since NewContext or the previous Reset, and clears Err. Terms made
// before are invalid afterwards (builders and Assert report them, Model.Int returns false). Solvers are
// untouched: what they were asserted stays asserted, for Z3 holds its own references.
func (c *Context) Reset() {
	if c.z == nil {
		return
	}
	c.release()
	c.gen++
	c.vars = c.vars[:0]
	c.bools = c.bools[:0]
	clear(c.names)
	clear(c.bvNames)
	c.tru, c.fls = 0, 0
	c.err = nil
}

// release drops the arena's references.
func (c *Context) release() {
	if len(c.asts) > 0 {
		C.mcr_dec_refs(c.z, &c.asts[0], C.size_t(len(c.asts)))
	}
	clear(c.asts)
	c.asts, c.widths, c.bvIn = c.asts[:0], c.widths[:0], c.bvIn[:0]
}

// Err returns the first error of a Term builder since NewContext or the last Reset, or nil. A Context
// closed (or zero) reports ErrClosed.
func (c *Context) Err() error {
	if c.z == nil {
		return ErrClosed
	}
	return c.err
}

// fail records err as the builder error of op, unless an earlier one is recorded, and returns the zero Term.
func (c *Context) fail(op string, err error) Term {
	if c.err == nil {
		c.err = fmt.Errorf("z3: %s: %w", op, err)
	}
	return Term{}
}

// z3Error turns a Z3 error code into an error for op. It must run before the next Z3 call on c, which
// may replace the message.
func (c *Context) z3Error(op string, code C.int) error {
	msg := "error " + strconv.Itoa(int(code))
	if c.z != nil {
		msg = C.GoString(C.Z3_get_error_msg(c.z, C.Z3_error_code(code)))
	}
	return fmt.Errorf("z3: %s: %s", op, msg)
}

// ast returns the Z3 AST of t, or false if t is not a live Term of c.
func (c *Context) ast(t Term) (C.Z3_ast, bool) {
	if t.c != c || t.gen != c.gen || t.idx == 0 || int(t.idx) > len(c.asts) {
		return nil, false
	}
	return c.asts[t.idx-1], true
}

// keep adds the result of a C constructor to the arena.
func (c *Context) keep(op string, r C.mcr_ast) Term {
	if r.err != C.Z3_OK {
		if c.err == nil {
			c.err = c.z3Error(op, r.err)
		}
		return Term{}
	}
	c.asts = append(c.asts, r.a)
	c.widths = append(c.widths, uint32(r.width))
	c.bvIn = append(c.bvIn, r.width > 0)
	return Term{c: c, gen: c.gen, idx: uint32(len(c.asts))}
}

// inherit records that t, just made from the live Terms args, contains a bit-vector term if one of them
// does, and returns t.
func (c *Context) inherit(t Term, args ...Term) Term {
	if t.idx == 0 {
		return t
	}
	for _, a := range args {
		if c.bvIn[a.idx-1] {
			c.bvIn[t.idx-1] = true
			break
		}
	}
	return t
}

// term returns the live Term of c at arena index idx.
func (c *Context) term(idx uint32) Term { return Term{c: c, gen: c.gen, idx: idx} }

// Var returns the integer constant named "o<i>" for an id i >= 0, made once per generation and then
// cached: Var(i) == Var(i) until the next Reset. It is the same Z3 constant as IntVar("o<i>"). Ids should be
// dense: the cache is a slice indexed by i.
func (c *Context) Var(i int) Term {
	if c.z == nil {
		return c.fail("Var", ErrClosed)
	}
	if i < 0 || i > math.MaxInt32 {
		return c.fail("Var", fmt.Errorf("id %d out of range", i))
	}
	if i < len(c.vars) && c.vars[i] != 0 {
		return c.term(c.vars[i])
	}
	t := c.keep("Var", C.mcr_mk_var(c.z, c.ints, nil, C.longlong(i)))
	if t.idx != 0 {
		if i >= len(c.vars) {
			c.vars = append(c.vars, make([]uint32, i+1-len(c.vars))...)
		}
		c.vars[i] = t.idx
	}
	return t
}

// BoolVar returns the boolean constant named "b<i>" for an id i >= 0, cached like Var.
func (c *Context) BoolVar(i int) Term {
	if c.z == nil {
		return c.fail("BoolVar", ErrClosed)
	}
	if i < 0 || i > math.MaxInt32 {
		return c.fail("BoolVar", fmt.Errorf("id %d out of range", i))
	}
	if i < len(c.bools) && c.bools[i] != 0 {
		return c.term(c.bools[i])
	}
	t := c.keep("BoolVar", C.mcr_mk_bool_var(c.z, C.longlong(i)))
	if t.idx != 0 {
		if i >= len(c.bools) {
			c.bools = append(c.bools, make([]uint32, i+1-len(c.bools))...)
		}
		c.bools[i] = t.idx
	}
	return t
}

// IntVar returns the integer constant called name, cached like Var. The name must not contain a NUL byte.
func (c *Context) IntVar(name string) Term {
	if c.z == nil {
		return c.fail("IntVar", ErrClosed)
	}
	if idx, ok := c.names[name]; ok {
		return c.term(idx)
	}
	if strings.IndexByte(name, 0) >= 0 {
		return c.fail("IntVar", fmt.Errorf("name %q contains a NUL byte", name))
	}
	cs := C.CString(name)
	t := c.keep("IntVar", C.mcr_mk_var(c.z, c.ints, cs, 0))
	C.free(unsafe.Pointer(cs))
	if t.idx != 0 {
		c.names[name] = t.idx
	}
	return t
}

// Int returns the integer literal v.
func (c *Context) Int(v int64) Term {
	if c.z == nil {
		return c.fail("Int", ErrClosed)
	}
	return c.keep("Int", C.mcr_mk_int(c.z, c.ints, C.int64_t(v)))
}

// True returns the boolean constant true.
func (c *Context) True() Term { return c.boolean("True", &c.tru, true) }

// False returns the boolean constant false.
func (c *Context) False() Term { return c.boolean("False", &c.fls, false) }

func (c *Context) boolean(op string, cache *uint32, v bool) Term {
	if c.z == nil {
		return c.fail(op, ErrClosed)
	}
	if *cache == 0 {
		*cache = c.keep(op, C.mcr_mk_bool(c.z, C.bool(v))).idx
		if *cache == 0 {
			return Term{}
		}
	}
	return c.term(*cache)
}

// Add returns the integer term t + k; t itself if k == 0.
func (c *Context) Add(t Term, k int64) Term { return c.offset("Add", C.MCR_ADD, t, k) }

// Sub returns the integer term t - k; t itself if k == 0.
func (c *Context) Sub(t Term, k int64) Term { return c.offset("Sub", C.MCR_SUB, t, k) }

func (c *Context) offset(op string, code C.int, t Term, k int64) Term {
	a, ok := c.args1(op, t)
	if !ok {
		return Term{}
	}
	if k == 0 {
		return t
	}
	return c.inherit(c.keep(op, C.mcr_mk_offset(c.z, c.ints, code, a, C.int64_t(k))), t)
}

// Lt returns the formula a < b of two integer terms.
func (c *Context) Lt(a, b Term) Term { return c.binary("Lt", C.MCR_LT, a, b) }

// Le returns the formula a <= b of two integer terms.
func (c *Context) Le(a, b Term) Term { return c.binary("Le", C.MCR_LE, a, b) }

// Eq returns the formula a = b of two terms of the same sort (for formulas: a if and only if b).
func (c *Context) Eq(a, b Term) Term { return c.binary("Eq", C.MCR_EQ, a, b) }

// Ge returns the formula a >= b of two integer terms.
func (c *Context) Ge(a, b Term) Term { return c.binary("Ge", C.MCR_GE, a, b) }

// Gt returns the formula a > b of two integer terms.
func (c *Context) Gt(a, b Term) Term { return c.binary("Gt", C.MCR_GT, a, b) }

// Implies returns the formula a => b of two formulas.
func (c *Context) Implies(a, b Term) Term { return c.binary("Implies", C.MCR_IMPLIES, a, b) }

func (c *Context) binary(op string, code C.int, a, b Term) Term {
	x, ok := c.args1(op, a)
	if !ok {
		return Term{}
	}
	y, ok := c.args1(op, b)
	if !ok {
		return Term{}
	}
	return c.inherit(c.keep(op, C.mcr_mk_binary(c.z, code, x, y)), a, b)
}

// Not returns the negation of the formula t.
func (c *Context) Not(t Term) Term {
	a, ok := c.args1("Not", t)
	if !ok {
		return Term{}
	}
	return c.inherit(c.keep("Not", C.mcr_mk_not(c.z, a)), t)
}

// And returns the conjunction of the formulas ts: True() if there are none, ts[0] if there is one.
func (c *Context) And(ts ...Term) Term { return c.nary("And", C.MCR_AND, ts, c.True) }

// Or returns the disjunction of the formulas ts: False() if there are none, ts[0] if there is one.
func (c *Context) Or(ts ...Term) Term { return c.nary("Or", C.MCR_OR, ts, c.False) }

// Distinct returns the formula saying that the terms ts (all of one sort) are pairwise different: True()
// if there are fewer than two.
func (c *Context) Distinct(ts ...Term) Term {
	if len(ts) == 1 {
		if _, ok := c.args1("Distinct", ts[0]); !ok {
			return Term{}
		}
		return c.True()
	}
	return c.nary("Distinct", C.MCR_DISTINCT, ts, c.True)
}

func (c *Context) nary(op string, code C.int, ts []Term, empty func() Term) Term {
	if c.z == nil {
		return c.fail(op, ErrClosed)
	}
	switch len(ts) {
	case 0:
		return empty()
	case 1:
		if _, ok := c.args1(op, ts[0]); !ok {
			return Term{}
		}
		return ts[0]
	}
	if len(ts) > math.MaxUint32 {
		return c.fail(op, fmt.Errorf("%d arguments", len(ts)))
	}
	args := c.scratch[:0]
	for _, t := range ts {
		a, ok := c.args1(op, t)
		if !ok {
			return Term{}
		}
		args = append(args, a)
	}
	c.scratch = args
	return c.inherit(c.keep(op, C.mcr_mk_nary(c.z, code, C.uint(len(args)), &args[0])), ts...)
}

// args1 checks one argument of builder op.
func (c *Context) args1(op string, t Term) (C.Z3_ast, bool) {
	if c.z == nil {
		c.fail(op, ErrClosed)
		return nil, false
	}
	a, ok := c.ast(t)
	if !ok {
		c.fail(op, errInvalidTerm)
	}
	return a, ok
}

// Solver is a Z3 solver, owned by its Context. It is used by the Context's goroutine only (see the
// package documentation).
type Solver struct {
	c        *Context
	z        C.Z3_solver // nil once closed
	idl      bool        // z is a QF_IDL solver, not yet replaced by Z3's default one (see NewSolver)
	dl       bool        // z is a difference-logic solver (NewDLSolver)
	asserted bool        // something was asserted since NewSolver or Reset
	scopes   int         // scopes opened by Push and not yet closed
	timeout  C.uint      // timeout in ms currently set in Z3 (math.MaxUint32: none)
	rlimit   C.uint      // resource limit per check set in Z3 (0: none)
	sat      bool        // the last Check returned Sat and nothing was asserted, pushed or popped since
	model    C.Z3_model  // the model of that Check once Model was called, referenced; else nil
	gen      uint64      // model generation: incremented whenever the model goes stale
	reason   string      // Z3's reason if the last Check returned Unknown
}

// NewSolver creates an empty solver with no timeout. It starts as a solver for the logic QF_IDL
// (Z3_mk_solver_for_logic), the fastest for order constraints, and becomes Z3's default solver
// (Z3_mk_solver) when its first assertion since NewSolver or Reset has bit-vector terms, for the QF_IDL
// solver decides bit-vector formulas wrongly (it found x*x = 3 over 32 bits satisfiable). Open scopes
// carry over; Reset keeps the kind. The Context releases the solver on Close; Solver.Close releases it
// earlier.
func (c *Context) NewSolver() (*Solver, error) {
	if c.z == nil {
		return nil, ErrClosed
	}
	return c.addSolver("NewSolver", C.MCR_IDL, true, false)
}

// NewDLSolver creates an empty solver for order constraints alone (no bit-vector terms: Assert refuses
// them), decided by Z3's incremental SMT core (Z3_mk_simple_solver: no preprocessing tactics) with the
// sparse difference-logic theory (Bellman-Ford over the graph of the atoms, arith.solver 1) instead of
// the simplex or Floyd-Warshall theories that QF_IDL's setup picks. It keeps what it learnt between
// Checks, so that a formula may grow after a Check (lazy constraints: assert only what a model violates).
// On the unsatisfiable race queries of clean.vals.txt (850 events, 23,000 atoms) the QF_IDL solver spent
// 1.5 s, most of it in the dense theory's O(n^2) closure per edge, where this one, given only the atoms
// the lazy seed encoding needs, answers in milliseconds.
func (c *Context) NewDLSolver() (*Solver, error) {
	if c.z == nil {
		return nil, ErrClosed
	}
	return c.addSolver("NewDLSolver", C.MCR_DL, false, true)
}

// addSolver makes a Z3 solver of the given kind with no timeout for op,
// marked idl (QF_IDL until bit-vectors come) or dl (NewDLSolver), and
// registers it for Close.
func (c *Context) addSolver(op string, kind C.int, idl, dl bool) (*Solver, error) {
	z, err := c.newZ3Solver(op, kind, math.MaxUint32, 0)
	if err != nil {
		return nil, err
	}
	s := &Solver{c: c, z: z, idl: idl, dl: dl, timeout: math.MaxUint32}
	c.solvers[s] = struct{}{}
	return s, nil
}

// newZ3Solver makes a solver of the given kind (C.MCR_IDL, C.MCR_DEFAULT or C.MCR_DL), with the timeout
// in ms and the resource limit per check, for op.
func (c *Context) newZ3Solver(op string, kind C.int, timeout, rlimit C.uint) (C.Z3_solver, error) {
	r := C.mcr_new_solver(c.z, kind)
	if r.err != C.Z3_OK {
		return nil, c.z3Error(op, r.err)
	}
	if code := C.mcr_set_params(c.z, r.s, timeout, rlimit, C.bool(kind == C.MCR_DL)); code != C.Z3_OK {
		err := c.z3Error(op, code)
		C.Z3_solver_dec_ref(c.z, r.s)
		return nil, err
	}
	return r.s, nil
}

// leaveIDL replaces the QF_IDL solver, if nothing was asserted since NewSolver or Reset, by Z3's default
// solver with the same timeout and as many open scopes.
func (s *Solver) leaveIDL() error {
	if s.asserted {
		return fmt.Errorf("z3: Assert: a formula with bit-vector terms after other formulas, in a solver " +
			"that decides them as QF_IDL; give bit-vector formulas their own Solver, or assert one first")
	}
	z, err := s.c.newZ3Solver("Assert", C.MCR_DEFAULT, s.timeout, s.rlimit)
	if err != nil {
		return err
	}
	for range s.scopes {
		if code := C.mcr_push(s.c.z, z); code != C.Z3_OK {
			err := s.c.z3Error("Assert", code)
			C.Z3_solver_dec_ref(s.c.z, z)
			return err
		}
	}
	C.Z3_solver_dec_ref(s.c.z, s.z)
	s.z, s.idl = z, false
	return nil
}

// Close releases the solver and its model. Using it afterwards reports ErrClosed. Close is idempotent.
func (s *Solver) Close() {
	if s.z == nil {
		return
	}
	s.stale()
	C.Z3_solver_dec_ref(s.c.z, s.z)
	delete(s.c.solvers, s)
	s.z = nil
}

// stale releases the current model, if any, and invalidates every Model returned so far.
func (s *Solver) stale() {
	if s.model != nil {
		C.Z3_model_dec_ref(s.c.z, s.model)
		s.model = nil
	}
	s.gen++
	s.sat = false
	s.reason = ""
}

// Assert adds the formula t. It fails with ErrClosed on a closed solver, with the Context's first builder
// error (or an invalid-Term error) if t is not a live Term of the solver's Context, with Z3's error if t
// is not a formula, and if t has bit-vector terms but the solver holds order constraints (see NewSolver).
func (s *Solver) Assert(t Term) error {
	if s.z == nil {
		return ErrClosed
	}
	a, ok := s.c.ast(t)
	if !ok {
		if t == (Term{}) && s.c.err != nil {
			return fmt.Errorf("z3: Assert: zero Term from a failed builder: %w", s.c.err)
		}
		return fmt.Errorf("z3: Assert: %w", errInvalidTerm)
	}
	s.stale()
	if s.dl && s.c.bvIn[t.idx-1] {
		return fmt.Errorf("z3: Assert: a formula with bit-vector terms in a difference-logic solver (NewDLSolver)")
	}
	if s.idl && s.c.bvIn[t.idx-1] {
		if err := s.leaveIDL(); err != nil {
			return err
		}
	}
	if code := C.mcr_assert(s.c.z, s.z, a); code != C.Z3_OK {
		return s.c.z3Error("Assert", code)
	}
	s.asserted = true
	return nil
}

// Push opens a backtracking scope: Pop removes the assertions made after it.
func (s *Solver) Push() error {
	if s.z == nil {
		return ErrClosed
	}
	s.stale()
	if code := C.mcr_push(s.c.z, s.z); code != C.Z3_OK {
		return s.c.z3Error("Push", code)
	}
	s.scopes++
	return nil
}

// Pop closes the n innermost scopes opened by Push, removing their assertions. It fails if fewer than n
// scopes are open. Terms are not released by Pop (see Context.Reset).
func (s *Solver) Pop(n int) error {
	if s.z == nil {
		return ErrClosed
	}
	if n < 0 || n > math.MaxUint32 {
		return fmt.Errorf("z3: Pop: invalid scope count %d", n)
	}
	s.stale()
	if code := C.mcr_pop(s.c.z, s.z, C.uint(n)); code != C.Z3_OK {
		return s.c.z3Error("Pop", code)
	}
	s.scopes -= n
	return nil
}

// Reset removes every assertion and scope (Z3_solver_reset); the timeout set by the last Check stays. It
// does nothing on a closed solver. Z3 then rebuilds its solver at the next Check, which costs about 0.3 ms
// with Debian's Z3 4.8.12, several times a small query: for many queries over a shared base, Push the
// base's end and Pop after each query instead.
func (s *Solver) Reset() {
	if s.z == nil {
		return
	}
	s.stale()
	s.asserted, s.scopes = false, 0
	// Z3_solver_reset only drops the solver's internals; it reports no errors.
	C.mcr_reset(s.c.z, s.z)
}

// Check decides the conjunction of the assertions. A timeout > 0 bounds Z3's search (rounded up to whole
// milliseconds); timeout <= 0 means none. If ctx is cancelled or its deadline passes, Check interrupts Z3
// and returns Unknown with an error wrapping ctx.Err(); it does not call Z3 at all if ctx is already done.
// Unknown with a nil error means Z3 gave up (timeout or incompleteness); ReasonUnknown says why. Other
// errors are Z3 errors. Check blocks its goroutine while Z3 runs.
func (s *Solver) Check(ctx context.Context, timeout time.Duration) (Result, error) {
	if s.z == nil {
		return Unknown, ErrClosed
	}
	s.stale()
	if err := ctx.Err(); err != nil {
		s.reason = "canceled before the check"
		return Unknown, fmt.Errorf("z3: Check: %w", err)
	}
	if err := s.setTimeout(timeout); err != nil {
		return Unknown, err
	}
	c := s.c
	var stop func() bool
	if ctx.Done() != nil {
		c.checks++
		seq, z := c.checks, c.z
		c.imu.Lock()
		c.checking = seq
		c.imu.Unlock()
		stop = context.AfterFunc(ctx, func() {
			c.imu.Lock()
			defer c.imu.Unlock()
			if c.checking == seq {
				C.Z3_interrupt(z)
			}
		})
	}
	r, ok := s.run(ctx, timeout)
	if stop != nil {
		stop()
		c.imu.Lock()
		c.checking = 0 // from here on, a late AfterFunc of this Check does nothing
		c.imu.Unlock()
	}
	if !ok {
		c.abandon(r)
		s.reason = "abandoned"
		if err := ctx.Err(); err != nil {
			return Unknown, fmt.Errorf("z3: Check did not stop within %v of its interruption and was abandoned: %w", abandonGrace, err)
		}
		return Unknown, fmt.Errorf("z3: Check ran %v past its timeout and was abandoned: %w", abandonGrace, ErrAbandoned)
	}
	res := <-r
	if res.err != C.Z3_OK {
		return Unknown, c.z3Error("Check", res.err)
	}
	switch res.r {
	case C.Z3_L_TRUE:
		s.sat = true
		return Sat, nil
	case C.Z3_L_FALSE:
		return Unsat, nil
	}
	if str := C.mcr_solver_string(c.z, s.z, true); str.err == C.Z3_OK {
		s.reason = C.GoString(str.s)
	}
	if err := ctx.Err(); err != nil {
		return Unknown, fmt.Errorf("z3: Check interrupted: %w", err)
	}
	if s.rlimit > 0 && (s.reason == "canceled" || s.dl && s.reason == "unknown" || strings.Contains(s.reason, "resource limit")) {
		// Z3 4.8.12 says "max. resource limit exceeded", or "canceled" when
		// the limit stops a phase that reports it like an interruption,
		// or (a difference-logic solver, which is complete otherwise)
		// "unknown"; nothing interrupted this Check (ctx is live).
		s.reason = ReasonRlimit
	}
	return Unknown, nil
}

// abandonGrace is how long Check waits for Z3 after interrupting it (ctx
// ended) or after its timeout passed, before it gives the check up. Z3
// does not poll for either in every phase of its search: a 3,000-event
// consistency formula ran 900 s under a 40 s timeout.
const abandonGrace = 500 * time.Millisecond

// run runs Z3's check of s on a goroutine of its own and returns its
// result channel, and false if the check was given up: ctx ended (Z3 was
// interrupted) or timeout passed, and Z3 did not return within
// abandonGrace. The channel then delivers when Z3 returns.
func (s *Solver) run(ctx context.Context, timeout time.Duration) (chan C.mcr_lbool, bool) {
	done := make(chan C.mcr_lbool, 1)
	z, sz := s.c.z, s.z
	go func() { done <- C.mcr_check(z, sz) }()
	var late <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout + abandonGrace)
		defer t.Stop()
		late = t.C
	}
	cancel := ctx.Done()
	var grace <-chan time.Time
	for {
		select {
		case r := <-done:
			done <- r
			return done, true
		case <-late:
			return done, false
		case <-grace:
			return done, false
		case <-cancel:
			t := time.NewTimer(abandonGrace)
			defer t.Stop()
			grace, cancel = t.C, nil // interrupted: wait on grace alone
		}
	}
}

// Abandoned reports whether s's Context was given up by a Check (ErrAbandoned).
func (s *Solver) Abandoned() bool { return s.z == nil && s.reason == "abandoned" }

// abandon gives the Context up while Z3 still runs a check on it (run):
// every later use of it or of its Solvers reports ErrClosed, and the Z3
// context is freed when the check returns on done, not before (Z3 is
// still using it).
func (c *Context) abandon(done chan C.mcr_lbool) {
	r := C.mcr_context{c: c.z, ints: c.ints}
	c.cleanup.Stop()
	for s := range c.solvers {
		s.z, s.model = nil, nil // freed with the context
	}
	c.z, c.ints, c.bvs = nil, nil, [64]C.Z3_sort{}
	c.gen++
	c.asts, c.widths, c.bvIn, c.vars, c.bools, c.scratch = nil, nil, nil, nil, nil, nil
	c.names, c.bvNames, c.solvers = nil, nil, nil
	c.tru, c.fls, c.err = 0, 0, nil
	go func() {
		<-done
		deleteContext(r)
	}()
}

// setTimeout sets Z3's timeout parameter if it differs from the one set.
func (s *Solver) setTimeout(d time.Duration) error {
	ms := C.uint(math.MaxUint32)
	if d > 0 {
		ms = C.uint(min((d+time.Millisecond-1)/time.Millisecond, math.MaxUint32-1))
	}
	if ms == s.timeout {
		return nil
	}
	if code := C.mcr_set_params(s.c.z, s.z, ms, s.rlimit, C.bool(s.dl)); code != C.Z3_OK {
		return s.c.z3Error("Check", code)
	}
	s.timeout = ms
	return nil
}

// SetRlimit bounds every later Check by n of Z3's resource units (its
// "rlimit": a count of elementary solver steps, deterministic for one
// formula and one Z3 version, unlike a timeout); 0 means none. A Check
// that reaches it returns Unknown with a nil error and ReasonUnknown
// "resource limit". The limit holds for each Check on its own and
// survives Reset. On Debian's Z3 4.8.12 one resource unit is roughly a
// microsecond of search.
func (s *Solver) SetRlimit(n uint32) error {
	if s.z == nil {
		return ErrClosed
	}
	if C.uint(n) == s.rlimit {
		return nil
	}
	if code := C.mcr_set_params(s.c.z, s.z, s.timeout, C.uint(n), C.bool(s.dl)); code != C.Z3_OK {
		return s.c.z3Error("SetRlimit", code)
	}
	s.rlimit = C.uint(n)
	return nil
}

// ReasonUnknown says why the last Check returned Unknown: Z3's reason (e.g. "timeout", "interrupted",
// "canceled"), or "canceled before the check" if its context was already done. It is "" after Sat or
// Unsat, after a Z3 error, and once the solver changes.
func (s *Solver) ReasonUnknown() string { return s.reason }

// Model returns the model found by the last Check, which must have returned Sat with no Assert, Push,
// Pop or Reset since.
func (s *Solver) Model() (Model, error) {
	if s.z == nil {
		return Model{}, ErrClosed
	}
	if !s.sat {
		return Model{}, fmt.Errorf("z3: Model: no model (the last Check did not return Sat, or the solver changed since)")
	}
	if s.model == nil {
		r := C.mcr_get_model(s.c.z, s.z)
		if r.err != C.Z3_OK {
			return Model{}, s.c.z3Error("Model", r.err)
		}
		s.model = r.m
	}
	return Model{s: s, gen: s.gen}, nil
}

// live returns t's AST if m is its solver's current model and t a live
// Term of the solver's Context.
func (m Model) live(t Term) (C.Z3_ast, bool) {
	s := m.s
	if s == nil || s.model == nil || m.gen != s.gen {
		return nil, false
	}
	return s.c.ast(t)
}

// Int returns the value of the integer term t in the model; constants the assertions leave free get a
// value too (Z3's model completion). It returns false if the model is stale, t is not a live Term of the
// solver's Context, or t's value is not an integer that fits in an int64.
func (m Model) Int(t Term) (int64, bool) {
	a, ok := m.live(t)
	if !ok {
		return 0, false
	}
	s := m.s
	r := C.mcr_model_int(s.c.z, s.model, a)
	return int64(r.v), bool(r.ok)
}

// SMTLIB2 returns the solver's assertions in SMT-LIB 2 (Z3_solver_to_string), for debugging dumps. It
// returns "" for a closed solver and a comment line if Z3 fails.
func (s *Solver) SMTLIB2() string {
	if s.z == nil {
		return ""
	}
	r := C.mcr_solver_string(s.c.z, s.z, false)
	if r.err != C.Z3_OK {
		return "; " + s.c.z3Error("SMTLIB2", r.err).Error() + "\n"
	}
	return C.GoString(r.s)
}

// memProbe is a Context of its own whose solver's statistics report Z3's global memory count (see
// AllocatedBytes); it is made on first use and never closed. Only C libraries without mallinfo2 need it.
var memProbe struct {
	mu sync.Mutex
	c  *Context
	s  *Solver
}

// contextMade records that NewContext was called: before, Z3 holds no memory a caller could free.
var contextMade atomic.Bool

// AllocatedBytes returns the bytes Z3 holds now, over every Context of the process (about 17 MB of Z3's
// own tables per live Context), or 0 if it cannot be read or no Context was made yet. It is safe to call
// from any goroutine, also while Checks run. With glibc (2.33 or later) it is the C heap in use
// (mallinfo2), which in mcr is Z3's: reading it costs microseconds and no Z3 context. Otherwise it reads
// Z3's own count (its "memory" statistic) through a Context of its own, made at the first call after
// another Context; that probe's tables cost about 17 MB and, on Debian's Z3 4.8.12, 8 ms of page faults,
// a seventh of a small prediction's time (mcr predict --decider z3 on account.vals.txt).
func AllocatedBytes() uint64 {
	if !contextMade.Load() {
		return 0
	}
	if n := C.mcr_heap_bytes(); n >= 0 {
		return uint64(n)
	}
	memProbe.mu.Lock()
	defer memProbe.mu.Unlock()
	if memProbe.c == nil {
		c, err := NewContext()
		if err != nil {
			return 0
		}
		s, err := c.NewSolver()
		if err != nil {
			c.Close()
			return 0
		}
		memProbe.c, memProbe.s = c, s
	}
	mb := float64(C.mcr_memory_mb(memProbe.c.z, memProbe.s.z))
	if mb <= 0 {
		return 0
	}
	return uint64(mb * (1 << 20))
}
