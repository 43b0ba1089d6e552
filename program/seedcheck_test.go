package program

import (
	"context"
	"strings"
	"testing"
)

// TestCheckSeed covers the rules of CheckSeed that MCR's seed and race
// queries need beyond predict's goals (mcr/predict/witness_test.go covers
// those): fixed reads, a flipped read-modify-write target, a race on a
// write half, a lock held from the start. The trace:
//
//	0 T0#0 fork T1                                    4 T1#0 acquire l
//	1 T0#1 release l (held since before the trace)    5 T1#1 write x = 5
//	2 T0#2 read x = 0 (read-modify-write)             6 T1#2 read x = 5
//	3 T0#3 write x = 1 (its write half)
func TestCheckSeed(t *testing.T) {
	const x, l = 1, 2
	tr := &Trace{Threads: []Thread{{Name: "0", Parent: -1}, {Name: "0.0", Parent: 0}}, Events: []Event{
		{Thread: 0, Index: 0, Kind: Fork, Value: 1},
		{Thread: 0, Index: 1, Kind: Release, Loc: l},
		{Thread: 0, Index: 2, Kind: Read, Loc: x, Value: 0, Flags: RMW | Atomic},
		{Thread: 0, Index: 3, Kind: Write, Loc: x, Value: 1, Flags: RMWWrite | Atomic},
		{Thread: 1, Index: 0, Kind: Acquire, Loc: l},
		{Thread: 1, Index: 1, Kind: Write, Loc: x, Value: 5},
		{Thread: 1, Index: 2, Kind: Read, Loc: x, Value: 5},
	}}
	sched := func(ps ...int32) Schedule {
		out := make(Schedule, len(ps))
		for i, p := range ps {
			out[i] = tr.Events[p].ID()
		}
		return out
	}
	seed := func(r int32, v int64, fixed ...int32) SeedQuery {
		q := NewSeedQuery(tr, fixed)
		q.Read, q.Value = r, v
		return q
	}
	race := NewSeedQuery(tr, nil)
	race.Race = [2]int32{3, 5}
	cases := []struct {
		name  string
		q     SeedQuery
		sched Schedule
		err   string // "" for valid
	}{
		{"fixed", seed(-1, 0, 6), sched(0, 1, 4, 5, 6), ""},
		{"fixed not executed", seed(-1, 0, 6), sched(0, 1, 4, 5), "fixed read"},
		{"lock held from the start", seed(-1, 0, 6), sched(0, 4, 5, 6), "held by"},
		{"flipped target", seed(2, 5), sched(0, 1, 4, 5, 2), ""},
		{"target not last", seed(2, 0), sched(0, 1, 2, 3, 4, 5, 6), ""},
		{"flipped target, wrong value", seed(2, 7), sched(0, 1, 4, 5, 2), "would not read 7"},
		{"unknown value read", seed(2, 5), sched(0, 1, 4, 5, 2, 6), "unknown value"},
		{"target not executed", seed(2, 5), sched(0, 1, 4, 5), "not executed"},
		{"ends inside a read-modify-write", seed(-1, 0, 2), sched(0, 1, 2), "ends inside a read-modify-write"},
		{"read-modify-write interrupted", seed(-1, 0, 2, 6), sched(0, 1, 4, 2, 5, 3, 6), "interrupts a read-modify-write"},
		{"race on a write half", race, sched(0, 1, 2, 4, 3, 5), ""},
		{"race, write half first", race, sched(0, 1, 2, 3, 4, 5), "last steps are not the targets"},
	}
	for _, c := range cases {
		pos, err := CheckSeed(context.Background(), c.q, SeedAnswer{Sat: true, Schedule: c.sched})
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && len(pos) != len(c.sched):
			t.Errorf("%s: positions %v for %d steps", c.name, pos, len(c.sched))
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	long := NewSeedQuery(&Trace{Threads: tr.Threads, Events: make([]Event, 2*checkPollEvery)}, nil)
	for i := range long.Trace.Events {
		long.Trace.Events[i] = Event{Thread: 0, Index: int32(i), Kind: Write, Loc: x, Value: int64(i)}
	}
	if _, err := CheckSeed(ctx, long, SeedAnswer{Sat: true, Schedule: long.Trace.Schedule()}); err != context.Canceled {
		t.Errorf("done context: %v", err)
	}
}
