package mcr_test

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"testing"

	"mcr/explicit"
	"mcr/mcr"
	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/randprog"
)

// relaxedKinds are the findings compared under TSO/PSO: races are not
// decided there (TestRelaxedRaces).
var relaxedKinds = []string{explore.KindAssertion, explore.KindDeadlock, explore.KindNullDereference, explore.KindRuntimeError}

// relaxedAgainstDFS runs dfs, rf and mcr (on the deciders named) on src
// under m and checks that mcr is complete, reaches dfs's outcomes and
// finding kinds, runs exactly as many executions as rf (one per
// reads-from class dfs sees) and that its deciders agreed. It returns
// false if dfs was cut by limit (nothing compared).
func relaxedAgainstDFS(t *testing.T, name, src string, defines []string, m program.MemoryModel, limit int, decider string) bool {
	t.Helper()
	load := func() *cfront.Program {
		p, err := cfront.LoadSource(name, []byte(src), cfront.Options{Defines: defines})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := p.SetModel(m); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	d := explore.DFS(ctx, load(), explore.Options{KeepGoing: true, Kinds: relaxedKinds, Observe: func(program.Execution) {
		if n++; n >= limit {
			cancel()
		}
	}})
	if !d.Stats.Complete {
		return false
	}
	opts := explore.Options{KeepGoing: true, Kinds: relaxedKinds, Validate: true}
	rf := explicit.RFSMCRelaxed(context.Background(), load(), opts, m)
	res := mcr.MCR.Run(context.Background(), load(), opts, explore.Config{Model: m, Decider: decider, Workers: 1})
	label := fmt.Sprintf("%s %v under %s (decider %s)", name, defines, m, decider)
	s := res.Stats
	if !s.Complete {
		t.Errorf("%s: mcr incomplete: %s", label, s.Stopped)
		return true
	}
	if s.Outcomes != d.Stats.Outcomes || !reflect.DeepEqual(res.FindingKinds(), d.FindingKinds()) {
		t.Errorf("%s: mcr %d outcomes %v, dfs %d outcomes %v", label, s.Outcomes, res.FindingKinds(), d.Stats.Outcomes, d.FindingKinds())
	}
	if s.Executions != rf.Stats.Executions || s.Executions != d.Stats.RFClasses || s.RFClasses != s.Executions {
		t.Errorf("%s: mcr %d executions (%d classes), rf %d, dfs sees %d reads-from classes", label, s.Executions, s.RFClasses, rf.Stats.Executions, d.Stats.RFClasses)
	}
	if decider == "both" && (s.Extra["crosscheck_disagreements"] != 0 || s.Extra["crosscheck_invalid"] != 0 || s.Extra["crosscheck_queries"] != s.Extra["seed_queries"]) {
		t.Errorf("%s: deciders: %v", label, s.Extra)
	}
	return true
}

// TestRelaxedTestdata: mcr under TSO and PSO against dfs and rf on the
// litmus tests and seed 004 Table 2 shapes of testdata/c/mm, Z3 and
// VerifyTSO/VerifyPSO compared on every query.
func TestRelaxedTestdata(t *testing.T) {
	needZ3(t)
	cases, err := explore.LoadCases("../testdata/c/mm")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		m, ok := program.ParseMemoryModel(c.MM)
		if !ok || m == program.SC || !c.For("dfs") {
			continue
		}
		src, err := os.ReadFile(c.File)
		if err != nil {
			t.Fatal(err)
		}
		if !relaxedAgainstDFS(t, c.File, string(src), c.DefineList(), m, 200_000, "both") {
			t.Errorf("%s: dfs cut", c.Name)
		}
	}
}

// TestRelaxedRandom: mcr under TSO and PSO against dfs and rf on random
// programs with fences and assertions, on both deciders compared.
// MCR_RELAXED_RANDOM sets the number of programs (default 4: about 2 s of
// CPU); the sweep in the README ran 500.
func TestRelaxedRandom(t *testing.T) {
	needZ3(t)
	n := 4
	if s := os.Getenv("MCR_RELAXED_RANDOM"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	o := randprog.Options{Threads: 2, Ops: 3, Globals: 2, Asserts: true, Fences: true, Mutex: true}
	compared := 0
	for seed := range int64(n) {
		src := randprog.Generate(seed, o)
		for _, m := range []program.MemoryModel{program.TSO, program.PSO} {
			if relaxedAgainstDFS(t, fmt.Sprintf("random%d.c", seed), src, nil, m, 5000, "both") {
				compared++
			}
		}
	}
	t.Logf("%d programs, %d (program, model) pairs compared with dfs", n, compared)
}

// TestRelaxedRaces: under TSO/PSO mcr does not decide races yet; a
// program with conflicting non-atomic accesses gives an incomplete result
// that says so, never a silently complete one.
func TestRelaxedRaces(t *testing.T) {
	p, err := cfront.Load("../testdata/c/mm/forward.c", cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []program.MemoryModel{program.TSO, program.PSO} {
		q := p.Fresh()
		if err := q.SetModel(m); err != nil {
			t.Fatal(err)
		}
		res := mcr.MCR.Run(context.Background(), q, explore.Options{KeepGoing: true}, explore.Config{Model: m, Decider: "explicit"})
		if res.Stats.Complete {
			t.Errorf("forward.c under %s: complete, but races are not checked", m)
		}
	}
}
