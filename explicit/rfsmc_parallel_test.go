package explicit

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"testing"

	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/randprog"
)

// parallelExtra are the counters of Extra that do not depend on the number
// of workers (the others count work: witness queries, race queries, ...).
var parallelExtra = []string{"schedules", "cut_schedules", "rf_mismatches", "replay_errors", "decider_errors",
	"failed_trylocks", "pruned_by_backtrack", "replays", "verifysc_queries", "guided_witnesses_rvf"}

// workerView is what must not depend on the number of workers.
type workerView struct {
	Executions, RFClasses, Outcomes, Blocked, Bounded, Events int
	Complete                                                  bool
	Stopped                                                   string
	Extra                                                     map[string]float64
	Findings                                                  []string
}

func viewOf(algo string, res *explore.Result, keepGoing bool) workerView {
	st := res.Stats
	v := workerView{Executions: st.Executions, RFClasses: st.RFClasses, Outcomes: st.Outcomes, Blocked: st.Blocked,
		Bounded: st.Bounded, Events: st.Events, Complete: st.Complete, Stopped: st.Stopped, Extra: map[string]float64{}}
	for _, k := range parallelExtra {
		if !keepGoing {
			break // the work done after the first finding may differ
		}
		if k == "verifysc_queries" && algo != "rvf" {
			continue
		}
		if x := st.Extra[k]; x != 0 {
			v.Extra[k] = x
		}
	}
	if algo == "rvf" && keepGoing && st.Extra["guided_witnesses"] != 0 {
		v.Extra["guided_witnesses_rvf"] = st.Extra["guided_witnesses"]
	}
	for _, f := range res.Findings {
		v.Findings = append(v.Findings, fmt.Sprintf("%s %q %v exec=%d sched=%v", f.Kind, f.Message, f.Locations, f.Execution, f.Schedule))
	}
	return v
}

// sameForWorkers runs both explorers on p with 1 and with 2 workers (and
// 3, to have more contexts than cores) and checks that counts, findings
// (with their schedules and execution numbers) and the order-free counters
// are the same.
func sameForWorkers(t *testing.T, name string, p program.Program, opts explore.Options) {
	t.Helper()
	for _, a := range []struct {
		name string
		run  func(context.Context, program.Program, explore.Options, int) *explore.Result
	}{{"rf", ReadsFromSMCWorkers}, {"rvf", RVFSMCWorkers}} {
		one := viewOf(a.name, a.run(context.Background(), p, opts, 1), opts.KeepGoing)
		for _, w := range []int{2, 3} {
			got := viewOf(a.name, a.run(context.Background(), p, opts, w), opts.KeepGoing)
			if !reflect.DeepEqual(one, got) {
				t.Errorf("%s: %s with %d workers:\n got %+v\nwant %+v", name, a.name, w, got, one)
			}
		}
	}
}

// TestSMCWorkersTestdata: every testdata run (big ones with -short left
// out) gives the same results on 1, 2 and 3 workers, with and without
// --keep-going.
func TestSMCWorkersTestdata(t *testing.T) {
	cases, err := explore.LoadCases("../testdata/c")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if testing.Short() && !c.For("dfs") {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			p := loadCase(t, c)
			sameForWorkers(t, c.Name, p, explore.Options{KeepGoing: true})
			sameForWorkers(t, c.Name+" (first finding)", p, explore.Options{})
		})
	}
}

// TestSMCWorkersRandom: random small programs (SMC_WORKERS_RANDOM sets how
// many; default 200, 30 with -short) and a few larger ones give the same
// results on 1, 2 and 3 workers. With -race (on -short) it also checks
// that the workers share nothing unguarded.
func TestSMCWorkersRandom(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 30
	}
	if s := os.Getenv("SMC_WORKERS_RANDOM"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	for seed := int64(1); seed <= int64(n); seed++ {
		src := randprog.Generate(seed, randprog.SmallOptions())
		name := fmt.Sprintf("seed%d.c", seed)
		p, err := cfront.LoadSource(name, []byte(src), cfront.Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		sameForWorkers(t, name, p, explore.Options{KeepGoing: true})
		if seed%4 == 0 {
			sameForWorkers(t, name+" (first finding)", p, explore.Options{})
		}
	}
	opts := randprog.DefaultOptions()
	opts.Threads = 3
	large := int64(6) // seed 1 is too big (258k executions)
	if testing.Short() {
		large = 3
	}
	for seed := int64(2); seed <= large; seed++ {
		src := randprog.Generate(seed, opts)
		name := fmt.Sprintf("large%d.c", seed)
		p, err := cfront.LoadSource(name, []byte(src), cfront.Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		sameForWorkers(t, name, p, explore.Options{KeepGoing: true})
	}
}
