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
// Every event e has an order variable O_e and a "needed" flag N_e (an
// integer variable compared with 0, so that everything stays in QF_IDL).
// Needed events are the executed prefix; the others may be placed anywhere
// and carry no value constraints. Φ_rw becomes: N_r implies that r reads
// its traced value from some needed write w with no needed write to the
// same location in between, and N is closed under MHB predecessors, which
// gives the recursion Φ_rw(w) of the paper without unfolding it.

// Z3Seeder answers seed queries with Z3. It owns one Z3 context and is not
// safe for concurrent use: create one per worker.
type Z3Seeder struct {
	c       *z3.Context
	s       *z3.Solver
	timeout time.Duration
	rlimit  uint32
	// the structure of the last trace asked about
	lastT *program.Trace
	m     *MCM
	// Calls and Time count queries and solver time (for statistics).
	Calls int
	Time  time.Duration
}

// NewZ3Seeder creates a seeder whose queries time out after timeout (0: 60 s).
// It fails with z3.ErrNotBuilt when mcr was built without Z3.
func NewZ3Seeder(timeout time.Duration) (*Z3Seeder, error) {
	ses, err := newZ3Session()
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	return &Z3Seeder{c: ses.c, s: ses.s, timeout: timeout}, nil
}

// dumpSeq numbers the queries MCR_Z3_DUMP writes, over every worker.
var dumpSeq atomic.Int64

// ErrRlimit is wrapped by the error of a query that reached the resource
// limit of Z3Seeder.SetRlimit (with program.ErrUnknown).
var ErrRlimit = errors.New("z3: resource limit reached")

// SetRlimit bounds every later query by n of Z3's resource units (see
// z3.Solver.SetRlimit; 0: none). A query that reaches it gives up: Decide
// returns an error wrapping program.ErrUnknown that names the limit.
func (z *Z3Seeder) SetRlimit(n uint32) error {
	z.rlimit = n
	return z.s.SetRlimit(n)
}

// Name implements program.SeedDecider.
func (z *Z3Seeder) Name() string { return "z3" }

// Close releases the Z3 context.
func (z *Z3Seeder) Close() {
	z.s.Close()
	z.c.Close()
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
	if z.s.Abandoned() {
		// the last check was abandoned (z3.ErrAbandoned): start afresh
		ses, err := newZ3Session()
		if err != nil {
			return program.SeedAnswer{}, err
		}
		z.c, z.s = ses.c, ses.s
		if err := z.s.SetRlimit(z.rlimit); err != nil {
			return program.SeedAnswer{}, err
		}
	}
	// Release the formula as soon as the query is answered, not at the
	// next one: Z3's memory then holds only running queries, which is what
	// a memory guard sampling it (z3.AllocatedBytes) can stop.
	// Trimming the C heap then hands the freed formula back to the system
	// (resident memory, which is what --query-memory and the 1 GiB goal
	// of issue 18 are about, follows the live formulas).
	defer func() {
		z.c.Reset()
		z.s.Reset()
		z3.TrimMemory()
	}()
	enc := &seedEncoder{c: z.c, m: z.m, q: q, n: len(q.Trace.Events)}
	if !enc.encode(z.s) {
		return program.SeedAnswer{}, nil // trivially unsatisfiable
	}
	if err := z.c.Err(); err != nil {
		return program.SeedAnswer{}, fmt.Errorf("z3: building the seed formula: %w", err)
	}
	if dir := os.Getenv("MCR_Z3_DUMP"); dir != "" {
		// a debugging aid: every query as an SMT-LIB 2 file for the z3
		// command line (best effort: a write error is ignored)
		name := fmt.Sprintf("%s/q%05d.smt2", dir, dumpSeq.Add(1))
		_ = os.WriteFile(name, []byte(z.s.SMTLIB2()+"(check-sat)\n"), 0o644)
	}
	res, err := z.s.Check(ctx, z.timeout)
	if err != nil {
		if errors.Is(err, z3.ErrAbandoned) {
			return program.SeedAnswer{}, fmt.Errorf("%w: %w", err, program.ErrUnknown)
		}
		return program.SeedAnswer{}, fmt.Errorf("z3: %w", err)
	}
	switch res {
	case z3.Unsat:
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
	order := make([]int64, enc.n)
	needed := make([]bool, enc.n)
	for i := 0; i < enc.n; i++ {
		order[i], _ = model.Int(z.c.Var(i))
		nv, _ := model.Int(z.c.Var(enc.n + i))
		needed[i] = nv > 0
	}
	return program.SeedAnswer{Sat: true, Schedule: DecodeSchedule(z.m, q, order, needed)}, nil
}

type seedEncoder struct {
	c        *z3.Context
	m        *MCM
	q        program.SeedQuery
	n        int
	excluded []bool // events that must not be executed (after a target)
	// hidden is the target read when it writes as well
	// (program.WritesAtTarget), else -1
	hidden int32
}

func (e *seedEncoder) O(i int32) z3.Term { return e.c.Var(int(i)) }
func (e *seedEncoder) N(i int32) z3.Term { return e.c.Gt(e.c.Var(e.n+int(i)), e.c.Int(0)) }

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
	var cs []z3.Term
	add := func(t z3.Term) { cs = append(cs, t) }
	for _, f := range q.Fixed {
		if e.excluded[f] {
			return false
		}
		add(e.N(f))
	}
	// Φ_mhb, and N closed under MHB predecessors.
	for i := range ev {
		i := int32(i)
		if e.excluded[i] {
			add(c.Not(e.N(i)))
			continue
		}
		for _, p := range m.Pred[i] {
			add(c.Lt(e.O(p), e.O(i)))
			add(c.Implies(e.N(i), e.N(p)))
		}
	}
	// Φ_rw: needed reads keep their traced value; the target reads the new one.
	for i := range ev {
		i := int32(i)
		if ev[i].Kind != program.Read || e.excluded[i] || (race && e.isRace(i)) {
			continue
		}
		if i == q.Read {
			add(e.N(i))
			add(e.value(i, q.Value))
			continue
		}
		add(c.Implies(e.N(i), e.value(i, ev[i].Value)))
		if w, ok := m.RMWWrite[i]; ok {
			add(c.Implies(e.N(i), e.N(w)))
			for _, a := range m.Accesses[ev[i].Loc] {
				if ev[a].Thread != ev[i].Thread && !e.excluded[a] {
					add(c.Implies(c.And(e.N(i), e.N(a)), c.Or(c.Lt(e.O(a), e.O(i)), c.Lt(e.O(w), e.O(a)))))
				}
			}
		}
	}
	// Φ_lock: two needed critical sections on a lock do not overlap. Only
	// sections of the cone take part (the others are excluded), and a pair
	// whose order must-happen-before fixes is left out: if s1's release is
	// MHB-before s2's acquire, a needed s2 needs s1's release (N is closed
	// under MHB predecessors) and Φ_mhb orders them.
	for _, secs := range m.Sections {
		for x := 0; x < len(secs); x++ {
			for y := x + 1; y < len(secs); y++ {
				s1, s2 := secs[x], secs[y]
				// a race target that is an acquire (a deadlock query) is the
				// thread's next event, not executed: it holds nothing yet
				if ev[s1.Acq].Thread == ev[s2.Acq].Thread || e.excluded[s1.Acq] || e.excluded[s2.Acq] ||
					(race && (e.isRace(s1.Acq) || e.isRace(s2.Acq))) ||
					s1.Rel >= 0 && m.Before(s1.Rel, s2.Acq) || s2.Rel >= 0 && m.Before(s2.Rel, s1.Acq) {
					continue
				}
				add(c.Implies(c.And(e.N(s1.Acq), e.N(s2.Acq)), c.Or(e.releasedBefore(s1, s2), e.releasedBefore(s2, s1))))
			}
		}
	}
	if race {
		a, b := q.Race[0], q.Race[1]
		add(e.N(a))
		add(e.N(b))
		add(c.Eq(e.O(a), e.O(b)))
		for i := range ev {
			// Φ_mhb orders the MHB predecessors of a and b before them
			if i := int32(i); i != a && i != b && !e.excluded[i] && !m.Before(i, a) && !m.Before(i, b) {
				add(c.Implies(e.N(i), c.Lt(e.O(i), e.O(a))))
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

// value is Φ_value(r, v): r reads v from a needed write with no needed
// write to its location in between, or v is the initial value and no
// needed write precedes r.
func (e *seedEncoder) value(r int32, v int64) z3.Term {
	c, m, ev := e.c, e.m, e.q.Trace.Events
	ws := m.Writes[ev[r].Loc]
	var opts []z3.Term
	for _, w := range ws {
		if ev[w].Value != v || e.excluded[w] || m.Before(r, w) {
			continue
		}
		parts := []z3.Term{e.N(w), c.Lt(e.O(w), e.O(r))}
		if h := e.hidden; h >= 0 && h != r && ev[h].Loc == ev[r].Loc {
			parts = append(parts, c.Or(c.Lt(e.O(r), e.O(h)), c.Lt(e.O(h), e.O(w))))
		}
		possible := true
		for _, w2 := range ws {
			if w2 == w || e.excluded[w2] || m.Before(w2, w) || m.Before(r, w2) {
				continue
			}
			if m.Before(w, w2) && m.Before(w2, r) {
				possible = false // w2 is necessarily between w and r
				break
			}
			parts = append(parts, c.Implies(e.N(w2), c.Or(c.Lt(e.O(w2), e.O(w)), c.Lt(e.O(r), e.O(w2)))))
		}
		if possible {
			opts = append(opts, c.And(parts...))
		}
	}
	if v == e.q.Trace.InitValue(ev[r].Loc) {
		var parts []z3.Term
		if h := e.hidden; h >= 0 && h != r && ev[h].Loc == ev[r].Loc {
			parts = append(parts, c.Lt(e.O(r), e.O(h)))
		}
		possible := true
		for _, w2 := range ws {
			if e.excluded[w2] || m.Before(r, w2) {
				continue
			}
			if m.Before(w2, r) {
				possible = false
				break
			}
			parts = append(parts, c.Implies(e.N(w2), c.Lt(e.O(r), e.O(w2))))
		}
		if possible {
			opts = append(opts, c.And(parts...))
		}
	}
	return c.Or(opts...)
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
