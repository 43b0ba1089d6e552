package explore_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/randprog"
)

// modelRun is what dfs reached under one memory model.
type modelRun struct {
	rf, outcomes map[string]bool
	findings     []string
	complete     bool
}

// exploreUnder runs dfs on src under m (at most limit executions) and
// checks every execution's trace against the instance model: the trace,
// flushes included, must be a witness of its own reads-from instance
// (program.ValidateWitness, the validator every decider's witness
// passes), so the executor's store buffers, forwarding and drains obey
// program/INSTANCES.md.
func exploreUnder(t *testing.T, name, src string, m program.MemoryModel, limit int) modelRun {
	t.Helper()
	p, err := cfront.LoadSource(name, []byte(src), cfront.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := p.SetModel(m); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run := modelRun{rf: map[string]bool{}, outcomes: map[string]bool{}}
	n := 0
	observe := func(x program.Execution) {
		if n++; n >= limit {
			cancel()
		}
		tr := x.Trace()
		_, out := x.Done()
		if out.Kind == program.Bounded {
			return
		}
		if out.Kind != program.Blocked {
			run.rf[program.RFKey(tr)] = true
		}
		if out.Kind.Maximal() {
			run.outcomes[program.OutcomeKey(tr)] = true
		}
		inst, err := program.InstanceFromTrace(tr, program.ReadsFrom)
		if err != nil {
			return // a failed trylock: no instance
		}
		if err := program.ValidateWitness(inst, program.TraceWitness(tr)); err != nil {
			t.Errorf("%s under %s: an execution is not a witness of its own instance: %v", name, m, err)
			cancel()
		}
	}
	res := explore.DFS(ctx, p, explore.Options{KeepGoing: true, Observe: observe})
	run.findings, run.complete = res.FindingKinds(), res.Stats.Complete
	return run
}

// missing counts the keys of a that b lacks.
func missing(a, b map[string]bool) int {
	n := 0
	for k := range a {
		if !b[k] {
			n++
		}
	}
	return n
}

// TestMemoryModelsRandom explores small random programs with fences,
// atomics, mutexes and assertions under SC, TSO and PSO with dfs and
// checks what the models' definitions imply (004_fe58e94b2666f77b.txt
// Section 2.1): every SC execution is a TSO execution (each write flushed
// at once) and every TSO execution a PSO execution, so the reads-from
// classes, outcomes and finding kinds only grow from SC to TSO to PSO; and
// every execution is a witness of its own instance (exploreUnder). Set
// MCR_MM_RANDOM to the number of programs (default 10, for CI's time).
func TestMemoryModelsRandom(t *testing.T) {
	n := 10
	if s := os.Getenv("MCR_MM_RANDOM"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	// plain loads and stores, fences, assertions; no mutexes and atomic
	// read-modify-writes, which drain the buffers and hide the models'
	// differences
	o := randprog.Options{Threads: 2, Ops: 3, Globals: 2, Asserts: true, Fences: true}
	relaxed := 0  // pairs in which the weaker model has more classes
	compared := 0 // pairs of complete explorations
	for seed := range int64(n) {
		src := randprog.Generate(seed, o)
		name := fmt.Sprintf("random%d.c", seed)
		var runs []modelRun
		for _, m := range program.Models {
			runs = append(runs, exploreUnder(t, name, src, m, 5000))
		}
		for i := 1; i < len(runs); i++ {
			weak, strong := program.Models[i], program.Models[i-1]
			a, b := runs[i-1], runs[i]
			if !a.complete || !b.complete {
				continue // too many interleavings for the limit
			}
			compared++
			if k := missing(a.rf, b.rf); k > 0 {
				t.Errorf("%s: %d reads-from classes of %s are missing under %s\n%s", name, k, strong, weak, src)
			}
			if k := missing(a.outcomes, b.outcomes); k > 0 {
				t.Errorf("%s: %d outcomes of %s are missing under %s\n%s", name, k, strong, weak, src)
			}
			for _, f := range a.findings {
				if !slices.Contains(b.findings, f) {
					t.Errorf("%s: finding %s under %s, not under %s\n%s", name, f, strong, weak, src)
				}
			}
			if len(b.rf) > len(a.rf) {
				relaxed++
			}
		}
	}
	t.Logf("%d programs, %d model pairs compared, %d with more classes under the weaker model", n, compared, relaxed)
	if n >= 100 && relaxed == 0 {
		t.Errorf("no random program behaves differently under PSO: the generator or the buffers are too weak to test anything")
	}
}
