package sym

import (
	"fmt"
	"sync"

	"mcr/program"
)

// Fallback asks First, and Then when First answers Unknown.
type Fallback struct {
	First, Then Solver
}

// Solve implements Solver.
func (f Fallback) Solve(q *Query) (Status, map[program.InputID]int64, string) {
	st, m, why := f.First.Solve(q)
	if st != Unknown {
		return st, m, why
	}
	st2, m2, why2 := f.Then.Solve(q)
	if st2 != Unknown {
		return st2, m2, why2
	}
	return Unknown, nil, why + "; " + why2
}

// CrossCheck asks A and B; where both decide, they must agree (a
// disagreement is counted and the first one described). A's answer is
// used, or B's when A's is Unknown. Every model is checked against the
// query by evaluation.
type CrossCheck struct {
	A, B          Solver
	mu            sync.Mutex
	Disagreements int
	Both          int // queries both decided
	First         string
}

// Solve implements Solver.
func (c *CrossCheck) Solve(q *Query) (Status, map[program.InputID]int64, string) {
	sa, ma, wa := c.A.Solve(q)
	sb, mb, wb := c.B.Solve(q)
	c.mu.Lock()
	defer c.mu.Unlock()
	bad := func(msg string) {
		c.Disagreements++
		if c.First == "" {
			c.First = msg
		}
	}
	if sa != Unknown && sb != Unknown {
		c.Both++
		if sa != sb {
			bad(fmt.Sprintf("%s vs %s on %s", sa, sb, q))
		}
	}
	for _, m := range []map[program.InputID]int64{ma, mb} {
		if m != nil && !q.Satisfied(m) {
			bad(fmt.Sprintf("a model does not satisfy %s", q))
		}
	}
	if sa != Unknown {
		return sa, ma, wa
	}
	return sb, mb, wb
}

// Satisfied reports whether the model m (absent inputs 0) satisfies q.
func (q *Query) Satisfied(m map[program.InputID]int64) bool {
	env := func(v *Var) int64 { return v.Norm(m[v.ID()]) }
	memo := map[*Term]int64{}
	if q.Flip.Holds(env, memo) {
		return false
	}
	for i := range q.Keep {
		if !q.Keep[i].Holds(env, memo) {
			return false
		}
	}
	return true
}

// String renders q for messages.
func (q *Query) String() string {
	s := ""
	for i := range q.Keep {
		s += q.Keep[i].Key() + " ∧ "
	}
	return s + "¬" + q.Flip.Key()
}
