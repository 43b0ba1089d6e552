package explore_test

import (
	"context"
	"reflect"
	"testing"

	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
)

// TestDFSTestdata runs dfs on every testdata program run it can afford and
// compares reads-from classes and finding kinds with the expectations, and
// replays every finding's schedule.
func TestDFSTestdata(t *testing.T) {
	cases, err := explore.LoadCases("../../testdata/c")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("only %d testdata runs found", len(cases))
	}
	for _, c := range cases {
		if !c.For("dfs") {
			continue
		}
		t.Run(c.Name, func(t *testing.T) { checkDFSCase(t, c) })
	}
}

// TestDFSMemoryModels runs dfs on the litmus tests of testdata/c/mm under
// the memory model of each run (store buffering, message passing, with and
// without fences, forwarding) and checks the expectations as
// TestDFSTestdata does: a violation exactly where the model allows it.
func TestDFSMemoryModels(t *testing.T) {
	cases, err := explore.LoadCases("../../testdata/c/mm")
	if err != nil {
		t.Fatal(err)
	}
	models := map[string]bool{}
	for _, c := range cases {
		models[c.MM] = true
		if c.For("dfs") {
			t.Run(c.Name, func(t *testing.T) { checkDFSCase(t, c) })
		}
	}
	if len(cases) < 12 || !models["tso"] || !models["pso"] {
		t.Fatalf("only %d runs found in testdata/c/mm (models %v)", len(cases), models)
	}
}

// checkDFSCase runs dfs on c under its memory model and compares the
// counts and finding kinds with c's, and replays every finding.
func checkDFSCase(t *testing.T, c explore.Case) {
	p, err := cfront.Load(c.File, cfront.Options{Defines: c.DefineList(), MaxEvents: c.MaxEvents})
	if err != nil {
		t.Fatal(err)
	}
	if c.MM != "" {
		m, ok := program.ParseMemoryModel(c.MM)
		if !ok {
			t.Fatalf("bad mm %q", c.MM)
		}
		if err := p.SetModel(m); err != nil {
			t.Fatal(err)
		}
	}
	res := explore.DFS(context.Background(), p, explore.Options{KeepGoing: true})
	s := res.Stats
	if c.RFClasses != nil && s.RFClasses != *c.RFClasses {
		t.Errorf("rf classes = %d, want %d", s.RFClasses, *c.RFClasses)
	}
	if c.BlockedClasses != nil && s.BlockedClasses != *c.BlockedClasses {
		t.Errorf("blocked classes = %d, want %d", s.BlockedClasses, *c.BlockedClasses)
	}
	if c.Outcomes != nil && s.Outcomes != *c.Outcomes {
		t.Errorf("outcomes = %d, want %d", s.Outcomes, *c.Outcomes)
	}
	if got := res.FindingKinds(); !reflect.DeepEqual(append([]string{}, got...), c.Findings) {
		t.Errorf("findings = %v, want %v", got, c.Findings)
	}
	if (s.Bounded > 0) != c.Bounded {
		t.Errorf("bounded executions = %d, want bounded=%v", s.Bounded, c.Bounded)
	}
	if s.Complete != (s.Bounded == 0) {
		t.Errorf("complete = %v with %d bounded executions", s.Complete, s.Bounded)
	}
	for _, f := range res.Findings {
		checkReplay(t, p, f)
	}
}

// checkReplay replays a finding's schedule and checks that it reproduces.
func checkReplay(t *testing.T, p program.Program, f explore.Finding) {
	t.Helper()
	x, err := program.Replay(p, program.ResolveSchedule(p, f.Steps))
	if err != nil {
		t.Errorf("%s: schedule does not replay: %v", f.Kind, err)
		return
	}
	tr := x.Trace()
	if err := tr.Check(); err != nil {
		t.Errorf("%s: replayed trace is malformed: %v", f.Kind, err)
	}
	_, out := x.Done()
	if f.Kind == explore.KindRace {
		n := len(f.Steps)
		if n < 2 || n > len(tr.Events) || !program.Conflicts(program.MemoryAccess(tr.Events[n-2]), program.MemoryAccess(tr.Events[n-1])) {
			t.Errorf("race schedule does not end with two conflicting accesses")
		}
		return
	}
	if out.Kind.String() != f.Kind {
		t.Errorf("replay ends in %s, finding is %s", out.Kind, f.Kind)
	}
}

// TestDFSStopsAtFirstFinding checks that without KeepGoing the search stops
// and says so.
func TestDFSStopsAtFirstFinding(t *testing.T) {
	p, err := cfront.Load("../../testdata/c/lost_update.c", cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := explore.DFS(context.Background(), p, explore.Options{})
	if len(res.Findings) != 1 || res.Stats.Complete || res.Stats.Stopped != "finding" {
		t.Fatalf("got %d findings, complete=%v stopped=%q", len(res.Findings), res.Stats.Complete, res.Stats.Stopped)
	}
}

// TestDFSCancel checks that a cancelled context stops the search as incomplete.
func TestDFSCancel(t *testing.T) {
	p, err := cfront.Load("../../testdata/c/lastzero.c", cfront.Options{Defines: []string{"N=3"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := explore.DFS(ctx, p, explore.Options{})
	if res.Stats.Complete || res.Stats.Stopped != "interrupted" {
		t.Fatalf("complete=%v stopped=%q", res.Stats.Complete, res.Stats.Stopped)
	}
}

// TestValidateCatchesMisses: Validate reports the classes and the finding
// an exploration did not reach (here: one that saw only the default
// execution of assume_stuck.c and reported nothing).
func TestValidateCatchesMisses(t *testing.T) {
	p, err := cfront.Load("../../testdata/c/assume_stuck.c", cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := explore.NewReached()
	x, _ := program.Replay(p, nil)
	got.Observe(nil)(x)
	res := &explore.Result{}
	v := explore.Validate(context.Background(), p, res, got, true, 0)
	if v.OK() || len(v.MissedFindings) != 1 || !v.Complete || v.MissedBlockedClasses != 2 {
		t.Errorf("validation of a partial exploration: %+v", v)
	}
	full := explore.NewReached()
	d := explore.DFS(context.Background(), p, explore.Options{KeepGoing: true, Observe: full.Observe(nil)})
	if v := explore.Validate(context.Background(), p, d, full, true, 0); !v.OK() || v.MissedBlockedClasses+v.MissedRFClasses != 0 {
		t.Errorf("dfs against itself: %+v", v)
	}
}

// TestKinds checks Options.Kinds: findings of other kinds are dropped and
// do not stop the search. racy_flag races, and its assertion holds.
func TestKinds(t *testing.T) {
	p, err := cfront.Load("../../testdata/c/racy_flag.c", cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := explore.DFS(context.Background(), p, explore.Options{})
	if len(all.Findings) != 1 || all.Findings[0].Kind != explore.KindRace || all.Stats.Complete {
		t.Fatalf("without Kinds: %v, complete %v; want the race, stopped", all.FindingKinds(), all.Stats.Complete)
	}
	asserts := explore.DFS(context.Background(), p, explore.Options{Kinds: []string{explore.KindAssertion}})
	if len(asserts.Findings) != 0 || !asserts.Stats.Complete || asserts.Stats.Executions <= all.Stats.Executions {
		t.Errorf("assertions only: %v, complete %v, %d executions; want none, complete, past the race",
			asserts.FindingKinds(), asserts.Stats.Complete, asserts.Stats.Executions)
	}
}
