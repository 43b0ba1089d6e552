package explore_test

import (
	"context"
	"os"
	"testing"

	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/sym"
)

type logSolver struct{ t *testing.T }

func (l logSolver) Solve(q *sym.Query) (sym.Status, map[program.InputID]int64, string) {
	st, m, why := sym.Explicit{}.Solve(q)
	l.t.Logf("%s: %s %v", st, q, m)
	return st, m, why
}

func TestDebugInputs(t *testing.T) {
	f := os.Getenv("MCR_DEBUG_C")
	if f == "" {
		t.Skip()
	}
	p, err := cfront.Load(f, cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := explore.ExploreInputs(context.Background(), &explore.DFSAlgorithm, p, explore.Options{KeepGoing: true}, explore.Config{}, explore.InputOptions{Solver: logSolver{t}, Exhaustive: true})
	t.Logf("%+v", res.Stats)
}
