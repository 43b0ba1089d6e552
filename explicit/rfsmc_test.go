package explicit

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"testing"

	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/randprog"
)

// smcAlgo is one SMC explorer under test.
type smcAlgo struct {
	name string
	run  func(ctx context.Context, p program.Program, opts explore.Options) *explore.Result
}

var (
	rfAlgo  = smcAlgo{"rf", ReadsFromSMC}
	rvfAlgo = smcAlgo{"rvf", RVFSMC}
)

// observed is what an exploration showed, collected through
// explore.Options.Observe.
type observed struct {
	outcomes map[string]bool
	classes  map[string]bool // reads-from classes counting acquires (lockKey)
}

func observe(o *observed) explore.Options {
	*o = observed{outcomes: map[string]bool{}, classes: map[string]bool{}}
	return explore.Options{KeepGoing: true, Observe: func(x program.Execution) {
		if _, out := x.Done(); out.Kind == program.Blocked {
			return
		}
		tr := x.Trace()
		o.outcomes[program.OutcomeKey(tr)] = true
		o.classes[lockKey(tr)] = true
	}}
}

// lockKey is program.RFKey extended with the release each acquire
// follows: the reads-from class when locks are read-modify-writes of their
// mutex, which is what ReadsFrom-SMC (seed 002 Section 7) distinguishes.
func lockKey(tr *program.Trace) string {
	k := program.RFKey(tr)
	last := map[program.Loc]string{}
	var acq []string
	for _, e := range tr.Events {
		id := tr.Threads[e.Thread].Name + ":" + strconv.Itoa(int(e.Index))
		switch e.Kind {
		case program.Acquire:
			acq = append(acq, id+"<"+last[e.Loc])
		case program.Release:
			last[e.Loc] = id
		}
	}
	sort.Strings(acq)
	return fmt.Sprint(k, acq)
}

// compareSMC runs algo on p and checks it against the dfs result d (with
// its observations do): the same outcomes and finding kinds, a complete
// search with no internal error, and for rf exactly one execution per
// class (dfs's reads-from classes when the program has no locks). It
// returns the result.
func compareSMC(t *testing.T, name string, p program.Program, algo smcAlgo, d *explore.Result, do *observed) *explore.Result {
	t.Helper()
	validateWitnesses = true
	defer func() { validateWitnesses = false }()
	var o observed
	res := algo.run(context.Background(), p, observe(&o))
	st := res.Stats
	if !reflect.DeepEqual(o.outcomes, do.outcomes) {
		t.Errorf("%s: %s reaches %d outcomes, dfs %d", name, algo.name, len(o.outcomes), len(do.outcomes))
	}
	if got, want := res.FindingKinds(), d.FindingKinds(); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %s finds %v, dfs %v", name, algo.name, got, want)
	}
	for _, k := range []string{"rf_mismatches", "replay_errors", "decider_errors"} {
		if st.Extra[k] != 0 {
			t.Errorf("%s: %s: %s = %v", name, algo.name, k, st.Extra[k])
		}
	}
	if !st.Complete && st.Bounded == 0 {
		t.Errorf("%s: %s incomplete: %s", name, algo.name, st.Stopped)
	}
	explored := st.Executions - st.Blocked
	switch algo.name {
	case "rf":
		if explored != len(do.classes) {
			t.Errorf("%s: rf explores %d executions, dfs sees %d classes (%d reads-from classes)", name, explored, len(do.classes), d.Stats.RFClasses)
		}
		if !hasLocks(p) && explored != d.Stats.RFClasses {
			t.Errorf("%s: rf explores %d executions, dfs sees %d reads-from classes", name, explored, d.Stats.RFClasses)
		}
	default:
		if explored > len(do.classes) {
			t.Errorf("%s: %s explores %d executions, more than the %d classes", name, algo.name, explored, len(do.classes))
		}
	}
	return res
}

// hasLocks reports whether some execution of p (the default one) takes a
// lock.
func hasLocks(p program.Program) bool {
	x, _ := program.Replay(p, nil)
	for _, e := range x.Trace().Events {
		if e.Kind.IsLock() {
			return true
		}
	}
	return false
}

func loadCase(t testing.TB, c explore.Case) program.Program {
	p, err := cfront.Load(c.File, cfront.Options{Defines: c.DefineList(), MaxEvents: c.MaxEvents})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSMCTestdata compares rf and rvf with dfs on every testdata run dfs
// can afford, and checks the expected counts and findings.
func TestSMCTestdata(t *testing.T) {
	cases, err := explore.LoadCases("../testdata/c")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if !c.For("dfs") {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			p := loadCase(t, c)
			var do observed
			d := explore.DFS(context.Background(), p, observe(&do))
			for _, a := range []smcAlgo{rfAlgo, rvfAlgo} {
				res := compareSMC(t, c.Name, p, a, d, &do)
				if got := res.FindingKinds(); !reflect.DeepEqual(got, c.Findings) && !(len(got) == 0 && len(c.Findings) == 0) {
					t.Errorf("%s: %s finds %v, expected %v", c.Name, a.name, got, c.Findings)
				}
				if a.name == "rf" && c.RFClasses != nil && res.Stats.Executions != *c.RFClasses && !hasLocks(p) {
					t.Errorf("%s: rf explores %d executions, expected %d", c.Name, res.Stats.Executions, *c.RFClasses)
				}
			}
		})
	}
}

// TestSMCRandom compares rf and rvf with dfs on random small programs
// (SMC_RANDOM sets how many; default 200, 40 with -short).
func TestSMCRandom(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	if s := os.Getenv("SMC_RANDOM"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	locks, same := 0, 0
	for seed := int64(1); seed <= int64(n); seed++ {
		src := randprog.Generate(seed, randprog.SmallOptions())
		name := fmt.Sprintf("seed%d.c", seed)
		p, err := cfront.LoadSource(name, []byte(src), cfront.Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		var do observed
		d := explore.DFS(context.Background(), p, observe(&do))
		before := t.Failed()
		r := compareSMC(t, name, p, rfAlgo, d, &do)
		compareSMC(t, name, p, rvfAlgo, d, &do)
		if hasLocks(p) {
			locks++
			if r.Stats.Executions == d.Stats.RFClasses {
				same++
			}
		}
		if !before && t.Failed() {
			t.Logf("%s:\n%s", name, src)
		}
	}
	t.Logf("%d programs, %d with a mutex (%d of them with as many lock-aware classes as reads-from classes)", n, locks, same)
}

// bigRuns are the BENCHMARKS.md rows: testdata runs too large for dfs,
// with the rf count and the rvf bound (0: rvf at most rf).
var bigRuns = []struct {
	file string
	n    string
	rf   int
	rvf  int
}{
	{"lastzero", "4", 28, 0}, {"lastzero", "11", 7168, 7168}, {"readers", "13", 8192, 8192},
	{"sigma", "7", 5040, 5040}, {"floating_read", "6", 7, 7}, {"lastwrite", "7", 7, 7},
	{"casrot", "9", 8597, 8597}, {"fib_bench", "4", 19605, 19605}, {"control_flow", "5", 43, 35},
	{"opt_lock", "11", 127, 82}, {"account", "5", 46656, 23592}, {"airline", "5", 3125, 1455},
}

// TestSMCBenchmarks reproduces the rf counts of BENCHMARKS.md and checks
// rvf against its rvf column (skipped with -short).
func TestSMCBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("big benchmarks")
	}
	for _, b := range bigRuns {
		t.Run(b.file+"_"+b.n, func(t *testing.T) {
			p, err := cfront.Load("../testdata/c/"+b.file+".c", cfront.Options{Defines: []string{"N=" + b.n}})
			if err != nil {
				t.Fatal(err)
			}
			r := ReadsFromSMC(context.Background(), p, explore.Options{KeepGoing: true})
			if r.Stats.Executions != b.rf || !r.Stats.Complete || len(r.Findings) != 0 {
				t.Errorf("rf: %d executions (want %d), complete %v, %d findings", r.Stats.Executions, b.rf, r.Stats.Complete, len(r.Findings))
			}
			v := RVFSMC(context.Background(), p, explore.Options{KeepGoing: true})
			bound := b.rvf
			if bound == 0 {
				bound = b.rf
			}
			if v.Stats.Executions > bound || !v.Stats.Complete || len(v.Findings) != 0 {
				t.Errorf("rvf: %d executions (want at most %d), complete %v, %d findings", v.Stats.Executions, bound, v.Stats.Complete, len(v.Findings))
			}
			t.Logf("rf %d (%.2fs), rvf %d (%.2fs)", r.Stats.Executions, r.Stats.Seconds, v.Stats.Executions, v.Stats.Seconds)
		})
	}
}
