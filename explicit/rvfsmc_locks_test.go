package explicit

// This file tests the backtrack signals of acquires (signal in
// rvfsmc.go) against dfs on random programs that take several mutexes in
// random orders, nested, conditionally on shared values, and sometimes
// never release them: the shapes in which an acquire may wait forever
// (deadlocks, a lock held by an ended thread), which is what made Lemma 1
// of seed 000 need a proof of its own for acquires.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"mcr/program/cfront"
	"mcr/program/randprog/randtest"
)

// lockProgram returns the C source of a random program of 2 or 3 threads
// over 2 or 3 mutexes and 2 globals (one plain, one atomic). Each thread
// runs 1 to 3 operations: a write or read-and-branch on a global, or a
// critical section of one mutex holding a write, a read, or a nested
// section of another mutex (in either order across threads, so deadlocks
// happen); the last operation of a thread may take a mutex and never
// release it. Main forks the threads, joins some of them and asserts a
// predicate over the globals.
func lockProgram(seed int64) string {
	rng := rand.New(rand.NewPCG(uint64(seed), 17))
	threads := 2 + rng.IntN(2)
	mutexes := 2 + rng.IntN(2)
	var b strings.Builder
	fmt.Fprintf(&b, "#include <pthread.h>\n#include <stdatomic.h>\n#include <assert.h>\n")
	for m := range mutexes {
		fmt.Fprintf(&b, "pthread_mutex_t m%d = PTHREAD_MUTEX_INITIALIZER;\n", m)
	}
	b.WriteString("int g0;\natomic_int g1;\n")
	access := func(ind string) string {
		v := 1 + rng.IntN(2)
		switch rng.IntN(4) {
		case 0:
			return fmt.Sprintf("%sg0 = %d;\n", ind, v)
		case 1:
			return fmt.Sprintf("%satomic_store(&g1, %d);\n", ind, v)
		case 2:
			return fmt.Sprintf("%sif (g0 == %d) atomic_fetch_add(&g1, 1);\n", ind, v)
		}
		return fmt.Sprintf("%sg0 = atomic_load(&g1) + %d;\n", ind, v)
	}
	ops := 1 + rng.IntN(3)
	if threads == 3 {
		ops = 1 + rng.IntN(2)
	}
	for t := range threads {
		fmt.Fprintf(&b, "void *t%d(void *arg) {\n", t)
		n := 1 + rng.IntN(ops)
		for k := range n {
			last := k == n-1
			a, c := rng.IntN(mutexes), rng.IntN(mutexes)
			switch r := rng.IntN(6); {
			case r == 0:
				b.WriteString(access("\t"))
			case r == 1:
				// a section entered only on some values of g1
				fmt.Fprintf(&b, "\tif (atomic_load(&g1) == %d) {\n\t\tpthread_mutex_lock(&m%d);\n%s\t\tpthread_mutex_unlock(&m%d);\n\t}\n",
					rng.IntN(2), a, access("\t\t"), a)
			case r == 2 && last:
				fmt.Fprintf(&b, "\tpthread_mutex_lock(&m%d);\n%s", a, access("\t")) // never released
			case r == 3 && a != c:
				fmt.Fprintf(&b, "\tpthread_mutex_lock(&m%d);\n\tpthread_mutex_lock(&m%d);\n%s\tpthread_mutex_unlock(&m%d);\n\tpthread_mutex_unlock(&m%d);\n",
					a, c, access("\t"), c, a)
			default:
				fmt.Fprintf(&b, "\tpthread_mutex_lock(&m%d);\n%s\tpthread_mutex_unlock(&m%d);\n", a, access("\t"), a)
			}
		}
		b.WriteString("\treturn 0;\n}\n")
	}
	b.WriteString("int main(void) {\n")
	fmt.Fprintf(&b, "\tpthread_t t[%d];\n", threads)
	for t := range threads {
		fmt.Fprintf(&b, "\tpthread_create(&t[%d], 0, t%d, 0);\n", t, t)
	}
	if rng.IntN(2) == 0 {
		for t := range threads {
			if rng.IntN(3) != 0 {
				fmt.Fprintf(&b, "\tpthread_join(t[%d], 0);\n", t)
			}
		}
		fmt.Fprintf(&b, "\tassert(g0 != %d || atomic_load(&g1) != %d);\n", 1+rng.IntN(2), rng.IntN(3))
	}
	b.WriteString("\treturn 0;\n}\n")
	return b.String()
}

// TestRVFLocksRandom compares rf and rvf with dfs on lockProgram's
// programs (SMC_LOCKS sets how many; default 60, 25 with -short): the
// same outcomes and findings (deadlocks included), complete searches, rf
// one execution per class and rvf at most that; programs with more than
// 20,000 interleavings are skipped.
func TestRVFLocksRandom(t *testing.T) {
	n := randtest.Count("SMC_LOCKS", 60, 25)
	big, deadlocks := 0, 0
	for seed := int64(1); seed <= int64(n); seed++ {
		src := lockProgram(seed)
		name := fmt.Sprintf("locks%d.c", seed)
		p, err := cfront.LoadSource(name, []byte(src), cfront.Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		var do observed
		d, ok := randtest.DFS(p, 20000, observe(&do))
		if !ok {
			big++
			continue
		}
		if kinds := d.FindingKinds(); strings.Contains(fmt.Sprint(kinds), "deadlock") {
			deadlocks++
		}
		compareSMC(t, name, p, rfAlgo, d, &do)
		compareSMC(t, name, p, rvfAlgo, d, &do)
		if t.Failed() {
			t.Logf("%s:\n%s", name, src)
			return
		}
	}
	t.Logf("%d programs, %d too big for dfs, %d with a deadlock", n, big, deadlocks)
}
