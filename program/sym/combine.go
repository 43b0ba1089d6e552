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

// Slice returns q restricted to the constraints that share inputs,
// directly or through other constraints, with Flip, without repeated
// constraints. The kept constraints of the other inputs hold under the
// vector whose path gave the query, so q has a solution iff its slice
// has one that keeps the other inputs' values.
func (q *Query) Slice() *Query {
	varsOf := func(t *Term) map[program.InputID]*Var {
		m := map[program.InputID]*Var{}
		Vars(t, map[*Term]bool{}, m)
		return m
	}
	need := varsOf(q.Flip.Term)
	kv := make([]map[program.InputID]*Var, len(q.Keep))
	for i := range q.Keep {
		kv[i] = varsOf(q.Keep[i].Term)
	}
	in := make([]bool, len(q.Keep))
	for changed := true; changed; {
		changed = false
		for i, m := range kv {
			if in[i] {
				continue
			}
			for id := range m {
				if _, ok := need[id]; ok {
					in[i], changed = true, true
					break
				}
			}
			if in[i] {
				for id, v := range m {
					need[id] = v
				}
			}
		}
	}
	out := &Query{Flip: q.Flip}
	seen := map[string]bool{}
	for i := range q.Keep {
		if !in[i] {
			continue
		}
		if k := q.Keep[i].Key(); !seen[k] {
			seen[k] = true
			out.Keep = append(out.Keep, q.Keep[i])
		}
	}
	return out
}
