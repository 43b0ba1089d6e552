package parallel

import (
	"context"
	"sync/atomic"
	"testing"
)

func TestForEachRunsEveryItemOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		const n = 1000
		var seen [n]atomic.Int32
		var badWorker atomic.Bool
		ForEach(context.Background(), workers, n, func(w, i int) {
			if w < 0 || w >= workers {
				badWorker.Store(true)
			}
			seen[i].Add(1)
		})
		for i := range seen {
			if seen[i].Load() != 1 {
				t.Fatalf("workers=%d: item %d ran %d times", workers, i, seen[i].Load())
			}
		}
		if badWorker.Load() {
			t.Fatalf("workers=%d: worker index out of range", workers)
		}
	}
}

func TestForEachStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	ForEach(ctx, 2, 1000, func(w, i int) {
		if ran.Add(1) == 10 {
			cancel()
		}
	})
	if r := ran.Load(); r >= 1000 {
		t.Fatalf("ran %d items after cancel", r)
	}
}

// TestFreeReuses: Get makes an object only when none is free, and Drain
// returns every object put back.
func TestFreeReuses(t *testing.T) {
	var f Free[int]
	made := 0
	mk := func() (int, error) { made++; return made, nil }
	a, _ := f.Get(mk)
	b, _ := f.Get(mk) // a is in use: a second one
	f.Put(a)
	c, _ := f.Get(mk)
	if a != 1 || b != 2 || c != 1 || made != 2 {
		t.Fatalf("got %d %d %d after %d made", a, b, c, made)
	}
	f.Put(b)
	f.Put(c)
	if got := f.Drain(); len(got) != 2 || len(f.Drain()) != 0 {
		t.Fatalf("drained %v", got)
	}
}
