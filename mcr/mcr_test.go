package mcr_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"mcr/encode/z3"
	"mcr/mcr"
	"mcr/mcr/registry"
	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/randprog"
	"mcr/program/randprog/randtest"
)

func needZ3(t testing.TB) {
	if !z3.Available() {
		t.Skip("built without Z3")
	}
}

// variant is one explorer of this package under test: the registry's
// algorithms that ask decider queries (mcr, mcr-seeds).
type variant struct {
	*explore.Algorithm
	// strict: never more executions than reads-from classes. ExploreSeeds
	// only promises it while its sleep sets hold (its explorer.clean).
	strict bool
}

var variants = func() []variant {
	var out []variant
	for _, a := range registry.Algorithms() {
		if a.Run != nil && len(a.Deciders) > 0 {
			out = append(out, variant{a, a == &mcr.MCR})
		}
	}
	return out
}()

// run explores p with every finding, on the deciders decider names
// ("explicit", "z3", "both": their comparison counted in Extra as
// crosscheck_*; Z3's give-ups as fallback_answers).
func (v variant) run(p program.Program, decider string, workers int) *explore.Result {
	return v.runWith(p, explore.Options{KeepGoing: true, Validate: true}, decider, workers)
}

// runWith is run with the explore options given.
func (v variant) runWith(p program.Program, opts explore.Options, decider string, workers int) *explore.Result {
	return v.Run(context.Background(), randtest.Fresh(p), opts, explore.Config{Workers: workers, Decider: decider})
}

// compare checks an MCR result m against dfs's d (or rf's, which counts
// the same reads-from classes) on one program: the same
// outcomes and finding kinds, complete, no seed that missed its values,
// and no more executions (blocked ones aside) than dfs sees reads-from
// classes (for ExploreSeeds: only while its sleep sets held, and at most
// about three times as many after). Explore must not run a reads-from
// class twice either.
func compare(t *testing.T, name string, v variant, d, m *explore.Result) *explore.Result {
	t.Helper()
	ds, ms := d.Stats, m.Stats
	ref := ds.Algorithm
	if ms.Outcomes != ds.Outcomes {
		t.Errorf("%s: %s reaches %d outcomes, %s %d", name, v.Name, ms.Outcomes, ref, ds.Outcomes)
	}
	if got, want := m.FindingKinds(), d.FindingKinds(); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %s finds %v, %s %v", name, v.Name, got, ref, want)
	}
	clean := v.strict || ms.Extra["sleep_sets_given_up"] == 0
	if ms.Executions-ms.Blocked > ds.RFClasses {
		if clean {
			t.Errorf("%s: %s runs %d executions (%d blocked), %s sees %d reads-from classes", name, v.Name, ms.Executions, ms.Blocked, ref, ds.RFClasses)
		} else {
			t.Logf("%s: relaxed seeds: %s runs %d executions (%d blocked), %s sees %d reads-from classes", name, v.Name, ms.Executions, ms.Blocked, ref, ds.RFClasses)
		}
	}
	if v.strict && ms.RFClasses != ms.Executions-ms.Blocked {
		t.Errorf("%s: %s runs %d executions (%d blocked) of %d reads-from classes: a class twice", name, v.Name, ms.Executions, ms.Blocked, ms.RFClasses)
	}
	if v.strict && ms.BlockedClasses != ms.Blocked {
		t.Errorf("%s: %s runs %d blocked executions of %d blocked classes: a class twice", name, v.Name, ms.Blocked, ms.BlockedClasses)
	}
	if ms.Executions > 3*(ds.RFClasses+ds.BlockedClasses)+2 {
		t.Errorf("%s: %s runs %d executions for %d reads-from classes (%d blocked)", name, v.Name, ms.Executions, ds.RFClasses, ds.BlockedClasses)
	}
	if v.strict && ms.Blocked > ds.BlockedClasses {
		t.Errorf("%s: %s runs %d blocked executions, %s sees %d blocked classes", name, v.Name, ms.Blocked, ref, ds.BlockedClasses)
	}
	for _, k := range []string{"seed_mismatches", "seed_replay_failures", "unknown", "rf_mismatches", "replay_errors", "decider_errors"} {
		if ms.Extra[k] != 0 {
			t.Errorf("%s: %s: %s = %v", name, v.Name, k, ms.Extra[k])
		}
	}
	if !ms.Complete {
		t.Errorf("%s: %s incomplete: %s", name, v.Name, ms.Stopped)
	}
	return m
}

// forCases runs f on every testdata run that want selects.
func forCases(t *testing.T, want func(c explore.Case) bool, f func(t *testing.T, c explore.Case, p program.Program)) {
	cases, err := explore.LoadCases("../testdata/c")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if !want(c) {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			p, err := cfront.Load(c.File, cfront.Options{Defines: c.DefineList(), MaxEvents: c.MaxEvents})
			if err != nil {
				t.Fatal(err)
			}
			f(t, c, p)
		})
	}
}

// TestAgainstDFSTestdata compares both explorers with dfs on every
// testdata run dfs can afford, with Z3 and the explicit deciders, on 1 and
// 2 workers: the same outcomes and findings, the bound on executions,
// identical counts and findings on any number of workers and decider, and
// Z3 and the explicit deciders agreeing on every query.
func TestAgainstDFSTestdata(t *testing.T) {
	needZ3(t)
	forCases(t, func(c explore.Case) bool { return c.For("dfs") && !c.Bounded }, func(t *testing.T, c explore.Case, p program.Program) {
		d := explore.DFS(context.Background(), p, explore.Options{KeepGoing: true})
		for _, v := range variants {
			m1 := compare(t, c.Name, v, d, v.run(p, "z3", 1))
			ex := compare(t, c.Name+" (explicit)", v, d, v.run(p, "explicit", 2))
			same := []*explore.Result{ex}
			if v.strict {
				// z3 on 2 workers too; for mcr-seeds (not the default, and
				// Z3's seed queries are most of this test's time) the
				// workers are checked with the explicit deciders only
				same = append(same, v.run(p, "z3", 2))
			} else if ex.Stats.Extra["sleep_sets_given_up"] > 0 || m1.Stats.Extra["sleep_sets_given_up"] > 0 {
				// Relaxed seeds: the children depend on the witnesses, which
				// differ between deciders; only the workers must not matter.
				same = []*explore.Result{v.run(p, "explicit", 1)}
				m1 = ex
			}
			for _, m := range same {
				if m.Stats.Executions != m1.Stats.Executions || !reflect.DeepEqual(m.FindingKinds(), m1.FindingKinds()) ||
					len(m.Findings) != len(m1.Findings) {
					t.Errorf("%s: z3 on 1 worker: %d executions, %d findings; z3 on 2 or explicit: %d, %d", v.Name,
						m1.Stats.Executions, len(m1.Findings), m.Stats.Executions, len(m.Findings))
				}
			}
			if n := m1.Stats.Extra["fallback_answers"]; n != 0 {
				t.Errorf("%s: Z3 gave up on %v queries", v.Name, n)
			}
			b := v.run(p, "both", 2).Stats
			cs := b.Extra
			asked := m1.Stats.Extra["seed_queries"] + m1.Stats.Extra["race_queries"]
			if cs["crosscheck_disagreements"] != 0 || cs["crosscheck_invalid"] != 0 || cs["crosscheck_queries"] == 0 && asked > 0 {
				t.Errorf("%s --decider both: %v queries, %v disagreements (%s), %v invalid answers", v.Name,
					cs["crosscheck_queries"], cs["crosscheck_disagreements"], b.Stopped, cs["crosscheck_invalid"])
			}
		}
	})
}

// compareVariants compares every variant on p with dfs's result d, with
// the explicit deciders and, if withZ3, with Z3 too.
func compareVariants(t *testing.T, name string, p program.Program, d *explore.Result, withZ3 bool) {
	for _, v := range variants {
		compare(t, name, v, d, v.run(p, "explicit", 1))
		if withZ3 {
			compare(t, name+" (z3)", v, d, v.run(p, "z3", 2))
		}
	}
}

// TestAgainstDFSRandom compares both explorers with dfs on random small
// programs (MCR_RANDOM sets how many; default 200), with the explicit
// deciders and, on every fourth, Z3.
func TestAgainstDFSRandom(t *testing.T) {
	needZ3(t)
	n := randtest.Count("MCR_RANDOM", 200, 30)
	// Programs beyond the first n on which earlier versions of
	// ExploreSeeds lost outcomes: a relaxation "probe" (266, 447, 803) and
	// reusing executions across nodes (502, 879, 1065).
	seeds := randtest.Seeds(n, 266, 447, 502, 803, 879, 1065)
	randtest.Each(t, "seed", seeds, randprog.SmallOptions(), func(seed int64, name string, p program.Program) {
		d := explore.DFS(context.Background(), p, explore.Options{KeepGoing: true})
		compareVariants(t, name, p, d, seed%4 == 0) // Z3 is slower: every fourth program
	})
}

// TestAgainstDFSBlockingRandom compares both explorers with dfs on random
// small programs whose executions block (randprog.BlockingOptions: assumes
// on shared values, assumes while holding the mutex, joins of threads that
// may be stuck; issue 12), with the explicit deciders and, on every eighth,
// Z3. MCR_BLOCKING sets how many (default 800, 200 with -short; 2,000
// ran clean when the default was cut to keep CI under 10 minutes).
func TestAgainstDFSBlockingRandom(t *testing.T) {
	n := randtest.Count("MCR_BLOCKING", 800, 200)
	blocking := 0
	randtest.Each(t, "blocking", randtest.Seeds(n), randprog.BlockingOptions(), func(seed int64, name string, p program.Program) {
		d := explore.DFS(context.Background(), p, explore.Options{KeepGoing: true})
		if d.Stats.Blocked > 0 {
			blocking++
		}
		compareVariants(t, name, p, d, seed%8 == 0 && z3.Available())
	})
	t.Logf("%d programs, %d with blocked executions", n, blocking)
}

// TestAgainstDFSSpinRandom compares both explorers with dfs on random
// small programs with busy-waiting loops (randprog.SpinOptions), whose
// idle iterations stop their thread (program/cfront/idle.go), with the
// explicit deciders and, on every eighth, Z3. Programs whose loops spin
// with effects to the event bound (16 per thread here), or with more than
// 5,000 interleavings, are skipped. MCR_SPIN sets how many (default 60,
// 20 with -short).
func TestAgainstDFSSpinRandom(t *testing.T) {
	n := randtest.Count("MCR_SPIN", 60, 20)
	compared, blocking := 0, 0
	randtest.EachLoaded(t, "spin", randtest.Seeds(n), randprog.SpinOptions(), cfront.Options{MaxEvents: 16}, func(seed int64, name string, p program.Program) {
		d, ok := randtest.DFS(p, 5000, explore.Options{KeepGoing: true})
		if !ok {
			return
		}
		compared++
		if d.Stats.Blocked > 0 {
			blocking++
		}
		compareVariants(t, name, p, d, seed%8 == 0 && z3.Available())
	})
	t.Logf("%d programs, %d compared, %d with blocked executions", n, compared, blocking)
}

// TestAgainstDFSSyncRandom compares both explorers with dfs on random
// small programs over reader-writer locks, semaphores and barriers
// (randprog.SyncOptions; issue 15), with the explicit deciders and, on
// every eighth, Z3. Programs with more than 5,000 interleavings are
// skipped. MCR_SYNC sets how many (default 150, 40 with -short).
func TestAgainstDFSSyncRandom(t *testing.T) {
	n := randtest.Count("MCR_SYNC", 150, 40)
	blocking, big := 0, 0
	// Beyond the first n: 244, on which ExploreSeeds lost outcomes to
	// relaxed seeds that dropped their node's whole map (relaxedKids).
	seeds := randtest.Seeds(n)
	if n < 244 {
		seeds = randtest.Seeds(n, 244)
	}
	randtest.Each(t, "sync", seeds, randprog.SyncOptions(), func(seed int64, name string, p program.Program) {
		d, ok := randtest.DFS(p, 5000, explore.Options{KeepGoing: true})
		if !ok {
			big++
			return
		}
		if d.Stats.Blocked > 0 {
			blocking++
		}
		compareVariants(t, name, p, d, seed%8 == 0 && z3.Available())
	})
	t.Logf("%d programs, %d too big for dfs, %d with blocked executions", n, big, blocking)
}

// TestAgainstRFRequestsRandom compares both explorers with rf on random
// programs of the dispatcher shape (randprog Options.Requests: a lock per
// global, a thread working on a global under its lock, and main making two
// requests in a loop, each creating and joining a helper thread), with the
// explicit deciders. Such programs have too many interleavings for dfs, so
// rf's outcomes and reads-from classes are the reference (rf is held to
// dfs elsewhere); programs on which rf runs more than 400 executions are
// skipped. No Z3: it took 5 to 9 s on some of them, and what is under test
// is the explorer (the other differential tests compare the deciders).
// While ExploreSeeds dropped relaxed seeds on a probe (see query.relax in
// mcr.go), it lost outcomes on 19 and 95 here, on 5 (skipped), and on 9 of
// the first 100 programs with three requests. MCR_REQUESTS sets how many
// (default 20, 8 with -short).
func TestAgainstRFRequestsRandom(t *testing.T) {
	n := randtest.Count("MCR_REQUESTS", 20, 8)
	rf, err := registry.Lookup("rf")
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	opts := randprog.Options{Threads: 1, Ops: 1, Globals: 2, Requests: 2}
	randtest.Each(t, "requests", randtest.Seeds(n, 95), opts, func(seed int64, name string, p program.Program) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		runs := 0
		d := rf.Run(ctx, randtest.Fresh(p), explore.Options{KeepGoing: true, Observe: func(program.Execution) {
			if runs++; runs > 400 {
				cancel()
			}
		}}, explore.Config{Workers: 1})
		if !d.Stats.Complete || runs > 400 {
			return
		}
		compared++
		compareVariants(t, name, p, d, false)
	})
	t.Logf("%d programs, %d compared", n+1, compared)
}

// mustStayClean lists testdata programs on which ExploreSeeds must keep
// its sleep sets (no relaxed seed exists): a change that makes one
// unclean loses the one-execution-per-class guarantee there.
var mustStayClean = []string{"casrot", "control_flow", "floating_read", "lastwrite", "readers", "sigma"}

// TestRunsWithinRFClasses runs both explorers on every testdata run listed
// for mcr with up to 10,000 reads-from classes (or no count, like Figure 2
// of seed 001), dfs or not: complete, the expected findings and outcomes
// (testdata/c/dispatch_reread.c: mcr-seeds reached 42 of 44), and no more
// executions than reads-from classes (for
// ExploreSeeds: when its sleep sets were kept to the end, which they must
// be on mustStayClean). Runs over 1,000 classes go without Options.Validate:
// on lastzero N=11 it asks VerifySC again for each of the 16,687 negatives
// that closure answered, 25x the search (85 s of the package's time), and the
// smaller runs and TestAgainstDFSTestdata validate the same code paths.
func TestRunsWithinRFClasses(t *testing.T) {
	forCases(t, func(c explore.Case) bool {
		return c.For("mcr") && !c.Bounded && (c.RFClasses == nil || *c.RFClasses <= 10000 && (!testing.Short() || *c.RFClasses <= 1000))
	}, func(t *testing.T, c explore.Case, p program.Program) {
		opts := explore.Options{KeepGoing: true, Validate: c.RFClasses == nil || *c.RFClasses <= 1000}
		for _, v := range variants {
			if !v.strict && c.RFClasses != nil && *c.RFClasses > 5000 && !slices.Contains(mustStayClean, strings.Fields(c.Name)[0]) {
				continue // ExploreSeeds on lastzero N=11: 33 s, most of the package's time; N<=4 run above
			}
			m := v.runWith(p, opts, "explicit", 2)
			s := m.Stats
			if !s.Complete || s.Extra["seed_mismatches"] != 0 || s.Extra["rf_mismatches"] != 0 {
				t.Fatalf("%s: incomplete (%s) or seeds that missed their values", v.Name, s.Stopped)
			}
			if got := m.FindingKinds(); !reflect.DeepEqual(append([]string{}, got...), c.Findings) {
				t.Errorf("%s: findings = %v, want %v", v.Name, got, c.Findings)
			}
			if c.Outcomes != nil && s.Outcomes != *c.Outcomes {
				t.Errorf("%s: %d outcomes, want %d", v.Name, s.Outcomes, *c.Outcomes)
			}
			clean := v.strict || s.Extra["sleep_sets_given_up"] == 0
			if !clean && slices.Contains(mustStayClean, strings.Fields(c.Name)[0]) {
				t.Errorf("%s: sleep sets given up", v.Name)
			}
			if c.RFClasses == nil { // counted by nobody: findings only
				continue
			}
			if clean && s.Executions-s.Blocked > *c.RFClasses {
				t.Errorf("%s: %d executions (%d blocked) for %d reads-from classes", v.Name, s.Executions, s.Blocked, *c.RFClasses)
			}
			if b := c.BlockedClasses; clean && b != nil && s.Blocked > *b {
				t.Errorf("%s: %d blocked executions for %d blocked classes", v.Name, s.Blocked, *b)
			}
			if !clean {
				t.Logf("%s: relaxed seeds: sleep sets given up; %d executions for %d reads-from classes", v.Name, s.Executions, *c.RFClasses)
			}
		}
	})
}

// TestSeedsRunOnPastViolations: ExploreSeeds reaches every outcome and
// finding of dfs on testdata/c/rwlock_atomic_writers.c, with the explicit
// deciders and Z3, and its race witnesses replay. When main's failed
// assertion ended the execution, the writers' later writes were in no
// trace and it reached 36 of 42 outcomes (34 on Z3); a failure stops only
// its thread now (program.Failer).
func TestSeedsRunOnPastViolations(t *testing.T) {
	p, err := cfront.Load("../testdata/c/rwlock_atomic_writers.c", cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := explore.DFS(context.Background(), randtest.Fresh(p), explore.Options{KeepGoing: true})
	v := variant{Algorithm: &mcr.Seeds}
	deciders := []string{"explicit"}
	if z3.Available() {
		deciders = append(deciders, "z3")
	}
	for _, dec := range deciders {
		m := compare(t, "rwlock_atomic_writers ("+dec+")", v, d, v.run(p, dec, 2))
		for _, f := range m.Findings {
			if _, err := program.Replay(p, f.Schedule); err != nil {
				t.Errorf("%s: the %s finding's schedule does not replay: %v", dec, f.Kind, err)
			}
		}
	}
}

// TestPredictedNullDereference: a pointer another thread may clear
// (testdata/c/null_deref.c) is reported by Explore as a predicted null
// dereference, with a witness that
// replays to the crash, before the execution that crashes. (ExploreSeeds
// predicts one only for a seed it asks; here its first execution crashes.)
func TestPredictedNullDereference(t *testing.T) {
	p, err := cfront.Load("../testdata/c/null_deref.c", cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range variants[:1] {
		m := v.run(p, "explicit", 2)
		pred, crash := -1, -1
		for i, f := range m.Findings {
			if f.Kind == explore.KindNullDereference && strings.HasPrefix(f.Message, "predicted:") {
				pred = i
			} else if f.Kind == explore.KindNullDereference {
				crash = i
			}
		}
		if pred < 0 || crash >= 0 && m.Findings[crash].Execution <= m.Findings[pred].Execution {
			t.Fatalf("%s: want a predicted null dereference, before the crash; findings: %+v", v.Name, m.Findings)
		}
		x, err := program.Replay(p, m.Findings[pred].Schedule)
		if err != nil {
			t.Fatal(err)
		}
		if _, out := x.Done(); out.Kind != program.NullDereference {
			t.Errorf("%s: the witness replays to %v", v.Name, out.Kind)
		}
	}
}
