package sym

import (
	"fmt"

	"mcr/program"
)

// Explicit decides a query by enumerating every assignment of its inputs
// over their domains, evaluating the constraints concretely. It answers
// Unknown when the product of the domain sizes exceeds Limit (the
// --input-domain flag).
type Explicit struct {
	Limit uint64
}

// DefaultDomain is the default Explicit.Limit.
const DefaultDomain = 4096

// Size returns the product of the domain sizes of vars, or 0 if it
// exceeds limit.
func Size(vars []*Var, limit uint64) uint64 {
	n := uint64(1)
	for _, v := range vars {
		d := v.DomainSize()
		if d == 0 || d > limit || n > limit/d {
			return 0
		}
		n *= d
	}
	return n
}

// Solve implements Solver.
func (e Explicit) Solve(q *Query) (Status, map[program.InputID]int64, string) {
	vars := q.Vars()
	lim := e.Limit
	if lim == 0 {
		lim = DefaultDomain
	}
	n := Size(vars, lim)
	if n == 0 {
		return Unknown, nil, fmt.Sprintf("the query's %d inputs have more than %d value combinations (--input-domain)", len(vars), lim)
	}
	vals := make(map[*Var]int64, len(vars))
	env := func(v *Var) int64 {
		if x, ok := vals[v]; ok {
			return x
		}
		// the same input may appear as distinct *Var values
		for w, x := range vals {
			if w.Thread == v.Thread && w.K == v.K {
				return x
			}
		}
		return 0
	}
	for i := uint64(0); i < n; i++ {
		r := i
		for _, v := range vars {
			d := v.DomainSize()
			vals[v] = v.Norm(int64(r % d))
			r /= d
		}
		memo := map[*Term]int64{}
		ok := !q.Flip.Holds(env, memo)
		for k := 0; ok && k < len(q.Keep); k++ {
			ok = q.Keep[k].Holds(env, memo)
		}
		if ok {
			m := make(map[program.InputID]int64, len(vars))
			for _, v := range vars {
				m[v.ID()] = vals[v]
			}
			return Sat, m, ""
		}
	}
	return Unsat, nil, ""
}
