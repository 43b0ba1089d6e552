package cfront

import (
	"context"
	"slices"
	"testing"

	"mcr/program/explore"
)

// TestThreadLocal: every thread has its own copy of a thread-local
// variable, starting from its initialiser, so two threads using "it" never
// race and see only their own writes; a copy whose address escapes to
// another thread is shared like any escaped local (dfs, every interleaving).
func TestThreadLocal(t *testing.T) {
	const head = "#include <pthread.h>\n#include <assert.h>\n"
	cases := []struct {
		name, src string
		want      []string
	}{
		{"own copies", `
__thread int n = 5;
_Thread_local int m;
void *w(void *a) { for (int i = 0; i < 3; i++) n++; assert(n == 8 && m == 0); m = 2; return 0; }
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
	n = 1; m = 7;
	pthread_join(a, 0); pthread_join(b, 0);
	assert(n == 1 && m == 7);
	return 0;
}`, nil},
		{"static local", `
int *f(void) { static __thread int k; k++; return &k; }
void *w(void *a) { int *p = f(); f(); assert(*p == 2); return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, w, 0); f(); pthread_join(a, 0); assert(*f() == 2); return 0; }`, nil},
		{"thread-specific data", `
pthread_key_t k1, k2;
void *w(void *a) { assert(pthread_getspecific(k1) == 0); pthread_setspecific(k1, (void *)42); assert((long)pthread_getspecific(k1) == 42); return 0; }
int main(void) {
	pthread_key_create(&k1, 0); pthread_key_create(&k2, 0);
	assert(k1 != k2);
	pthread_setspecific(k1, (void *)7);
	pthread_t a; pthread_create(&a, 0, w, 0); pthread_join(a, 0);
	assert((long)pthread_getspecific(k1) == 7 && pthread_getspecific(k2) == 0);
	return 0;
}`, nil},
		{"thread-specific data is not shared", `
pthread_key_t k;
void *w(void *a) { pthread_setspecific(k, (void *)1); return 0; }
int main(void) { pthread_key_create(&k, 0); pthread_t a; pthread_create(&a, 0, w, 0); pthread_join(a, 0); assert(pthread_getspecific(k) != 0); return 0; }`, []string{explore.KindAssertion}},
		{"pthread_once routine that waits for itself", `
pthread_once_t o = PTHREAD_ONCE_INIT;
void r(void);
void r(void) { pthread_once(&o, r); }
int main(void) { pthread_once(&o, r); return 0; }`, []string{explore.KindDeadlock}},
		{"escaped copy", `
__thread int n;
void *w(void *a) { *(int *)a = 3; return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, w, &n); n = 4; pthread_join(a, 0); return 0; }`, []string{explore.KindRace}},
	}
	for _, c := range cases {
		res := explore.DFS(context.Background(), loadSrc(t, head+c.src), explore.Options{KeepGoing: true})
		if got := res.FindingKinds(); !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%s: findings %v, want %v (%+v)", c.name, got, c.want, res.Findings)
		}
		if !res.Stats.Complete {
			t.Errorf("%s: search incomplete: %+v", c.name, res.Stats)
		}
	}
}
