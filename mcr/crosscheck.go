package mcr

import (
	"context"
	"fmt"
	"sync"

	"mcr/program"
)

// CrossCheck answers seed queries with two deciders and compares them
// (`mcr check --decider both`, DESIGN.md "Correctness strategy"): their
// verdicts must agree and each satisfiable answer must pass
// program.CheckSeed. It returns the first decider's answer, or the
// second's when the first fails.
type CrossCheck struct {
	A, B program.SeedDecider
	*CrossStats
}

// CrossStats counts what a CrossCheck saw; share one among the CrossChecks
// of a run.
type CrossStats struct {
	mu            sync.Mutex
	Queries       int
	Disagreements int
	Invalid       int
	First         string // the first disagreement, described
}

// Name implements program.SeedDecider.
func (c CrossCheck) Name() string { return c.A.Name() + "+" + c.B.Name() }

// Seed implements program.SeedDecider.
func (c CrossCheck) Seed(ctx context.Context, q program.SeedQuery) (program.SeedAnswer, error) {
	a, errA := c.A.Seed(ctx, q)
	b, errB := c.B.Seed(ctx, q)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Queries++
	for _, x := range []struct {
		ans program.SeedAnswer
		err error
	}{{a, errA}, {b, errB}} {
		if x.err == nil && x.ans.Sat {
			if err := program.CheckSeed(q, x.ans); err != nil {
				c.Invalid++
			}
		}
	}
	if errA == nil && errB == nil && a.Sat != b.Sat {
		c.Disagreements++
		if c.First == "" {
			c.First = fmt.Sprintf("%s says %v, %s says %v on %s", c.A.Name(), a.Sat, c.B.Name(), b.Sat, describe(q))
		}
	}
	if errA != nil {
		return b, errB
	}
	return a, nil
}

// Close closes both deciders.
func (c CrossCheck) Close() {
	for _, d := range []program.SeedDecider{c.A, c.B} {
		if cl, ok := d.(interface{ Close() }); ok {
			cl.Close()
		}
	}
}

func describe(q program.SeedQuery) string {
	t := q.Trace
	switch {
	case q.Read >= 0:
		return fmt.Sprintf("seed %s := %d (%d fixed reads)", t.Describe(int(q.Read)), q.Value, len(q.Fixed))
	case q.Race[0] >= 0:
		return fmt.Sprintf("race %s / %s", t.Describe(int(q.Race[0])), t.Describe(int(q.Race[1])))
	}
	return "query"
}
