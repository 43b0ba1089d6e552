package explicit

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"

	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/randprog"
	"mcr/program/randprog/randtest"
)

// parallelExtra are the counters of Extra that do not depend on the number
// of workers (the others count work: witness queries, race queries, ...;
// rvf's replays too, since a child whose run rvfsmc_dead.go spares depends
// on what the workers have learned so far).
var parallelExtra = []string{"schedules", "cut_schedules", "rf_mismatches", "replay_errors", "decider_errors",
	"failed_trylocks", "pruned_by_backtrack", "duplicates_avoided", "verifysc_queries", "guided_witnesses_rvf"}

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

// sameForWorkers runs both explorers on p with 1 worker and with each of
// workers and checks that counts, findings (with their schedules and
// execution numbers) and the order-free counters are the same.
func sameForWorkers(t *testing.T, name string, p program.Program, opts explore.Options, workers ...int) {
	t.Helper()
	if len(workers) == 0 {
		workers = []int{2, 3} // 3: more contexts than cores
	}
	for _, a := range []struct {
		name string
		run  func(context.Context, program.Program, explore.Options, int) *explore.Result
	}{{"rf", ReadsFromSMCWorkers}, {"rvf", RVFSMCWorkers}} {
		one := viewOf(a.name, a.run(context.Background(), randtest.Fresh(p), opts, 1), opts.KeepGoing)
		for _, w := range workers {
			got := viewOf(a.name, a.run(context.Background(), randtest.Fresh(p), opts, w), opts.KeepGoing)
			if !reflect.DeepEqual(one, got) {
				t.Errorf("%s: %s with %d workers:\n got %+v\nwant %+v", name, a.name, w, got, one)
			}
		}
	}
}

// heavyRuns are the testdata runs that take over 10s for this test; they
// run with SMC_WORKERS_BIG=1.
var heavyRuns = map[string]bool{"lastzero N=11": true, "account N=5": true, "fib_bench N=4": true,
	"casrot N=9": true, "readers N=13": true}

// TestSMCWorkersTestdata: every testdata run gives the same results on 1,
// 2 and 3 workers, with and without --keep-going; the runs too big for dfs
// only with --keep-going on 1 and 2 workers (and not with -short).
func TestSMCWorkersTestdata(t *testing.T) {
	cases, err := explore.LoadCases("../testdata/c")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		small := c.For("dfs")
		if !small && (testing.Short() || heavyRuns[c.Name] && os.Getenv("SMC_WORKERS_BIG") == "") {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			p := loadCase(t, c)
			if !small {
				sameForWorkers(t, c.Name, p, explore.Options{KeepGoing: true}, 2)
				return
			}
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
	n := randtest.Count("SMC_WORKERS_RANDOM", 200, 30)
	randtest.Each(t, "seed", randtest.Seeds(n), randprog.SmallOptions(), func(seed int64, name string, p program.Program) {
		sameForWorkers(t, name, p, explore.Options{KeepGoing: true})
		if seed%4 == 0 {
			sameForWorkers(t, name+" (first finding)", p, explore.Options{})
		}
	})
	opts := randprog.DefaultOptions()
	opts.Threads = 3
	large := []int64{2, 3, 4, 5, 6} // seed 1 is too big (258k executions)
	if testing.Short() {
		large = large[:2]
	}
	randtest.Each(t, "large", large, opts, func(_ int64, name string, p program.Program) {
		sameForWorkers(t, name, p, explore.Options{KeepGoing: true})
	})
}

// TestRFWorkersTrylock: rf on random small programs with trylocks
// (SMC_WORKERS_TRYLOCK sets how many; default 20) gives the same results
// on 1, 2 and 3 workers (rvf stops at the first trylock, where depends on
// the workers).
func TestRFWorkersTrylock(t *testing.T) {
	n := randtest.Count("SMC_WORKERS_TRYLOCK", 20, 20)
	opts := explore.Options{KeepGoing: true}
	randtest.Each(t, "trylock", randtest.Seeds(n), randprog.TrylockOptions(), func(seed int64, name string, p program.Program) {
		one := viewOf("rf", ReadsFromSMCWorkers(context.Background(), randtest.Fresh(p), opts, 1), true)
		for _, w := range []int{2, 3} {
			got := viewOf("rf", ReadsFromSMCWorkers(context.Background(), randtest.Fresh(p), opts, w), true)
			if !reflect.DeepEqual(one, got) {
				t.Errorf("%s: rf with %d workers:\n got %+v\nwant %+v", name, w, got, one)
			}
		}
	})
}

// TestSMCWorkersTimeout: a parallel search cut by its context returns an
// incomplete result, after all its goroutines ended.
func TestSMCWorkersTimeout(t *testing.T) {
	p, err := cfront.Load("../testdata/c/account.c", cfront.Options{Defines: []string{"N=5"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range []func(context.Context, program.Program, explore.Options, int) *explore.Result{ReadsFromSMCWorkers, RVFSMCWorkers} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		res := run(ctx, p, explore.Options{KeepGoing: true}, 2)
		cancel()
		if res.Stats.Complete || res.Stats.Stopped != "timeout" {
			t.Errorf("%s: complete %v, stopped %q", res.Stats.Algorithm, res.Stats.Complete, res.Stats.Stopped)
		}
	}
}
