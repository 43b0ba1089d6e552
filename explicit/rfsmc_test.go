package explicit

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/randprog"
	"mcr/program/randprog/randtest"
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
	blocked  map[string]bool // the same, of blocked executions
	trylocks bool            // some execution has a trylock
}

func observe(o *observed) explore.Options {
	*o = observed{outcomes: map[string]bool{}, classes: map[string]bool{}, blocked: map[string]bool{}}
	return explore.Options{KeepGoing: true, Observe: func(x program.Execution) {
		tr := x.Trace()
		o.trylocks = o.trylocks || explore.HasTrylock(tr)
		_, out := x.Done()
		if out.Kind == program.Blocked {
			o.blocked[lockKey(tr)] = true
			return
		}
		if out.Kind.Maximal() {
			o.outcomes[program.OutcomeKey(tr)] = true
		}
		o.classes[lockKey(tr)] = true
	}}
}

// lockKey is program.RFKey extended with the release each acquire
// follows: the reads-from class when locks are read-modify-writes of their
// mutex, which is what ReadsFrom-SMC (seed 002 Section 7) distinguishes,
// and the acquire each failed trylock finds holding its lock.
func lockKey(tr *program.Trace) string {
	k := program.RFKey(tr)
	last := map[program.Loc]string{}
	holder := map[program.Loc]string{} // the acquire holding each lock
	var acq []string
	for _, e := range tr.Events {
		id := tr.Threads[e.Thread].Name + ":" + strconv.Itoa(int(e.Index))
		switch e.Kind {
		case program.Acquire:
			acq = append(acq, id+"<"+last[e.Loc])
		case program.Release:
			last[e.Loc] = id
			delete(holder, e.Loc)
		case program.LockFail:
			acq = append(acq, id+"!"+holder[e.Loc])
		}
		if e.Kind == program.Acquire {
			holder[e.Loc] = id
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
	var o observed
	opts := observe(&o)
	opts.Validate = true
	res := algo.run(context.Background(), randtest.Fresh(p), opts)
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
		if do.trylocks {
			// Not optimal with trylocks (README, "Trylocks"): a class
			// may come twice, but every class comes, and no other.
			if !reflect.DeepEqual(o.classes, do.classes) {
				t.Errorf("%s: rf sees %d classes, dfs %d", name, len(o.classes), len(do.classes))
			}
		} else if explored != len(do.classes) {
			t.Errorf("%s: rf explores %d executions, dfs sees %d classes (%d reads-from classes)", name, explored, len(do.classes), d.Stats.RFClasses)
		}
		if !hasLocks(p) && explored != d.Stats.RFClasses {
			t.Errorf("%s: rf explores %d executions, dfs sees %d reads-from classes", name, explored, d.Stats.RFClasses)
		}
		// Blocked executions are classes too: exactly one each.
		if st.Blocked != len(o.blocked) || !reflect.DeepEqual(o.blocked, do.blocked) {
			t.Errorf("%s: rf explores %d blocked executions in %d blocked classes, dfs sees %d", name, st.Blocked, len(o.blocked), len(do.blocked))
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
// can afford, and checks the expected counts and findings; the runs too
// big for dfs with up to 1,000 reads-from classes (parker) are checked
// against their expectations only.
func TestSMCTestdata(t *testing.T) {
	cases, err := explore.LoadCases("../testdata/c")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		small := c.For("dfs")
		if !small && !(c.For("rf") && c.RFClasses != nil && *c.RFClasses <= 1000) {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			p := loadCase(t, c)
			var do observed
			var d *explore.Result
			if small {
				d = explore.DFS(context.Background(), p, observe(&do))
			}
			for _, a := range []smcAlgo{rfAlgo, rvfAlgo} {
				var res *explore.Result
				if small {
					res = compareSMC(t, c.Name, p, a, d, &do)
				} else {
					res = a.run(context.Background(), randtest.Fresh(p), explore.Options{KeepGoing: true})
				}
				if got := res.FindingKinds(); !reflect.DeepEqual(got, c.Findings) && !(len(got) == 0 && len(c.Findings) == 0) {
					t.Errorf("%s: %s finds %v, expected %v", c.Name, a.name, got, c.Findings)
				}
				checkCounts(t, c, p, a.name, res.Stats)
			}
		})
	}
}

// checkCounts checks an explorer's statistics against a testdata run's
// expected counts: rf explores exactly one execution per reads-from class,
// blocked or not (per class of lock order too, so only for programs
// without locks), rvf at most as many; both reach exactly the expected
// outcomes.
func checkCounts(t *testing.T, c explore.Case, p program.Program, algo string, st explore.Stats) {
	t.Helper()
	if c.Outcomes != nil && st.Outcomes != *c.Outcomes {
		t.Errorf("%s: %s reaches %d outcomes, expected %d", c.Name, algo, st.Outcomes, *c.Outcomes)
	}
	if c.RFClasses == nil || hasLocks(p) {
		return
	}
	explored := st.Executions - st.Blocked
	if algo == "rf" && explored != *c.RFClasses || explored > *c.RFClasses {
		t.Errorf("%s: %s explores %d executions (blocked aside), expected %d", c.Name, algo, explored, *c.RFClasses)
	}
	if b := c.BlockedClasses; b != nil && (algo == "rf" && st.Blocked != *b || st.Blocked > *b) {
		t.Errorf("%s: %s explores %d blocked executions, expected %d", c.Name, algo, st.Blocked, *b)
	}
}

// TestSMCRandom compares rf and rvf with dfs on random small programs
// (SMC_RANDOM sets how many; default 200, 40 with -short).
func TestSMCRandom(t *testing.T) {
	n := randtest.Count("SMC_RANDOM", 200, 40)
	locks, same := 0, 0
	randtest.Each(t, "seed", randtest.Seeds(n), randprog.SmallOptions(), func(seed int64, name string, p program.Program) {
		var do observed
		d := explore.DFS(context.Background(), p, observe(&do))
		r := compareSMC(t, name, p, rfAlgo, d, &do)
		compareSMC(t, name, p, rvfAlgo, d, &do)
		if hasLocks(p) {
			locks++
			if r.Stats.Executions == d.Stats.RFClasses {
				same++
			}
		}
	})
	t.Logf("%d programs, %d with a mutex (%d of them with as many lock-aware classes as reads-from classes)", n, locks, same)
}

// TestSMCBlockingRandom compares rf and rvf with dfs on random small
// programs whose executions block (assumes on shared values, assumes while
// holding the mutex, joins of threads that may be stuck; issue 12).
// SMC_BLOCKING sets how many (default 1200, 300 with -short; 2,000 ran
// clean when the default was cut to keep CI under 10 minutes).
func TestSMCBlockingRandom(t *testing.T) {
	n := randtest.Count("SMC_BLOCKING", 1200, 300)
	blocking := 0
	randtest.Each(t, "blocking", randtest.Seeds(n), randprog.BlockingOptions(), func(seed int64, name string, p program.Program) {
		var do observed
		d := explore.DFS(context.Background(), p, observe(&do))
		if d.Stats.Blocked > 0 {
			blocking++
		}
		compareSMC(t, name, p, rfAlgo, d, &do)
		compareSMC(t, name, p, rvfAlgo, d, &do)
	})
	t.Logf("%d programs, %d with blocked executions", n, blocking)
}

// TestRFTrylockRandom compares rf with dfs on random small programs whose
// mutex blocks may be trylocks (randprog.TrylockOptions; issue 15): the
// same outcomes and findings, a complete search and one execution per
// class, failed trylocks told apart by the acquire they find holding the
// lock (lockKey). SMC_TRYLOCK sets how many (default 60, 30 with -short).
func TestRFTrylockRandom(t *testing.T) {
	n := randtest.Count("SMC_TRYLOCK", 60, 30)
	fails, redundant, big := 0, 0, 0
	randtest.Each(t, "trylock", randtest.Seeds(n), randprog.TrylockOptions(), func(seed int64, name string, p program.Program) {
		var do observed
		d, ok := randtest.DFS(p, 5000, observe(&do))
		if !ok {
			big++
			return
		}
		if strings.Contains(fmt.Sprint(do.classes), "!") {
			fails++
		}
		r := compareSMC(t, name, p, rfAlgo, d, &do)
		if extra := r.Stats.Executions - r.Stats.Blocked - len(do.classes); extra > 0 {
			redundant++
			t.Logf("%s: rf explores %d executions for %d classes", name, r.Stats.Executions-r.Stats.Blocked, len(do.classes))
		}
	})
	t.Logf("%d programs (%d too big for dfs), %d with a failed trylock, %d where rf explores a class twice", n, big, fails, redundant)
}

// TestRFTrylockFailsFirst compares rf with dfs under SC on
// testdata/c/mm/trylock.c, whose -DHOLD run has the trylock fail in the
// first execution: the class where it succeeds before main's section comes
// only from the lock rule for a failed trylock (rfsmc_trylock.go; rf
// explored 1 class of 2 and said complete without it).
func TestRFTrylockFailsFirst(t *testing.T) {
	for _, defs := range [][]string{nil, {"NOTRY"}, {"HOLD"}} {
		p, err := cfront.Load("../testdata/c/mm/trylock.c", cfront.Options{Defines: defs})
		if err != nil {
			t.Fatal(err)
		}
		var do observed
		d, ok := randtest.DFS(p, 5000, observe(&do))
		if !ok {
			t.Fatalf("trylock.c %v: dfs cut", defs)
		}
		compareSMC(t, fmt.Sprintf("trylock.c %v", defs), p, rfAlgo, d, &do)
	}
}

// TestSMCSyncRandom compares rf and rvf with dfs on random small programs
// over reader-writer locks, semaphores and barriers (randprog.SyncOptions;
// issue 15); programs with more than 5,000 interleavings are skipped.
// SMC_SYNC sets how many (default 150, 40 with -short).
func TestSMCSyncRandom(t *testing.T) {
	n := randtest.Count("SMC_SYNC", 150, 40)
	big := 0
	randtest.Each(t, "sync", randtest.Seeds(n), randprog.SyncOptions(), func(seed int64, name string, p program.Program) {
		var do observed
		d, ok := randtest.DFS(p, 5000, observe(&do))
		if !ok {
			big++
			return
		}
		compareSMC(t, name, p, rfAlgo, d, &do)
		compareSMC(t, name, p, rvfAlgo, d, &do)
	})
	t.Logf("%d programs, %d too big for dfs", n, big)
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

// TestRVFLateThread: rvf's causal map C(r) counts the events per thread
// of the trace where r was mutated; a thread forked later (beyond C(r)'s
// end) must be read as "no event forbidden", not crash (random program
// 7004 of DefaultOptions, found by the issue-14 before/after run). rvf runs
// first, on a fresh program whose thread table starts with main only.
func TestRVFLateThread(t *testing.T) {
	randtest.Each(t, "default", []int64{7004}, randprog.DefaultOptions(), func(_ int64, name string, p program.Program) {
		var ro, vo observed
		v := RVFSMC(context.Background(), p, observe(&vo)) // first: p's thread table grows as it runs
		r := ReadsFromSMC(context.Background(), p, observe(&ro))
		if !r.Stats.Complete || !v.Stats.Complete || !reflect.DeepEqual(ro.outcomes, vo.outcomes) {
			t.Errorf("%s: rf reaches %d outcomes (complete %v), rvf %d (complete %v)", name,
				len(ro.outcomes), r.Stats.Complete, len(vo.outcomes), v.Stats.Complete)
		}
	})
}

// TestSMCRandomLarge runs rf and rvf on bigger random programs (3 threads
// of up to 4 compound operations), too big for dfs: rf explores each class
// once, rvf no more executions than rf, both reach the same outcomes and
// finding kinds. SMC_RANDOM_LARGE sets how many (default 12, 4 with
// -short); programs that take over 3s are skipped.
func TestSMCRandomLarge(t *testing.T) {
	n := randtest.Count("SMC_RANDOM_LARGE", 12, 4)
	opts := randprog.DefaultOptions()
	opts.Threads = 3
	skipped := 0
	defer func() { t.Logf("%d programs, %d too big (over 3s)", n, skipped) }()
	randtest.Each(t, "large", randtest.Seeds(n), opts, func(_ int64, name string, p program.Program) {
		var ro, vo observed
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		opts, vopts := observe(&ro), observe(&vo)
		opts.Validate, vopts.Validate = true, true // counts rf_mismatches
		r := ReadsFromSMC(ctx, randtest.Fresh(p), opts)
		v := RVFSMC(ctx, randtest.Fresh(p), vopts)
		cancel()
		rs, vs := r.Stats, v.Stats
		if !rs.Complete || !vs.Complete {
			skipped++
			return
		}
		switch {
		case rs.Executions-rs.Blocked != len(ro.classes):
			t.Errorf("%s: rf explores %d executions for %d classes", name, rs.Executions-rs.Blocked, len(ro.classes))
		case vs.Executions-vs.Blocked > rs.Executions-rs.Blocked:
			t.Errorf("%s: rvf explores %d executions, rf %d", name, vs.Executions-vs.Blocked, rs.Executions-rs.Blocked)
		case !reflect.DeepEqual(ro.outcomes, vo.outcomes):
			t.Errorf("%s: rf reaches %d outcomes, rvf %d", name, len(ro.outcomes), len(vo.outcomes))
		case !reflect.DeepEqual(r.FindingKinds(), v.FindingKinds()):
			t.Errorf("%s: rf finds %v, rvf %v", name, r.FindingKinds(), v.FindingKinds())
		}
		for _, st := range []explore.Stats{rs, vs} {
			for _, k := range []string{"rf_mismatches", "replay_errors", "decider_errors"} {
				if st.Extra[k] != 0 {
					t.Errorf("%s: %s: %s = %v", name, st.Algorithm, k, st.Extra[k])
				}
			}
		}
	})
}

// handmade are small programs for what the random programs rarely do:
// deadlocks of every kind, RMW and CAS mixes, failures while other
// threads run, assumes.
var handmade = []struct{ name, what, src string }{
	{"cycle3", "three threads take three mutexes in a cycle: deadlocks only when all hold their first", `#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER, c = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t1(void *p) { pthread_mutex_lock(&a); pthread_mutex_lock(&b); x = x + 1; pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return 0; }
void *t2(void *p) { pthread_mutex_lock(&b); pthread_mutex_lock(&c); x = x + 2; pthread_mutex_unlock(&c); pthread_mutex_unlock(&b); return 0; }
void *t3(void *p) { pthread_mutex_lock(&c); pthread_mutex_lock(&a); x = x + 3; pthread_mutex_unlock(&a); pthread_mutex_unlock(&c); return 0; }
int main(void) { pthread_t p1, p2, p3; pthread_create(&p1, 0, t1, 0); pthread_create(&p2, 0, t2, 0); pthread_create(&p3, 0, t3, 0); pthread_join(p1, 0); pthread_join(p2, 0); pthread_join(p3, 0); return 0; }`},
	{"joinlock", "main joins a thread while holding the mutex the thread needs", `#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t1(void *p) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t p1; pthread_create(&p1, 0, t1, 0); pthread_mutex_lock(&m); int r = x; pthread_join(p1, 0); pthread_mutex_unlock(&m); return r; }`},
	{"abandon", "a thread ends holding a mutex; the other blocks forever if it comes second", `#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t1(void *p) { pthread_mutex_lock(&m); x = 1; return 0; }
void *t2(void *p) { pthread_mutex_lock(&m); x = 2; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t p1, p2; pthread_create(&p1, 0, t1, 0); pthread_create(&p2, 0, t2, 0); return 0; }`},
	{"rmwmix", "CAS, fetch_add, exchange and stores on two locations (RMW reversals, CAS heads whose value only executing tells)", `#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
void *t1(void *p) { int e = 0; atomic_compare_exchange_strong(&x, &e, 5); atomic_fetch_add(&y, atomic_load(&x)); return 0; }
void *t2(void *p) { atomic_fetch_add(&x, 1); int e = 1; atomic_compare_exchange_strong(&y, &e, 7); return 0; }
void *t3(void *p) { atomic_exchange(&x, 2); atomic_store(&y, 1); return 0; }
int main(void) { pthread_t p1, p2, p3; pthread_create(&p1, 0, t1, 0); pthread_create(&p2, 0, t2, 0); pthread_create(&p3, 0, t3, 0); return 0; }`},
	{"lockcas", "CAS and fetch_add inside and outside critical sections", `#include <pthread.h>
#include <stdatomic.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
atomic_int x; int y;
void *t1(void *p) { pthread_mutex_lock(&m); int e = 0; atomic_compare_exchange_strong(&x, &e, 1); y = y + 1; pthread_mutex_unlock(&m); return 0; }
void *t2(void *p) { int e = 1; atomic_compare_exchange_strong(&x, &e, 2); pthread_mutex_lock(&m); y = y + atomic_load(&x); pthread_mutex_unlock(&m); return 0; }
void *t3(void *p) { pthread_mutex_lock(&m); atomic_fetch_add(&x, 3); pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t p1, p2, p3; pthread_create(&p1, 0, t1, 0); pthread_create(&p2, 0, t2, 0); pthread_create(&p3, 0, t3, 0); pthread_join(p1,0); pthread_join(p2,0); pthread_join(p3,0); return y; }`},
	{"midfail", "an assertion that fails while another thread still runs", `#include <pthread.h>
#include <assert.h>
int x, y;
void *t1(void *p) { int r = y; x = 1; return 0; }
void *t2(void *p) { assert(x == 0); y = 1; return 0; }
int main(void) { pthread_t p1, p2; pthread_create(&p1, 0, t1, 0); pthread_create(&p2, 0, t2, 0); return 0; }`},
	{"trunc", "an assertion after a write, racing with a reader", `#include <pthread.h>
#include <assert.h>
int x, y;
void *t1(void *p) { int r = y; x = r + 1; return 0; }
void *t2(void *p) { y = 1; assert(x == 0); return 0; }
int main(void) { pthread_t p1, p2; pthread_create(&p1, 0, t1, 0); pthread_create(&p2, 0, t2, 0); return 0; }`},
	{"heapmix", "publishing a heap cell through a plain flag (a race)", `#include <pthread.h>
#include <stdlib.h>
int *p; int flag;
void *t1(void *a) { int *q = malloc(sizeof(int)); *q = 3; p = q; flag = 1; return 0; }
void *t2(void *a) { if (flag) { int v = *p; flag = v; } return 0; }
int main(void) { pthread_t p1, p2; pthread_create(&p1, 0, t1, 0); pthread_create(&p2, 0, t2, 0); pthread_join(p1,0); pthread_join(p2,0); return 0; }`},
	{"assume2", "__VERIFIER_assume cuts executions", `#include <pthread.h>
#include <stdatomic.h>
extern void __VERIFIER_assume(int);
atomic_int x, y;
void *t1(void *p) { atomic_store(&x, 1); int r = atomic_load(&y); __VERIFIER_assume(r == 0); atomic_store(&x, 2); return 0; }
void *t2(void *p) { atomic_store(&y, 1); int r = atomic_load(&x); atomic_store(&y, r + 1); return 0; }
int main(void) { pthread_t p1, p2; pthread_create(&p1, 0, t1, 0); pthread_create(&p2, 0, t2, 0); return 0; }`},
}

// TestSMCHandmade compares rf and rvf with dfs on the handmade programs.
func TestSMCHandmade(t *testing.T) {
	for _, h := range handmade {
		p, err := cfront.LoadSource(h.name+".c", []byte(h.src), cfront.Options{})
		if err != nil {
			t.Fatalf("%s: %v", h.name, err)
		}
		var do observed
		d := explore.DFS(context.Background(), p, observe(&do))
		compareSMC(t, h.name, p, rfAlgo, d, &do)
		compareSMC(t, h.name, p, rvfAlgo, d, &do)
	}
}

// TestSigmaKeyCountingSort: sigmaKey's counting sort gives the comparison
// sort's key, also for σ out of program order and with threads it does
// not count.
func TestSigmaKeyCountingSort(t *testing.T) {
	ev := func(th program.ThreadID, i int32, k program.Kind) program.Event {
		return program.Event{Thread: th, Index: i, Kind: k}
	}
	node := func(e program.Event, src program.EventID) rfNode { return rfNode{ev: e, src: src} }
	rmw := ev(1, 3, program.Write)
	rmw.Flags = program.RMWWrite
	cases := [][]rfNode{
		{node(ev(2, 5, program.Read), program.EventID{Thread: 1, Index: 2}), node(ev(1, 1, program.Write), program.InitID),
			node(ev(0, 4, program.Read), program.InitID), node(ev(1, 2, program.Read), program.EventID{Thread: 0, Index: 3}), node(rmw, program.InitID)},
		{node(ev(1, 4, program.Read), program.InitID), node(ev(1, 2, program.Write), program.InitID)}, // out of program order
		{node(ev(70, 1, program.Write), program.InitID), node(ev(3, 0, program.Acquire), program.InitID)},
		{},
	}
	for i, c := range cases {
		if got, want := sigmaKey(c), sortedSigmaKey(c); got != want {
			t.Errorf("case %d: key %x, want %x", i, got, want)
		}
	}
}
