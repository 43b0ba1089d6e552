package registry_test

import (
	"context"
	"testing"

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
	for _, f := range []string{"assume_await", "assume_stuck", "assume_locked", "lost_update", "lock_order_deadlock", "null_deref", "lamport"} {
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
