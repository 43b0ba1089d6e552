package mcr_test

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mcr/encode"
	"mcr/encode/z3"
	"mcr/explicit"
	"mcr/mcr"
	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/randprog"
)

func z3Options(workers int) mcr.Options {
	return mcr.Options{Options: explore.Options{KeepGoing: true}, Workers: workers,
		NewDecider: func() (program.SeedDecider, error) { return encode.NewZ3Seeder(0) }}
}

func explicitOptions(workers int) mcr.Options {
	return mcr.Options{Options: explore.Options{KeepGoing: true}, Workers: workers,
		NewDecider: func() (program.SeedDecider, error) { return explicit.Seeder{}, nil }}
}

// bothOptions cross-checks Z3 and the explicit search on every query.
func bothOptions(stats *mcr.CrossStats) mcr.Options {
	return mcr.Options{Options: explore.Options{KeepGoing: true}, Workers: 2,
		NewDecider: func() (program.SeedDecider, error) {
			z, err := encode.NewZ3Seeder(0)
			if err != nil {
				return nil, err
			}
			return mcr.CrossCheck{A: z, B: explicit.Seeder{}, CrossStats: stats}, nil
		}}
}

func needZ3(t testing.TB) {
	if !z3.Available() {
		t.Skip("built without Z3")
	}
}

// compare checks MCR against dfs on one program: the same outcomes and
// finding kinds, no more executions (blocked ones aside) than dfs sees
// reads-from classes, and no seed that missed its values.
func compare(t *testing.T, name string, p program.Program, d *explore.Result, o mcr.Options) *explore.Result {
	t.Helper()
	m := mcr.Explore(context.Background(), p, o)
	ds, ms := d.Stats, m.Stats
	if ms.Outcomes != ds.Outcomes {
		t.Errorf("%s: mcr reaches %d outcomes, dfs %d", name, ms.Outcomes, ds.Outcomes)
	}
	if got, want := m.FindingKinds(), d.FindingKinds(); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: mcr finds %v, dfs %v", name, got, want)
	}
	// While its sleep sets hold (no relaxed seed exists), MCR runs at most
	// one execution per class. Once relaxed seeds give them up, nodes
	// with different maps and relaxed seeds can repeat a class (issue 3):
	// logged, and a bound a little above keeps a blow-up visible.
	clean := ms.Extra["sleep_sets_given_up"] == 0
	if ms.Executions-ms.Blocked > ds.RFClasses {
		if clean {
			t.Errorf("%s: clean, but mcr runs %d executions (%d blocked), dfs sees %d reads-from classes", name, ms.Executions, ms.Blocked, ds.RFClasses)
		} else {
			t.Logf("%s: relaxed seeds: mcr runs %d executions (%d blocked), dfs sees %d reads-from classes", name, ms.Executions, ms.Blocked, ds.RFClasses)
		}
	}
	if ms.Executions > 3*ds.RFClasses+2 {
		t.Errorf("%s: mcr runs %d executions for %d reads-from classes", name, ms.Executions, ds.RFClasses)
	}
	for _, k := range []string{"seed_mismatches", "seed_replay_failures", "unknown"} {
		if ms.Extra[k] != 0 {
			t.Errorf("%s: %s = %v", name, k, ms.Extra[k])
		}
	}
	if !ms.Complete {
		t.Errorf("%s: incomplete: %s", name, ms.Stopped)
	}
	return m
}

// TestAgainstDFSTestdata compares MCR with dfs on every testdata run dfs can afford.
func TestAgainstDFSTestdata(t *testing.T) {
	needZ3(t)
	cases, err := explore.LoadCases("../testdata/c")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if !c.For("dfs") || c.Bounded {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			p, err := cfront.Load(c.File, cfront.Options{Defines: c.DefineList(), MaxEvents: c.MaxEvents})
			if err != nil {
				t.Fatal(err)
			}
			d := explore.DFS(context.Background(), p, explore.Options{KeepGoing: true})
			m1 := compare(t, c.Name, p, d, z3Options(1))
			m2 := mcr.Explore(context.Background(), p, z3Options(2))
			if m1.Stats.Executions != m2.Stats.Executions || !reflect.DeepEqual(m1.FindingKinds(), m2.FindingKinds()) ||
				len(m1.Findings) != len(m2.Findings) {
				t.Errorf("workers 1 and 2 differ: %d/%d executions, %d/%d findings", m1.Stats.Executions, m2.Stats.Executions, len(m1.Findings), len(m2.Findings))
			}
			ex := compare(t, c.Name+" (explicit)", p, d, explicitOptions(2))
			if !reflect.DeepEqual(ex.FindingKinds(), m1.FindingKinds()) {
				t.Errorf("explicit decider finds %v, z3 %v", ex.FindingKinds(), m1.FindingKinds())
			}
			var cs mcr.CrossStats
			mcr.Explore(context.Background(), p, bothOptions(&cs))
			if cs.Disagreements != 0 || cs.Invalid != 0 || cs.Queries == 0 {
				t.Errorf("--decider both: %d queries, %d disagreements (%s), %d invalid answers", cs.Queries, cs.Disagreements, cs.First, cs.Invalid)
			}
		})
	}
}

// TestAgainstDFSRandom compares MCR with dfs on random small programs
// (MCR_RANDOM sets how many; default 200).
func TestAgainstDFSRandom(t *testing.T) {
	needZ3(t)
	n := 200
	if s := os.Getenv("MCR_RANDOM"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	if testing.Short() {
		n = 30
	}
	// Programs beyond the first n on which earlier versions lost outcomes:
	// a relaxation "probe" (266, 447, 803) and reusing executions across
	// nodes (502, 879, 1065).
	seeds := []int64{266, 447, 502, 803, 879, 1065}
	for seed := int64(1); seed <= int64(n); seed++ {
		seeds = append(seeds, seed)
	}
	for _, seed := range seeds {
		src := randprog.Generate(seed, randprog.SmallOptions())
		name := fmt.Sprintf("seed%d.c", seed)
		p, err := cfront.LoadSource(name, []byte(src), cfront.Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		d := explore.DFS(context.Background(), p, explore.Options{KeepGoing: true})
		before := t.Failed()
		compare(t, name, p, d, explicitOptions(1))
		if seed%4 == 0 { // Z3 is slower: every fourth program
			compare(t, name+" (z3)", p, d, z3Options(2))
		}
		if !before && t.Failed() {
			t.Logf("%s:\n%s", name, src)
		}
	}
}

// mustStayClean lists testdata programs on which MCR must keep its sleep
// sets (no relaxed seed exists): a change that makes one unclean loses the
// one-execution-per-class guarantee there.
var mustStayClean = []string{"casrot", "control_flow", "floating_read", "lastwrite", "readers", "sigma"}

// TestCleanRunsWithinRFClasses runs MCR on every testdata run listed for
// it (up to 10,000 reads-from classes): it must be complete, find what the
// run expects and, when its sleep sets were kept to the end, run no more
// executions than there are reads-from classes.
func TestCleanRunsWithinRFClasses(t *testing.T) {
	cases, err := explore.LoadCases("../testdata/c")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if !c.For("mcr") || c.Bounded || c.RFClasses == nil || *c.RFClasses > 10000 || testing.Short() && *c.RFClasses > 1000 {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			p, err := cfront.Load(c.File, cfront.Options{Defines: c.DefineList(), MaxEvents: c.MaxEvents})
			if err != nil {
				t.Fatal(err)
			}
			m := mcr.Explore(context.Background(), p, explicitOptions(2))
			s := m.Stats
			if !s.Complete || s.Extra["seed_mismatches"] != 0 {
				t.Fatalf("incomplete (%s) or %v seed mismatches", s.Stopped, s.Extra["seed_mismatches"])
			}
			if got := m.FindingKinds(); !reflect.DeepEqual(append([]string{}, got...), c.Findings) {
				t.Errorf("findings = %v, want %v", got, c.Findings)
			}
			clean := s.Extra["sleep_sets_given_up"] == 0
			if !clean && slices.Contains(mustStayClean, strings.Fields(c.Name)[0]) {
				t.Errorf("sleep sets given up")
			}
			if clean && s.Executions > *c.RFClasses {
				t.Errorf("clean, but %d executions for %d reads-from classes", s.Executions, *c.RFClasses)
			}
			if !clean {
				t.Logf("relaxed seeds: sleep sets given up; %d executions for %d reads-from classes", s.Executions, *c.RFClasses)
			}
		})
	}
}
