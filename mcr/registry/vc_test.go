package registry_test

import (
	"context"
	"testing"

	"mcr/mcr/registry"
	"mcr/program/cfront"
	"mcr/program/explore"
)

// TestVCMainAloneThenSpawn: main loops alone under a mutex (vc runs it on in
// place, explicit/vcdpor_alone.go), then spawns two threads that race with
// it under and outside the mutex; vc must reach every outcome and finding
// dfs reaches (the events of the loop become the first node's annotated
// partial order at once, and its reads' good writes must be what the
// read-by-read extension would give them: the assertion needs the loop's
// last value).
func TestVCMainAloneThenSpawn(t *testing.T) {
	src := `#include <pthread.h>
#include <assert.h>
int g, h;
pthread_mutex_t m;
void *t(void *a) { pthread_mutex_lock(&m); g++; pthread_mutex_unlock(&m); h = g; return 0; }
int main(void) {
	for (int i = 0; i < 20; i++) { pthread_mutex_lock(&m); g++; pthread_mutex_unlock(&m); if (g == 5) h = 5; }
	pthread_t a, b;
	pthread_create(&a, 0, t, 0);
	pthread_create(&b, 0, t, 0);
	pthread_mutex_lock(&m); g++; pthread_mutex_unlock(&m);
	int v = h;
	assert(v != 22);
	return 0;
}
`
	p, err := cfront.LoadSource("alone.c", []byte(src), cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := registry.Lookup("vc")
	if err != nil {
		t.Fatal(err)
	}
	got := explore.NewReached()
	res := a.Run(context.Background(), p, explore.Options{KeepGoing: true, Observe: got.Observe(nil)}, explore.Config{Workers: 2})
	if v := explore.Validate(context.Background(), p, res, got, true, 0); !v.OK() || !v.Complete || !res.Stats.Complete {
		t.Errorf("vc: %+v (complete %v: %s)", v, res.Stats.Complete, res.Stats.Stopped)
	}
	if len(res.Findings) == 0 || res.Stats.Extra["forced_reads"] < 40 {
		t.Errorf("vc: findings %v, extra %v: want the assertion and the loop's 40 reads run alone", res.Findings, res.Stats.Extra)
	}
}
