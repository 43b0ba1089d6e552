package encode

// This file implements Z3Decider, the SMT decider of consistency instances
// (program.Decider), and the decoding of a Z3 model into a witness. One
// encoding covers all four problems of the seed papers and the two that
// combine them:
//
//	problem                   instance              source
//	VSC with good writes      SC,  GoodWrites       000_1fb260b9b3a323b2.txt Section 4
//	VSC-rf                    SC,  ReadsFrom        002_29f9f830801bf5b9.txt Section 5
//	VTSO-rf, VPSO-rf          TSO/PSO, ReadsFrom    004_fe58e94b2666f77b.txt Sections 2.1, 4
//	TSO/PSO with good writes  TSO/PSO, GoodWrites   (the same formulas)
//
// Every witness step gets an integer order variable (consistency_order.go):
// each thread event, under TSO/PSO each write's memory-write, and one per
// RMW pair. The formula is
//
//	Φ = Φ_order ∧ Φ_rf ∧ Φ_lock
//
// with Φ_order the unconditional strict orders (program order, fork/join,
// buffer-write before memory-write, FIFO buffers, drains), Φ_rf and Φ_lock
// the disjunctive rules of consistency_rules.go. Under SC a write's
// memory-write is the write itself, so VSC is VTSO with every buffer
// flushed at once, and reads-from and good-writes instances differ only in
// the size of each read's source set. The formula is in QF_IDL.
//
// Decide builds the skeleton (Φ_order and its transitive closure), the
// rules simplified against it, and moves unit rules into the skeleton until
// none is left (propagate, a closure in the sense of the seed papers). A
// rule that became false means no witness; no rule left means every
// topological order of the skeleton is a witness; otherwise Z3 decides
// the rest and the witness is its model's order.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"mcr/encode/z3"
	"mcr/parallel"
	"mcr/program"
)

// DefaultZ3Timeout bounds one consistency query when Z3Decider.Timeout is 0.
const DefaultZ3Timeout = time.Minute

// DefaultMaxAtoms bounds the atoms (O_a < O_b) of one consistency formula
// when Z3Decider.MaxAtoms is 0. A formula costs about 1.4 KB per atom
// once Z3 searches it (a 3,000-event chain without propagation: 1.1 M
// atoms, 1.5 GB resident), so this keeps one query under about 700 MB; a
// bigger query is given up (program.ErrUnknown) before it is built.
const DefaultMaxAtoms = 500_000

// Z3Doc describes Z3Decider in one line (help text, backend tables).
const Z3Doc = "SMT encoding over order variables (QF_IDL), decided by Z3: every model and constraint kind"

// Z3Decider decides consistency instances of every memory model and
// constraint kind with Z3. It may be used from many goroutines: each
// Decide call that needs Z3 takes a Z3 context no other call is using
// (contexts are not thread-safe) from the ones it keeps, or makes one.
// Close releases them.
type Z3Decider struct {
	// Timeout bounds one Decide call, the building of the formula
	// included (on a long instance that takes longer than Z3's search);
	// 0 means DefaultZ3Timeout. The ctx given to Decide bounds it as well.
	Timeout time.Duration
	// MaxAtoms bounds the size of one formula; 0 means DefaultMaxAtoms.
	MaxAtoms int
	// NoPropagate sends the whole formula to Z3 instead of first moving
	// its unit consequences into the order skeleton (propagate; an
	// ablation, and a second code path for the differential tests).
	NoPropagate bool
	// Stats, if not nil, counts the calls (it may be shared).
	Stats *Z3Stats

	free parallel.Free[*z3Session] // sessions no call is using
}

// z3Session is a Z3 context with a solver. A kept one's base scope stays
// empty: a small query is asserted in a pushed scope and popped after,
// which costs about 45 µs, where a fresh context and solver cost 1.1 ms
// and a solver reset 0.5 ms (Debian's Z3 4.8.12; the MCR explorer asks
// many small queries).
type z3Session struct {
	c *z3.Context
	s *z3.Solver
}

// newZ3Session makes a Z3 context with a QF_IDL solver.
func newZ3Session() (*z3Session, error) {
	c, err := z3.NewContext()
	if err != nil {
		return nil, err
	}
	s, err := c.NewSolver()
	if err != nil {
		c.Close()
		return nil, err
	}
	return &z3Session{c: c, s: s}, nil
}

// done returns ses for the next call, or closes it if ok is false (after
// an error or an interrupted check nothing says what state Z3 is in).
func (d *Z3Decider) done(ses *z3Session, ok bool) {
	if ok {
		ok = ses.s.Pop(1) == nil
		ses.c.Reset()
	}
	if !ok {
		ses.c.Close()
		return
	}
	d.free.Put(ses)
}

// Close releases the Z3 contexts d keeps between calls; d may still be
// used after.
func (d *Z3Decider) Close() {
	for _, ses := range d.free.Drain() {
		ses.c.Close()
	}
}

// Z3Stats counts what the Z3Deciders sharing it did; it is safe for
// concurrent use.
type Z3Stats struct {
	// Encoded counts the instances encoded; Solved those of them that
	// needed Z3 (the others were decided by the order skeleton and
	// propagation alone).
	Encoded, Solved atomic.Int64
}

// Name implements program.Decider.
func (*Z3Decider) Name() string { return "z3" }

// Decide implements program.Decider: it returns a witness (with flush
// steps under TSO/PSO), or an answer without one if inst has none. Errors:
// one wrapping z3.ErrNotBuilt and program.ErrUnknown without Z3 (a
// program.Fallback then asks its other decider); inst.Check's error for a
// malformed instance; an error wrapping program.ErrUnknown when Z3 gives
// up (timeout, incompleteness) or ctx ends first (then also wrapping
// ctx.Err()).
func (d *Z3Decider) Decide(ctx context.Context, inst *program.Instance) (program.InstanceAnswer, error) {
	return program.NewInstanceAnswer(d.decide(ctx, inst))
}

// errNotBuilt is z3.ErrNotBuilt as a decider reports it: also a
// program.ErrUnknown, since without Z3 the query is not decided, and the
// caller may ask another decider. Its message is ErrNotBuilt's.
var errNotBuilt error = notBuilt{}

type notBuilt struct{}

func (notBuilt) Error() string { return z3.ErrNotBuilt.Error() }

func (notBuilt) Is(target error) bool {
	return target == z3.ErrNotBuilt || target == program.ErrUnknown
}

// decide is Decide's work: a witness and true, or false if there is none.
func (d *Z3Decider) decide(ctx context.Context, inst *program.Instance) (program.Witness, bool, error) {
	if !z3.Available() {
		return nil, false, errNotBuilt
	}
	if err := inst.Check(); err != nil {
		return nil, false, err
	}
	timeout := d.Timeout
	if timeout <= 0 {
		timeout = DefaultZ3Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := stopped(ctx); err != nil {
		return nil, false, err
	}
	if d.Stats != nil {
		d.Stats.Encoded.Add(1)
	}
	b := &budget{ctx: ctx, maxAtoms: d.MaxAtoms}
	if b.maxAtoms <= 0 {
		b.maxAtoms = DefaultMaxAtoms
	}
	s := newSkeleton(inst)
	r := newRules(s)
	if !d.NoPropagate {
		r.soleSources()
	}
	if !s.close() {
		return nil, false, nil // fork and join (or a read and its only source) wait for each other
	}
	cons, ok, err := r.constraints(b)
	if err != nil {
		return nil, false, err
	}
	if ok && !d.NoPropagate {
		if cons, ok, err = s.propagate(cons, b); err != nil {
			return nil, false, err
		}
		if ok && len(cons) == 0 {
			// Every rule holds in every linearisation of the skeleton:
			// no search is left for Z3 to do.
			order, _ := s.topo()
			rank := make([]int64, len(order))
			for k, v := range order {
				rank[v] = int64(k)
			}
			return s.witness(rank), true, nil
		}
	}
	if !ok {
		return nil, false, nil // a rule is false on the skeleton alone
	}
	if err := stopped(ctx); err != nil {
		return nil, false, err
	}
	if d.Stats != nil {
		d.Stats.Solved.Add(1)
	}
	dl, _ := ctx.Deadline()
	// at least 1 ms: Z3 reads a timeout of 0 as none
	val, ok, err := d.solve(ctx, s, cons, max(time.Until(dl), time.Millisecond))
	if err != nil || !ok {
		return nil, false, err
	}
	return s.witness(val), true, nil
}

// stopped wraps ctx's error, if any, with program.ErrUnknown.
func stopped(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("z3: %w: %w", err, program.ErrUnknown)
	}
	return nil
}

// budget bounds the building of one formula: its ctx (which carries the
// decider's timeout) is polled every so many steps, and its atoms are
// counted against maxAtoms, so that a long instance is given up as
// unknown, in time and before its formula exhausts memory, instead of
// being built whole first (a 20,000-event chain took 6 GB and a minute
// under --timeout 5s).
type budget struct {
	ctx             context.Context
	atoms, maxAtoms int
	polls           int
}

func (b *budget) poll() error {
	if b.polls++; b.polls%64 != 0 {
		return nil
	}
	return stopped(b.ctx)
}

func (b *budget) spend(atoms int) error {
	if b.atoms += atoms; b.atoms > b.maxAtoms {
		return fmt.Errorf("z3: the consistency formula has over %d atoms, the limit of one query: %w", b.maxAtoms, program.ErrUnknown)
	}
	return nil
}

// maxScoped is the largest number of rules solve asks in a pushed scope
// of a kept session. A scope switches Z3 to its incremental solver, which
// is up to 3 times slower on large formulas (BenchmarkZ3Consistency
// sc-good/k6n64, about 320 rules: 15 s against 4.9 s per 20 instances)
// and equal at about 45 (k4n32); those get a fresh context. The MCR
// explorer's seed queries that reach Z3 have 4 rules on average.
const maxScoped = 64

// solve asserts the skeleton's edges and cons in Z3 and returns the value
// of every node if they are satisfiable.
func (d *Z3Decider) solve(ctx context.Context, s *skeleton, cons []form, timeout time.Duration) (val []int64, sat bool, err error) {
	var ses *z3Session
	if len(cons) <= maxScoped {
		if ses, err = d.free.Get(newZ3Session); err != nil {
			return nil, false, err
		}
		if err := ses.s.Push(); err != nil {
			ses.c.Close()
			return nil, false, err
		}
		defer func() { d.done(ses, err == nil) }()
	} else {
		if ses, err = newZ3Session(); err != nil {
			return nil, false, err
		}
		defer ses.c.Close()
	}
	c, sol := ses.c, ses.s
	s.reduced(func(a, b int32) { cons = append(cons, form{op: opLt, a: a, b: b}) })
	for _, f := range cons {
		if err := sol.Assert(f.term(c)); err != nil {
			return nil, false, fmt.Errorf("z3: building the consistency formula: %w", err)
		}
	}
	res, err := sol.Check(ctx, timeout)
	switch {
	case err != nil && (ctx.Err() != nil || errors.Is(err, z3.ErrAbandoned)):
		return nil, false, fmt.Errorf("%w: %w", err, program.ErrUnknown)
	case err != nil:
		return nil, false, err
	case res == z3.Unsat:
		return nil, false, nil
	case res == z3.Unknown:
		return nil, false, fmt.Errorf("z3: %s: %w", sol.ReasonUnknown(), program.ErrUnknown)
	}
	m, err := sol.Model()
	if err != nil {
		return nil, false, err
	}
	val = make([]int64, len(s.steps))
	for v := range val {
		x, ok := m.Int(c.Var(v))
		if !ok {
			return nil, false, fmt.Errorf("z3: model has no value for order variable %d", v)
		}
		val[v] = x
	}
	return val, true, nil
}

// witness orders the steps by their nodes' values. Ties are broken by node
// number; any order of tied nodes works (see consistency_formula.go).
func (s *skeleton) witness(val []int64) program.Witness {
	order := make([]int32, len(s.steps))
	n := 0
	for v := range order {
		order[v] = int32(v)
		n += len(s.steps[v])
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(val[a], val[b]) })
	w := make(program.Witness, 0, n)
	for _, v := range order {
		w = append(w, s.steps[v]...)
	}
	return w
}
