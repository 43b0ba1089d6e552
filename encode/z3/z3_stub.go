//go:build !cgo || noz3

// This file implements the API of z3_cgo.go for builds without the Z3 binding: NewContext returns
// ErrNotBuilt, so no live Context, Term, Solver or Model can exist, and every method reports ErrNotBuilt,
// the zero Term or false. See z3_cgo.go for the contracts.

package z3

import (
	"context"
	"time"
)

// Available reports whether this build of mcr contains the Z3 binding. It is false here.
func Available() bool { return false }

// Context is a Z3 context; in this build none can be created.
type Context struct{}

// NewContext returns ErrNotBuilt: this build has no Z3 binding.
func NewContext() (*Context, error) { return nil, ErrNotBuilt }

// Close does nothing.
func (c *Context) Close() {}

// Reset does nothing.
func (c *Context) Reset() {}

// Err returns ErrNotBuilt.
func (c *Context) Err() error { return ErrNotBuilt }

// Var returns the zero Term.
func (c *Context) Var(i int) Term { return Term{} }

// IntVar returns the zero Term.
func (c *Context) IntVar(name string) Term { return Term{} }

// BoolVar returns the zero Term.
func (c *Context) BoolVar(i int) Term { return Term{} }

// Int returns the zero Term.
func (c *Context) Int(v int64) Term { return Term{} }

// True returns the zero Term.
func (c *Context) True() Term { return Term{} }

// False returns the zero Term.
func (c *Context) False() Term { return Term{} }

// Add returns the zero Term.
func (c *Context) Add(t Term, k int64) Term { return Term{} }

// Sub returns the zero Term.
func (c *Context) Sub(t Term, k int64) Term { return Term{} }

// Lt returns the zero Term.
func (c *Context) Lt(a, b Term) Term { return Term{} }

// Le returns the zero Term.
func (c *Context) Le(a, b Term) Term { return Term{} }

// Eq returns the zero Term.
func (c *Context) Eq(a, b Term) Term { return Term{} }

// Ge returns the zero Term.
func (c *Context) Ge(a, b Term) Term { return Term{} }

// Gt returns the zero Term.
func (c *Context) Gt(a, b Term) Term { return Term{} }

// Implies returns the zero Term.
func (c *Context) Implies(a, b Term) Term { return Term{} }

// Not returns the zero Term.
func (c *Context) Not(t Term) Term { return Term{} }

// And returns the zero Term.
func (c *Context) And(ts ...Term) Term { return Term{} }

// Or returns the zero Term.
func (c *Context) Or(ts ...Term) Term { return Term{} }

// Distinct returns the zero Term.
func (c *Context) Distinct(ts ...Term) Term { return Term{} }

// BVVar returns the zero Term.
func (c *Context) BVVar(name string, width uint) Term { return Term{} }

// BV returns the zero Term.
func (c *Context) BV(v uint64, width uint) Term { return Term{} }

// BVBin returns the zero Term.
func (c *Context) BVBin(op BVOp, a, b Term) Term { return Term{} }

// BVCompare returns the zero Term.
func (c *Context) BVCompare(op BVCmp, a, b Term) Term { return Term{} }

// BVNeg returns the zero Term.
func (c *Context) BVNeg(a Term) Term { return Term{} }

// BVNot returns the zero Term.
func (c *Context) BVNot(a Term) Term { return Term{} }

// Extract returns the zero Term.
func (c *Context) Extract(hi, lo uint, a Term) Term { return Term{} }

// SignExt returns the zero Term.
func (c *Context) SignExt(n uint, a Term) Term { return Term{} }

// ZeroExt returns the zero Term.
func (c *Context) ZeroExt(n uint, a Term) Term { return Term{} }

// Ite returns the zero Term.
func (c *Context) Ite(cond, a, b Term) Term { return Term{} }

// BoolToBV returns the zero Term.
func (c *Context) BoolToBV(cond Term, width uint) Term { return Term{} }

// NewSolver returns ErrNotBuilt.
func (c *Context) NewSolver() (*Solver, error) { return nil, ErrNotBuilt }

// NewDLSolver reports ErrNotBuilt.
func (c *Context) NewDLSolver() (*Solver, error) { return nil, ErrNotBuilt }

// Solver is a Z3 solver; in this build none can be created.
type Solver struct{}

// Close does nothing.
func (s *Solver) Close() {}

// Assert returns ErrNotBuilt.
func (s *Solver) Assert(t Term) error { return ErrNotBuilt }

// Push returns ErrNotBuilt.
func (s *Solver) Push() error { return ErrNotBuilt }

// Pop returns ErrNotBuilt.
func (s *Solver) Pop(n int) error { return ErrNotBuilt }

// Reset does nothing.
func (s *Solver) Reset() {}

// Check returns Unknown and ErrNotBuilt.
func (s *Solver) Check(ctx context.Context, timeout time.Duration) (Result, error) {
	return Unknown, ErrNotBuilt
}

// ReasonUnknown returns "".
func (s *Solver) ReasonUnknown() string { return "" }

// Model returns ErrNotBuilt.
func (s *Solver) Model() (Model, error) { return Model{}, ErrNotBuilt }

// Int returns false.
func (m Model) Int(t Term) (int64, bool) { return 0, false }

// BV returns false.
func (m Model) BV(t Term) (uint64, bool) { return 0, false }

// Bool returns false.
func (m Model) Bool(t Term) (value, ok bool) { return false, false }

// SMTLIB2 returns "".
func (s *Solver) SMTLIB2() string { return "" }

// Abandoned reports false: no check runs in this build.
func (s *Solver) Abandoned() bool { return false }

// SetRlimit reports ErrNotBuilt.
func (s *Solver) SetRlimit(n uint32) error { return ErrNotBuilt }

// TrimMemory does nothing: there is no Z3.
func TrimMemory() {}

// AllocatedBytes returns 0: there is no Z3.
func AllocatedBytes() uint64 { return 0 }
