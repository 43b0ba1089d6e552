package registry_test

import (
	"context"
	"testing"
	"time"

	"mcr/mcr/registry"
	"mcr/program/cfront"
	"mcr/program/explore"
)

// TestEntries: every registered algorithm is described, names are unique,
// and the default is registered.
func TestEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range registry.Algorithms() {
		if a.Name == "" || a.Doc == "" || a.Source == "" || len(a.Models) == 0 || a.Run == nil && a.Planned == "" {
			t.Errorf("incomplete entry %+v", a)
		}
		if seen[a.Name] {
			t.Errorf("%s registered twice", a.Name)
		}
		seen[a.Name] = true
	}
	if _, err := registry.Lookup(registry.Default); err != nil {
		t.Error(err)
	}
}

// TestEveryAlgorithmAgainstDFS runs every implemented algorithm of the
// registry on small testdata programs (blocking, locks, races, a deadlock)
// and validates it against dfs: every outcome and finding dfs reaches.
func TestEveryAlgorithmAgainstDFS(t *testing.T) {
	for _, f := range []string{"assume_await", "assume_stuck", "assume_locked", "lost_update", "lock_order_deadlock", "null_deref", "lamport", "violation_hides_race", "two_failures"} {
		p, err := cfront.Load("../../testdata/c/"+f+".c", cfront.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range registry.Algorithms() {
			if a.Run == nil {
				continue
			}
			got := explore.NewReached()
			res := a.Run(context.Background(), p, explore.Options{KeepGoing: true, Observe: got.Observe(nil)}, explore.Config{Workers: 2})
			if v := explore.Validate(context.Background(), p, res, got, true, 0); !v.OK() || !v.Complete || !res.Stats.Complete {
				t.Errorf("%s on %s: %+v (complete %v)", a.Name, f, v, res.Stats.Complete)
			}
		}
	}
}

// TestLongSingleThread: one thread writing and reading a global 2,000
// times has one execution and nothing to explore; every algorithm must
// say so without seeds or mutations for the writes program order hides
// (issue 13: rf, rvf and mcr took 7-25 s, mcr-seeds ran out of memory).
func TestLongSingleThread(t *testing.T) {
	src := "int g;\nint main(void) { for (int i = 0; i < 2000; i++) g++; return 0; }\n"
	p, err := cfront.LoadSource("loop.c", []byte(src), cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range registry.Algorithms() {
		if a.Run == nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a guard, not a measurement
		res := a.Run(ctx, p, explore.Options{KeepGoing: true}, explore.Config{Workers: 1})
		cancel()
		st := res.Stats
		if st.Executions != 1 || !st.Complete || st.Extra["seeds"] != 0 || st.Extra["seed_queries"] != 0 {
			t.Errorf("%s: %d executions, complete %v, extra %v", a.Name, st.Executions, st.Complete, st.Extra)
		}
	}
}
