package encode

// This file implements the formulas of the consistency encodings:
// negation-free combinations of strict order atoms O_a < O_b, simplified
// against the order skeleton while they are built, and their translation
// to Z3 terms.
//
// Why negation-free and strict: a Z3 model may give two steps the same
// value. If every atom is strict and no atom occurs negated, every
// linearisation of the model's values (ties broken in any way) makes the
// same atoms true, so it satisfies the formula as well; the witness is
// then simply the steps sorted by value.

import (
	"mcr/encode/z3"
)

type formOp uint8

const (
	opFalse formOp = iota
	opTrue
	opLt // O_a < O_b
	opAnd
	opOr
)

// form is a formula; the zero form is false.
type form struct {
	op   formOp
	a, b int32
	args []form
}

var (
	formFalse = form{op: opFalse}
	formTrue  = form{op: opTrue}
)

// lt returns O_a < O_b, or a constant when the skeleton decides it.
func (s *skeleton) lt(a, b int32) form {
	switch {
	case a == b || s.before(b, a):
		return formFalse
	case s.before(a, b):
		return formTrue
	}
	return form{op: opLt, a: a, b: b}
}

// and returns the conjunction of fs, flattened and without constants.
func and(fs ...form) form { return junction(opAnd, fs) }

// or returns the disjunction of fs, flattened and without constants.
func or(fs ...form) form { return junction(opOr, fs) }

func junction(op formOp, fs []form) form {
	unit, zero := formTrue, formFalse // neutral and absorbing element of op
	if op == opOr {
		unit, zero = formFalse, formTrue
	}
	var args []form
	for _, f := range fs {
		switch f.op {
		case zero.op:
			return zero
		case unit.op:
		case op:
			args = append(args, f.args...)
		default:
			args = append(args, f)
		}
	}
	switch len(args) {
	case 0:
		return unit
	case 1:
		return args[0]
	}
	return form{op: op, args: args}
}

// simplify re-evaluates the atoms of f against the skeleton (after edges
// were added).
func (s *skeleton) simplify(f form) form {
	switch f.op {
	case opLt:
		return s.lt(f.a, f.b)
	case opAnd, opOr:
		args := make([]form, len(f.args))
		for k, g := range f.args {
			args[k] = s.simplify(g)
		}
		return junction(f.op, args)
	}
	return f
}

// conjuncts returns the top-level conjuncts of f, to be asserted one by
// one.
// size is the number of atoms (O_a < O_b) of f.
func (f form) size() int {
	if f.op == opLt {
		return 1
	}
	n := 0
	for _, g := range f.args {
		n += g.size()
	}
	return n
}

func (f form) conjuncts() []form {
	if f.op == opAnd {
		return f.args
	}
	return []form{f}
}

// term translates f; Var(v) is node v's order variable.
func (f form) term(c *z3.Context) z3.Term {
	switch f.op {
	case opTrue:
		return c.True()
	case opFalse:
		return c.False()
	case opLt:
		return c.Lt(c.Var(int(f.a)), c.Var(int(f.b)))
	}
	ts := make([]z3.Term, len(f.args))
	for k, g := range f.args {
		ts[k] = g.term(c)
	}
	if f.op == opAnd {
		return c.And(ts...)
	}
	return c.Or(ts...)
}
