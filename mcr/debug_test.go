package mcr_test

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"mcr/encode"
	"mcr/explicit"
	"mcr/mcr"
	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
)

// TestDebugOutcomes prints the outcomes (of maximal executions, as
// Stats.Outcomes counts them) dfs reaches and MCR misses for the
// program named by MCR_DEBUG_FILE (a debugging aid; skipped otherwise).
// MCR_DEBUG_ALGO=mcr-seeds debugs ExploreSeeds instead of Explore, on Z3
// with MCR_DEBUG_DECIDER=z3.
func TestDebugOutcomes(t *testing.T) {
	file := os.Getenv("MCR_DEBUG_FILE")
	if file == "" {
		t.Skip()
	}
	p, err := cfront.Load(file, cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	collect := func(m map[string]string) func(program.Execution) {
		return func(x program.Execution) {
			if _, out := x.Done(); !out.Kind.Maximal() {
				return // not counted as an outcome (Stats.Outcomes)
			}
			tr := x.Trace()
			k := program.OutcomeKey(tr)
			if _, ok := m[k]; !ok {
				s := ""
				for i := range tr.Events {
					s += "  " + tr.Describe(i) + "\n"
				}
				m[k] = s
			}
		}
	}
	d, m := map[string]string{}, map[string]string{}
	explore.DFS(context.Background(), p, explore.Options{KeepGoing: true, Observe: collect(d)})
	if os.Getenv("MCR_DEBUG_ALGO") == "mcr-seeds" {
		mcr.ExploreSeeds(context.Background(), p, mcr.SeedOptions{Options: explore.Options{KeepGoing: true, Observe: collect(m)}, Workers: 1,
			NewDecider: func() (program.SeedDecider, error) {
				if os.Getenv("MCR_DEBUG_DECIDER") == "z3" {
					return encode.NewZ3Seeder(time.Minute)
				}
				return explicit.Seeder{}, nil
			}})
	} else {
		mcr.Explore(context.Background(), p, mcr.Options{Options: explore.Options{KeepGoing: true, Observe: collect(m)}, Workers: 1})
	}
	var missing []string
	for k := range d {
		if _, ok := m[k]; !ok {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	for _, k := range missing {
		t.Logf("missing %s\n%s", k, d[k])
	}
	var have []string
	for k := range m {
		have = append(have, k)
	}
	sort.Strings(have)
	for _, k := range have {
		t.Logf("mcr has %s", k)
	}
}
