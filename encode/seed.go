package encode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync/atomic"
	"time"

	"mcr/encode/z3"
	"mcr/program"
)

// This file implements the Z3 answer to program.SeedQuery: the MCM formula
// Φ = Φ_mhb ∧ Φ_lock ∧ Φ_rw restricted to the events a query needs, with
// the seed constraint Φ_seed(r, w) of 001_aa53da3bf10d3f4e.txt Section 3.4
// or the race property of Section 3.3, and the decoding of a model to the
// seed schedule.
//
// Every event e has an integer order variable O_e and a boolean "needed"
// flag N_e. Needed events are the executed prefix; the others may be
// placed anywhere and carry no value constraints. Φ_rw becomes: N_r implies
// that r reads its traced value from some needed write w with no needed
// write to the same location in between, and N is closed under MHB
// predecessors, which gives the recursion Φ_rw(w) of the paper without
// unfolding it. Each read's choice of write is a boolean selector, so that
// the quadratic parts of the formula (no write between a read and its
// write, no two critical sections of a lock overlapping) are asserted
// lazily: only those a model of the rest violates (seed_refine.go). Needed
// flags that are known (the targets' causal past, excluded events) are
// constants, and a run of empty critical sections of one lock in one
// thread shares one order variable and one needed flag (seed_glue.go).

// Z3Seeder answers seed queries with Z3, in a Z3 context of its own per
// query (see Decide). It is not safe for concurrent use: create one per
// worker.
type Z3Seeder struct {
	c       *z3.Context // s is a difference-logic solver (z3.Context.NewDLSolver)
	s       *z3.Solver
	timeout time.Duration
	rlimit  uint32
	// the structure of the last trace asked about
	lastT *program.Trace
	m     *MCM
	// Calls and Time count queries and solver time (for statistics);
	// Rounds counts solver checks (a query takes one more per refinement)
	// and Lazy the constraints the refinements added.
	Calls, Rounds, Lazy int
	Time                time.Duration
}

// newDLSession makes a Z3 context with a difference-logic solver.
func newDLSession() (*z3Session, error) {
	c, err := z3.NewContext()
	if err != nil {
		return nil, err
	}
	s, err := c.NewDLSolver()
	if err != nil {
		c.Close()
		return nil, err
	}
	return &z3Session{c: c, s: s}, nil
}

// NewZ3Seeder creates a seeder whose queries time out after timeout (0: 60 s).
// It fails with z3.ErrNotBuilt when mcr was built without Z3.
// Its Z3 context is made by the first query (a prediction whose pairs the
// shortcuts settle then costs no Z3 at all).
func NewZ3Seeder(timeout time.Duration) (*Z3Seeder, error) {
	if !z3.Available() {
		return nil, z3.ErrNotBuilt
	}
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	return &Z3Seeder{timeout: timeout}, nil
}

// trimAbove is the memory Z3 holds (over every worker) at the end of a
// query above which the C heap is trimmed after it (see Decide).
const trimAbove = 128 << 20

// dumpSeq numbers the queries MCR_Z3_DUMP writes, over every worker.
var dumpSeq atomic.Int64

// ErrRlimit is wrapped by the error of a query that reached the resource
// limit of Z3Seeder.SetRlimit (with program.ErrUnknown).
var ErrRlimit = errors.New("z3: resource limit reached")

// SetRlimit bounds every later query by n of Z3's resource units (see
// z3.Solver.SetRlimit; 0: none), each of its checks (one per refinement
// round) on its own. A query that reaches it gives up: Decide returns an
// error wrapping program.ErrUnknown that names the limit.
func (z *Z3Seeder) SetRlimit(n uint32) error {
	z.rlimit = n
	if z.s == nil {
		return nil
	}
	return z.s.SetRlimit(n)
}

// Name implements program.SeedDecider.
func (z *Z3Seeder) Name() string { return "z3" }

// Close releases the Z3 context, if one is open.
func (z *Z3Seeder) Close() {
	if z.c != nil {
		z.s.Close()
		z.c.Close()
	}
}

// Decide implements program.SeedDecider. Errors: one wrapping
// program.ErrUnknown when Z3 gives up, others when the formula cannot be
// built or ctx ends during the check.
func (z *Z3Seeder) Decide(ctx context.Context, q program.SeedQuery) (program.SeedAnswer, error) {
	if q.Trace != z.lastT {
		z.lastT, z.m = q.Trace, NewMCM(q.Trace)
	}
	start := time.Now()
	defer func() { z.Calls++; z.Time += time.Since(start) }()
	// Every query gets a Z3 context of its own (about half a millisecond):
	// Z3's search depends on the ids of its terms, which a reused context
	// recycles in an order its earlier queries decide, and an answer must
	// depend on the query alone (the explorer's counts must not depend on
	// how queries fall to workers). Closing it as soon as the query is
	// answered leaves Z3's memory holding only running queries, which is
	// what a memory guard sampling it (z3.AllocatedBytes) can stop, and
	// trimming the C heap then hands a large formula back to the system
	// (resident memory, which --query-memory and the 1 GiB goal of issue
	// 18 are about, follows the live formulas). Small ones stay in the
	// heap for the next context: trimming after each of lang.vals.txt's 16
	// queries cost a third of its z3 CPU time in page faults.
	if z.c == nil {
		ses, err := newDLSession()
		if err != nil {
			return program.SeedAnswer{}, err
		}
		z.c, z.s = ses.c, ses.s
		if err := z.s.SetRlimit(z.rlimit); err != nil {
			return program.SeedAnswer{}, err
		}
	}
	defer func() {
		big := z3.AllocatedBytes() > trimAbove
		z.Close()
		z.c, z.s = nil, nil
		if big {
			z3.TrimMemory()
		}
	}()
	enc := &seedEncoder{c: z.c, m: z.m, q: q, n: len(q.Trace.Events)}
	if !enc.encode(z.s) {
		return program.SeedAnswer{}, nil // trivially unsatisfiable
	}
	if err := z.c.Err(); err != nil {
		return program.SeedAnswer{}, fmt.Errorf("z3: building the seed formula: %w", err)
	}
	deadline := time.Now().Add(z.timeout)
	order := make([]int64, enc.n)
	needed := make([]bool, enc.n)
	for round := 0; ; round++ {
		left := time.Until(deadline)
		if left <= 0 {
			return program.SeedAnswer{}, fmt.Errorf("z3: timeout (%v) after %d refinements: %w", z.timeout, round, program.ErrUnknown)
		}
		z.Rounds++
		res, err := z.s.Check(ctx, left)
		if err != nil {
			if errors.Is(err, z3.ErrAbandoned) {
				return program.SeedAnswer{}, fmt.Errorf("%w: %w", err, program.ErrUnknown)
			}
			return program.SeedAnswer{}, fmt.Errorf("z3: %w", err)
		}
		switch res {
		case z3.Unsat:
			z.dump()
			return program.SeedAnswer{}, nil
		case z3.Unknown:
			if z.s.ReasonUnknown() == z3.ReasonRlimit {
				return program.SeedAnswer{}, fmt.Errorf("%w (%d units): %w", ErrRlimit, z.rlimit, program.ErrUnknown)
			}
			return program.SeedAnswer{}, fmt.Errorf("z3: %s: %w", z.s.ReasonUnknown(), program.ErrUnknown)
		}
		model, err := z.s.Model()
		if err != nil {
			return program.SeedAnswer{}, err
		}
		sel := enc.read(model, order, needed)
		added := enc.refine(order, needed, sel)
		if added < 0 {
			return program.SeedAnswer{}, fmt.Errorf("z3: reading the model: %w", program.ErrUnknown)
		}
		if err := z.c.Err(); err != nil {
			return program.SeedAnswer{}, fmt.Errorf("z3: refining the seed formula: %w", err)
		}
		z.Lazy += added
		if added == 0 {
			z.dump()
			return program.SeedAnswer{Sat: true, Schedule: DecodeSchedule(z.m, q, order, needed)}, nil
		}
		for _, t := range enc.more {
			if err := z.s.Assert(t); err != nil {
				return program.SeedAnswer{}, fmt.Errorf("z3: refining the seed formula: %w", err)
			}
		}
		enc.more = enc.more[:0]
	}
}

// dump writes the solver's formula, as the last check saw it, to
// $MCR_Z3_DUMP (a debugging aid: every query as an SMT-LIB 2 file for the
// z3 command line; a write error is ignored). The formula holds the lazy
// constraints the refinements added, so it has the query's answer.
func (z *Z3Seeder) dump() {
	if dir := os.Getenv("MCR_Z3_DUMP"); dir != "" {
		name := fmt.Sprintf("%s/q%05d.smt2", dir, dumpSeq.Add(1))
		_ = os.WriteFile(name, []byte(z.s.SMTLIB2()+"(check-sat)\n"), 0o644)
	}
}

type seedEncoder struct {
	c        *z3.Context
	m        *MCM
	q        program.SeedQuery
	n        int
	excluded []bool // events that must not be executed (after a target)
	// forced are the events every solution executes: the MHB closure of
	// the targets and the Fixed reads. Their N is the constant true, and
	// an excluded event's N the constant false: Z3 would derive both by
	// propagation, but each of the boolean variables and implications it
	// would take costs time to internalise (a third of the events of the
	// race queries of sunflow.std are forced).
	forced []bool
	// hidden is the target read when it writes as well
	// (program.WritesAtTarget), else -1
	hidden int32
	// choices are the reads-from selectors (seed_refine.go); more the lazy
	// constraints a refinement found violated, to assert.
	choices []choice
	more    []z3.Term
	locks   []program.Loc // the keys of m.Sections, sorted
	// rep maps each event to the event whose variables it uses: itself,
	// or the first acquire of its run of empty critical sections; secs
	// are the sections Φ_lock constrains, a run as one (seed_glue.go).
	rep  []int32
	secs map[program.Loc][]Section
}

func (e *seedEncoder) O(i int32) z3.Term { return e.c.Var(int(e.rep[i])) }

// N is event i's needed flag: a boolean variable, or a constant (forced).
func (e *seedEncoder) N(i int32) z3.Term {
	switch {
	case e.excluded[i]:
		return e.c.False()
	case e.forced[i]:
		return e.c.True()
	}
	return e.c.BoolVar(int(e.rep[i]))
}

func (e *seedEncoder) isRace(i int32) bool { return i == e.q.Race[0] || i == e.q.Race[1] }

// encode asserts the query; false means it is unsatisfiable by construction.
func (e *seedEncoder) encode(s *z3.Solver) bool {
	c, m, q, ev := e.c, e.m, e.q, e.q.Trace.Events
	race := q.Race[0] >= 0 && q.Race[1] >= 0
	e.hidden = -1
	if q.Read >= 0 && program.WritesAtTarget(&ev[q.Read], q.Value) {
		e.hidden = q.Read
	}
	// Events MHB-after a target cannot be in the prefix: the target's new
	// value (or the race) comes last in its thread.
	e.excluded = make([]bool, e.n)
	for i := range ev {
		for _, t := range []int32{q.Read, q.Race[0], q.Race[1]} {
			if t >= 0 && m.Before(t, int32(i)) {
				e.excluded[i] = true
			}
		}
	}
	// Events that can never be needed take no part at all.
	cand := e.candidates()
	for i := range ev {
		if !cand[i] {
			e.excluded[i] = true
		}
	}
	for _, f := range q.Fixed {
		if e.excluded[f] {
			return false
		}
	}
	e.forced = m.Closure(append([]int32{q.Read, q.Race[0], q.Race[1]}, q.Fixed...)...)
	e.glue()
	var cs []z3.Term
	tru := c.True()
	add := func(t z3.Term) {
		if t != tru {
			cs = append(cs, t)
		}
	}
	// Φ_mhb, and N closed under MHB predecessors (the predecessors of a
	// forced event are forced; excluded events have no part; a run of
	// empty sections is one point).
	for i := range ev {
		i := int32(i)
		if e.excluded[i] {
			continue
		}
		for _, p := range m.Pred[i] {
			if e.rep[p] == e.rep[i] {
				continue
			}
			add(c.Lt(e.O(p), e.O(i)))
			if !e.forced[p] {
				add(c.Implies(e.N(i), e.N(p)))
			}
		}
	}
	// Φ_rw: needed reads keep their traced value; the target reads the new one.
	for i := range ev {
		i := int32(i)
		if ev[i].Kind != program.Read || e.excluded[i] || (race && e.isRace(i)) {
			continue
		}
		if i == q.Read {
			add(e.value(i, q.Value, add))
			continue
		}
		add(e.implies(e.N(i), e.value(i, ev[i].Value, add)))
		if w, ok := m.RMWWrite[i]; ok {
			add(e.implies(e.N(i), e.N(w)))
			for _, a := range m.Accesses[ev[i].Loc] {
				if ev[a].Thread != ev[i].Thread && !e.excluded[a] {
					add(c.Implies(c.And(e.N(i), e.N(a)), c.Or(c.Lt(e.O(a), e.O(i)), c.Lt(e.O(w), e.O(a)))))
				}
			}
		}
	}
	// Φ_lock (two needed critical sections of a lock do not overlap) is
	// lazy: see seed_refine.go.
	if race {
		a, b := q.Race[0], q.Race[1]
		add(c.Le(e.O(a), e.O(b)))
		add(c.Le(e.O(b), e.O(a)))
		for i := range ev {
			// Φ_mhb orders the MHB predecessors of a and b before them
			if i := int32(i); i != a && i != b && !e.excluded[i] && e.rep[i] == i && !m.Before(i, a) && !m.Before(i, b) {
				add(e.implies(e.N(i), c.Lt(e.O(i), e.O(a))))
			}
		}
	}
	for _, t := range cs {
		if err := s.Assert(t); err != nil {
			return true // reported through Context.Err by the caller
		}
	}
	return true
}

// implies is n => t, or t if n is the constant true.
func (e *seedEncoder) implies(n, t z3.Term) z3.Term {
	if n == e.c.True() {
		return t
	}
	return e.c.Implies(n, t)
}

// candidates over-approximates the events a solution can need: the
// targets and Fixed reads, closed under MHB predecessors, the writes a
// needed read could read from (same location and value), the write half of
// a read-modify-write, and the releases of critical sections on a lock
// that some candidate acquires.
func (e *seedEncoder) candidates() []bool {
	m, q, ev := e.m, e.q, e.q.Trace.Events
	in := make([]bool, e.n)
	var work []int32
	push := func(i int32) {
		if i >= 0 && !in[i] && !e.excluded[i] {
			in[i] = true
			work = append(work, i)
		}
	}
	push(q.Read)
	push(q.Race[0])
	push(q.Race[1])
	for _, f := range q.Fixed {
		push(f)
	}
	locks := map[program.Loc]bool{}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range m.Pred[i] {
			push(p)
		}
		switch x := &ev[i]; x.Kind {
		case program.Read:
			want := x.Value
			if i == q.Read {
				want = q.Value
			}
			for _, w := range m.Writes[x.Loc] {
				if ev[w].Value == want {
					push(w)
				}
			}
			if w, ok := m.RMWWrite[i]; ok && i != q.Read {
				push(w)
			}
		case program.Acquire:
			if !locks[x.Loc] {
				locks[x.Loc] = true
				for _, s := range m.Sections[x.Loc] {
					push(s.Rel)
				}
			}
		}
	}
	return in
}

// releasedBefore: section s is released (needed) before section t is acquired.
func (e *seedEncoder) releasedBefore(s, t Section) z3.Term {
	if s.Rel < 0 || e.excluded[s.Rel] {
		return e.c.False()
	}
	return e.c.And(e.N(s.Rel), e.c.Lt(e.O(s.Rel), e.O(t.Acq)))
}

// DecodeSchedule turns a solution (an order value and a needed flag per
// event) into the seed schedule: the least set of events closed under MHB
// predecessors that contains the targets and Fixed, the write each of its
// reads reads from in the solution, and the release of every critical
// section that precedes another one in it; in solution order. Race targets
// come last.
func DecodeSchedule(m *MCM, q program.SeedQuery, order []int64, needed []bool) program.Schedule {
	ev := q.Trace.Events
	in := make([]bool, len(ev))
	var work []int32
	push := func(i int32) {
		if i >= 0 && !in[i] {
			in[i] = true
			work = append(work, i)
		}
	}
	// source is the needed write a needed read reads from in the solution.
	source := func(r int32) int32 {
		best := int32(-1)
		for _, w := range m.Writes[ev[r].Loc] {
			if needed[w] && order[w] < order[r] && (best < 0 || order[w] > order[best]) {
				best = w
			}
		}
		return best
	}
	push(q.Read)
	push(q.Race[0])
	push(q.Race[1])
	for _, f := range q.Fixed {
		push(f)
	}
	for {
		for len(work) > 0 {
			i := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range m.Pred[i] {
				push(p)
			}
			if ev[i].Kind == program.Read && i != q.Race[0] && i != q.Race[1] {
				push(source(i))
				if w, ok := m.RMWWrite[i]; ok && i != q.Read {
					push(w)
				}
			}
		}
		// locks: of two sections both started in the prefix, the earlier is released
		changed := false
		for _, secs := range m.Sections {
			for x := range secs {
				for y := range secs {
					s1, s2 := secs[x], secs[y]
					if x == y || !in[s1.Acq] || !in[s2.Acq] || order[s1.Acq] > order[s2.Acq] ||
						s1.Acq == q.Race[0] || s1.Acq == q.Race[1] || s2.Acq == q.Race[0] || s2.Acq == q.Race[1] {
						continue
					}
					if s1.Rel >= 0 && !in[s1.Rel] {
						push(s1.Rel)
						changed = true
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	var sched []int32
	for i := range ev {
		if in[i] {
			sched = append(sched, int32(i))
		}
	}
	last := func(i int32) bool { return i == q.Race[0] || i == q.Race[1] }
	sort.SliceStable(sched, func(a, b int) bool {
		x, y := sched[a], sched[b]
		if last(x) != last(y) {
			return last(y)
		}
		return order[x] < order[y]
	})
	out := make(program.Schedule, len(sched))
	for k, i := range sched {
		out[k] = ev[i].ID()
	}
	return out
}
