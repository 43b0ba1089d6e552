package predict

import (
	"context"
	"strings"
	"testing"

	"mcr/program"
)

// checkerTrace is a small trace exercising every rule of the checker:
//
//	0 T0#0 fork T1        4 T1#0 acquire l     9 T0#4 write y = 5
//	1 T0#1 acquire l      5 T1#1 read x = 1   10 T0#5 join T1
//	2 T0#2 write x = 1    6 T1#2 release l    11 T0#6 write x = 2
//	3 T0#3 release l      7 T1#3 read y = 0 (read-modify-write)
//	                      8 T1#4 write y = 1 (its write half)
func checkerTrace() *program.Trace {
	const x, y, l = 1, 2, 3
	ev := []program.Event{
		{Thread: 0, Index: 0, Kind: program.Fork, Value: 1},
		{Thread: 0, Index: 1, Kind: program.Acquire, Loc: l},
		{Thread: 0, Index: 2, Kind: program.Write, Loc: x, Value: 1},
		{Thread: 0, Index: 3, Kind: program.Release, Loc: l},
		{Thread: 1, Index: 0, Kind: program.Acquire, Loc: l},
		{Thread: 1, Index: 1, Kind: program.Read, Loc: x, Value: 1},
		{Thread: 1, Index: 2, Kind: program.Release, Loc: l},
		{Thread: 1, Index: 3, Kind: program.Read, Loc: y, Value: 0, Flags: program.RMW},
		{Thread: 1, Index: 4, Kind: program.Write, Loc: y, Value: 1, Flags: program.RMWWrite},
		{Thread: 0, Index: 4, Kind: program.Write, Loc: y, Value: 5},
		{Thread: 0, Index: 5, Kind: program.Join, Value: 1},
		{Thread: 0, Index: 6, Kind: program.Write, Loc: x, Value: 2},
	}
	return &program.Trace{Events: ev, Threads: []program.Thread{{Name: "0", Parent: -1}, {Name: "0.0", Parent: 0}}}
}

func TestCheckWitness(t *testing.T) {
	tr := checkerTrace()
	sched := func(ps ...int32) program.Schedule {
		out := make(program.Schedule, len(ps))
		for i, p := range ps {
			out[i] = tr.Events[p].ID()
		}
		return out
	}
	cases := []struct {
		name  string
		sched program.Schedule
		g     goal
		err   string // "" for valid
	}{
		{"race", sched(0, 1, 2, 3, 4, 5, 6, 7, 9), raceGoal(7, 9), ""},
		{"race, targets swapped", sched(0, 1, 2, 3, 4, 5, 6, 9, 7), raceGoal(7, 9), ""},
		{"program order", sched(0, 2, 1, 3, 4, 5, 6, 7, 9), raceGoal(7, 9), "not next in program order"},
		{"fork", sched(4, 0, 1, 2, 3, 5, 6, 7, 9), raceGoal(7, 9), "not forked yet"},
		{"lock", sched(0, 1, 4, 2, 3, 5, 6, 7, 9), raceGoal(7, 9), "held by"},
		{"read value", sched(0, 4, 5, 6, 1, 2, 3, 7, 9), raceGoal(7, 9), "reads 0, traced 1"},
		{"targets last", sched(0, 1, 2, 3, 4, 5, 6, 7, 9, 8), raceGoal(7, 9), "last steps are not the targets"},
		{"target enabled", sched(0, 1, 2, 3, 7, 9), raceGoal(7, 9), "not next in program order"},
		{"no conflict", sched(0, 1, 2, 3, 4, 5, 6, 7, 9), raceGoal(9, 4), "last steps are not the targets"},
		{"conflict", sched(0, 4, 5, 1), raceGoal(5, 1), "do not conflict"},
		{"read-modify-write", sched(0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 10, 11), readGoal(11, 0), "interrupts a read-modify-write"},
		{"same thread", sched(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), raceGoal(10, 11), "not next in program order"},
		{"join before end", sched(0, 1, 2, 3, 4, 5, 6, 9, 10, 11), readGoal(11, 0), "has not finished"},
		{"null read", sched(0, 4, 5), readGoal(5, 0), ""},
		{"null read, wrong value", sched(0, 1, 2, 3, 4, 5), readGoal(5, 0), "would not read 0"},
		{"not a read", sched(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), readGoal(11, 0), "would not read 0"},
		{"unknown event", program.Schedule{{Thread: 1, Index: 9}}, readGoal(9, 0), "no event"},
	}
	for _, c := range cases {
		_, err := checkWitness(context.Background(), tr, c.sched, c.g)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
}

// TestTrim checks that trimming keeps a witness valid and drops what the
// goal does not need.
func TestTrim(t *testing.T) {
	tr := checkerTrace()
	w := &window{t: tr}
	w.prepare(context.Background())
	full := []int32{0, 1, 2, 3, 4, 5, 6, 7, 9}
	got, _ := w.trim(context.Background(), full, raceGoal(7, 9))
	// T1 needs T0's write of x (its read returns 1), which needs T0's
	// section, whose release T1's acquire waits for: nothing can go.
	if len(got) != len(full) {
		t.Errorf("trim %v -> %v", full, got)
	}
	// T0's write of y is not needed for T1's read of x.
	got, _ = w.trim(context.Background(), []int32{0, 1, 2, 3, 9, 4, 5}, readGoal(5, 1))
	if want := []int32{0, 1, 2, 3, 4, 5}; !equal(got, want) {
		t.Errorf("trim read: %v, want %v", got, want)
	}
	if _, err := checkWitness(context.Background(), tr, w.ids(got), readGoal(5, 1)); err != nil {
		t.Error(err)
	}
}

func equal(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
