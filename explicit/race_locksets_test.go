package explicit

import (
	"slices"
	"testing"

	"mcr/program"
)

// TestLockSets: events get one number per (thread, sorted held mutexes),
// whatever the order the mutexes were taken in and however often a
// critical section is entered again; the buckets of one location skip
// exactly the pairs that share a mutex or a thread.
func TestLockSets(t *testing.T) {
	const x, m1, m2 = program.Loc(100), program.Loc(1), program.Loc(2)
	ev := func(th program.ThreadID, k program.Kind, l program.Loc) program.Event {
		return program.Event{Thread: th, Kind: k, Loc: l}
	}
	tr := &program.Trace{Events: []program.Event{
		ev(0, program.Write, x),    // 0: t0 {}
		ev(0, program.Acquire, m1), // 1: t0 {}
		ev(0, program.Acquire, m2), // 2: t0 {m1}
		ev(0, program.Write, x),    // 3: t0 {m1 m2}
		ev(1, program.Acquire, m2), // 4: t1 {} (not feasible together with 3; the numbering does not care)
		ev(1, program.Acquire, m1), // 5: t1 {m2}
		ev(1, program.Read, x),     // 6: t1 {m1 m2}
		ev(0, program.Release, m1), // 7: t0 {m1 m2}
		ev(0, program.Write, x),    // 8: t0 {m2}
		ev(0, program.Release, m2), // 9: t0 {m2}
		ev(0, program.Acquire, m2), // 10: t0 {}
		ev(0, program.Read, x),     // 11: t0 {m2}
		ev(1, program.Release, m1), // 12: t1 {m1 m2}
		ev(1, program.Release, m2), // 13: t1 {m2}
		ev(1, program.Write, x),    // 14: t1 {}
	}}
	s := newLockSets(tr)
	same := [][]int{{0, 1, 10}, {2}, {3, 7}, {8, 9, 11}, {4, 14}, {5, 13}, {6, 12}}
	seen := map[int32]bool{}
	for _, g := range same {
		id := s.of[g[0]]
		if seen[id] {
			t.Errorf("events %v share number %d with another group", g, id)
		}
		seen[id] = true
		for _, i := range g[1:] {
			if s.of[i] != id {
				t.Errorf("event %d: set %d, event %d: set %d; want the same", i, s.of[i], g[0], id)
			}
		}
	}
	if got := s.locks[s.of[6]]; !slices.Equal(got, []program.Loc{m1, m2}) {
		t.Errorf("event 6 holds %v, want [m1 m2] sorted", got)
	}
	lb := newLockBuckets([]int32{0, 3, 6, 8, 11, 14}, s)
	want := map[int32][]int32{0: {6, 14}, 3: {14}, 6: {}, 8: {14}, 11: {14}, 14: {}}
	for a, w := range want {
		if got := lb.after(a, nil); !slices.Equal(got, w) {
			t.Errorf("after(%d) = %v, want %v", a, got, w)
		}
	}
}
