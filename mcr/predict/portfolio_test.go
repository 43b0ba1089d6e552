package predict

// This file checks the stages of auto's portfolio (portfolio.go) on a
// small trace: whichever stage answers, the race and its counts are the
// same, every query is answered by some decider, and the statistics say
// which one.

import (
	"context"
	"fmt"
	"testing"

	"mcr/program/tracefile"
)

func TestPortfolioStages(t *testing.T) {
	if !z3Available() {
		t.Skip("z3 not built in")
	}
	path := "../../testdata/traces/lostupdate.vals.txt"
	for _, c := range []struct {
		name           string
		states, units  int
		explicitBudget bool // stage 1 gives up on every query
		z3Budget       bool // stage 2 gives up on every query (the race runs)
	}{
		{"explicit", 0, 0, false, false},
		{"z3", 1, 0, true, false},
		{"race", 1, -1, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := Options{Workers: 1, NoShortcuts: true, States: c.states, z3Units: c.units, CheckAll: true}
			res, err := File(context.Background(), path, tracefile.Options{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			s := res.Stats
			var got []string
			for _, r := range res.Races {
				got = append(got, fmt.Sprintf("%s | %s racy %d later %d", r.Sites[0], r.Sites[1], r.RacyEvents, r.LaterEvents))
			}
			if len(got) != 1 || got[0] != "c | c racy 2 later 1" || !s.Complete || s.Disagreements != 0 || s.Invalid != 0 {
				t.Fatalf("races %q, complete %v, %d disagreements, %d invalid; want [c | c racy 2 later 1], complete, 0, 0",
					got, s.Complete, s.Disagreements, s.Invalid)
			}
			e, z := s.Solver["explicit"], s.Solver["z3"]
			if s.Queries == 0 || e.Answered+z.Answered < s.Queries {
				t.Errorf("%d queries, explicit answered %d, z3 %d: some query without an answer", s.Queries, e.Answered, z.Answered)
			}
			if want := map[bool]int64{true: s.Queries}[c.explicitBudget]; e.Reasons[reasonStates] != want {
				t.Errorf("explicit stopped at its budget %d times, want %d (%+v)", e.Reasons[reasonStates], want, e)
			}
			// A budget of one unit stops every query that Z3 does not decide
			// while simplifying the formula, which needs no units.
			if got := z.Reasons[reasonBudget]; c.z3Budget && (got == 0 || got > s.Queries) || !c.z3Budget && got != 0 {
				t.Errorf("z3 stopped at its budget %d times of %d queries, want %v (%+v)", got, s.Queries,
					map[bool]string{true: "some", false: "none"}[c.z3Budget], z)
			}
			if !c.explicitBudget && (e.Answered != s.Queries || z.Calls != 0) {
				t.Errorf("stage 1: explicit answered %d of %d, z3 called %d times; want all, 0", e.Answered, s.Queries, z.Calls)
			}
			if c.explicitBudget && !c.z3Budget && z.Answered != s.Queries {
				t.Errorf("stage 2: z3 answered %d of %d", z.Answered, s.Queries)
			}
		})
	}
}
