package registry_test

import (
	"context"
	"strings"
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
	for _, f := range []string{"assume_await", "assume_stuck", "assume_locked", "lost_update", "lock_order_deadlock", "null_deref", "lamport", "violation_hides_race", "two_failures", "rwlock_atomic_writers", "mutex_errorcheck", "float_lost_update", "float_signed_zero", "key_destructor"} {
		p, err := cfront.Load("../../testdata/c/"+f+".c", cfront.Options{})
		if err != nil {
			t.Fatal(err)
		}
		everyAlgorithmAsDFS(t, f, p)
	}
}

// everyAlgorithmAsDFS runs every implemented algorithm of the registry on
// p (named name in errors) and requires a complete search that reaches
// every outcome and finding dfs reaches, unless the algorithm refused a
// construct of p.
func everyAlgorithmAsDFS(t *testing.T, name string, p *cfront.Program) {
	t.Helper()
	for _, a := range registry.Algorithms() {
		if a.Run == nil {
			continue
		}
		got := explore.NewReached()
		res := a.Run(context.Background(), p, explore.Options{KeepGoing: true, Observe: got.Observe(nil)}, explore.Config{Workers: 2})
		if refused(a, res) {
			continue
		}
		if v := explore.Validate(context.Background(), p, res, got, true, 0); !v.OK() || !v.Complete || !res.Stats.Complete {
			t.Errorf("%s on %s: %+v (complete %v: %s)", a.Name, name, v, res.Stats.Complete, res.Stats.Stopped)
		}
	}
}

// refused reports whether a refused a construct of the program, saying
// so (vc: RMW, CAS, failed trylocks); the result must then be incomplete.
func refused(a *explore.Algorithm, res *explore.Result) bool {
	return a.Name == "vc" && !res.Stats.Complete && strings.Contains(res.Stats.Stopped, "vc does not support")
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

// TestLongCriticalSections: two threads each increment a counter 100 times
// under one mutex. The mutex orders the two sections, so there are two
// executions and nothing to ask a decider about the counter: a read inside
// one section cannot read a write the other section overwrites, and two
// accesses under a common mutex never race. rvf and mcr asked 2N^2
// witness queries and 4N^2 race queries here (issue 17: at N=1,000 no
// execution finished in 60 s), then a level per read of the second section
// and a quadratic pass over pairs sharing the mutex (N=4,000: 43 s, now
// 0.2 s).
func TestLongCriticalSections(t *testing.T) {
	src := `#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long counter;
void *inc(void *a) { pthread_mutex_lock(&m); for (int i = 0; i < 100; i++) counter++; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, inc, 0); pthread_create(&b, 0, inc, 0); pthread_join(a, 0); pthread_join(b, 0); return 0; }
`
	p, err := cfront.LoadSource("sections.c", []byte(src), cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range registry.Algorithms() {
		if a.Run == nil || a.Name == "mcr-seeds" { // mcr-seeds: a seed per read and value, see issue 17
			continue
		}
		res := a.Run(context.Background(), p.Fresh(), explore.Options{KeepGoing: true}, explore.Config{Workers: 1})
		if refused(a, res) {
			continue
		}
		st := res.Stats
		queries := st.Extra["verifysc_queries"] + st.Extra["seed_queries"] + st.Extra["race_queries"] + st.Extra["witness_queries"]
		// Every read of the second section has one visible write, the
		// one before it (the first section's writes happen before its
		// acquire): rvf and mcr step them as forced, not a level each.
		if st.Executions != 2 || !st.Complete || queries > 10 || st.Extra["guided_witnesses"] > 10 || len(res.Findings) != 0 {
			t.Errorf("%s: %d executions, complete %v, %v queries (extra %v), findings %v", a.Name, st.Executions, st.Complete, queries, st.Extra, res.Findings)
		}
	}
}

// TestTrylockOutcomes: a trylock that succeeds in the first execution but
// can fail in another (testdata/c/trylock_may_fail.c). dfs finds the
// assertion behind the failure; rf finds it in a complete search (both
// outcomes explored); every other algorithm finds it too or says that
// trylocks left its search incomplete, never "complete" without it (rvf
// and mcr did, before session 10).
func TestTrylockOutcomes(t *testing.T) {
	p, err := cfront.Load("../../testdata/c/trylock_may_fail.c", cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := explore.DFS(context.Background(), p, explore.Options{KeepGoing: true})
	if !d.Stats.Complete || len(d.Findings) != 1 || d.Findings[0].Kind != explore.KindAssertion {
		t.Fatalf("dfs: %d findings, complete %v", len(d.Findings), d.Stats.Complete)
	}
	for _, a := range registry.Algorithms() {
		if a.Run == nil || a.Name == "dfs" {
			continue
		}
		res := a.Run(context.Background(), p, explore.Options{KeepGoing: true}, explore.Config{Workers: 2})
		if refused(a, res) {
			continue
		}
		if res.Stats.Complete && len(res.Findings) == 0 {
			t.Errorf("%s: complete without the assertion behind the failed trylock", a.Name)
		}
		if a.Name == "rf" && (!res.Stats.Complete || len(res.Findings) != 1) {
			// rf explores both outcomes (explicit/rfsmc_trylock.go)
			t.Errorf("rf: %d findings, complete %v (%s)", len(res.Findings), res.Stats.Complete, res.Stats.Stopped)
		}
		if !res.Stats.Complete && !strings.Contains(res.Stats.Stopped, "trylock") {
			t.Errorf("%s: incomplete for another reason: %s", a.Name, res.Stats.Stopped)
		}
	}
}

// TestSpuriousWakeups: with spurious wake-ups the waiting loop's idle
// iterations (a lock and an unlock, reads) stop their thread, so every
// algorithm finishes and reaches dfs's outcomes and findings; a waiter
// that trusts one wait fails only through a spurious wake-up.
func TestSpuriousWakeups(t *testing.T) {
	for _, trust := range []string{"0", "1"} {
		p, err := cfront.Load("../../testdata/c/condvar_spurious.c", cfront.Options{SpuriousWakeups: true, Defines: []string{"TRUST=" + trust}})
		if err != nil {
			t.Fatal(err)
		}
		d := explore.DFS(context.Background(), p, explore.Options{KeepGoing: true})
		if !d.Stats.Complete || (len(d.Findings) > 0) != (trust == "1") {
			t.Fatalf("TRUST=%s: dfs: %d findings, complete %v (%s)", trust, len(d.Findings), d.Stats.Complete, d.Stats.Stopped)
		}
		everyAlgorithmAsDFS(t, "condvar_spurious.c TRUST="+trust, p)
	}
}

// TestStepLimitCutsOneThread: a thread whose local loop never reaches an
// event is cut at the step limit, and only it: the other thread's racing
// write still runs, and every algorithm finds the race (rvf and mcr cut
// the whole execution and missed it, before session 10).
func TestStepLimitCutsOneThread(t *testing.T) {
	src := `#include <pthread.h>
int g;
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
	pthread_mutex_lock(&b); g = 1; pthread_mutex_unlock(&b);
	for (int i = 0; ; i++) ;
	return 0;
}
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	pthread_mutex_lock(&a); g = 2; pthread_mutex_unlock(&a);
	pthread_join(t, 0);
	return 0;
}`
	p, err := cfront.LoadSource("steps.c", []byte(src), cfront.Options{StepLimit: 10000, NoSpinAwait: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range registry.Algorithms() {
		if a.Run == nil {
			continue
		}
		res := a.Run(context.Background(), p, explore.Options{KeepGoing: true}, explore.Config{Workers: 1})
		if refused(a, res) {
			continue
		}
		if len(res.Findings) != 1 || res.Findings[0].Kind != explore.KindRace || res.Stats.Complete {
			t.Errorf("%s: %d findings, complete %v (%s): want the race, incomplete", a.Name, len(res.Findings), res.Stats.Complete, res.Stats.Stopped)
		}
	}
}
