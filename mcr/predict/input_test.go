package predict_test

// This file checks that traces which are well formed but no execution are
// an *InputError naming the place and the problem, in every format and for
// traces in memory, never a panic (issue 13, case 3: an event of a thread
// before its fork crashed the witness report).

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcr/mcr/predict"
	"mcr/program"
	"mcr/program/tracefile"
)

func TestNotAnExecution(t *testing.T) {
	const forkMsg = "T0 forks T1, but T1 has events before the fork (the first at "
	for _, c := range []struct {
		name, in, want string
	}{
		// The child writes before its fork, the parent then reads: the pair
		// once reached the witness report with a fork of thread -1.
		{"late.std", "T1|w(x)|10\nT0|fork(T1)|1\nT0|r(x)|2\nT1|w(x)|11\n", "late.std:2: " + forkMsg + "line 1)"},
		{"late1.std", "T1|w(x)|10\nT0|fork(T1)|1\n", "late1.std:2: " + forkMsg + "line 1)"},
		{"late.vals.txt", "Write 1 x 1\nFork 0 1 0\nRead 0 x 1\nWrite 1 x 2\n", "late.vals.txt:2: " + forkMsg + "line 1)"},
		{"late.json", `{"threads":["0","1"],"events":[` +
			`{"thread":"1","index":0,"kind":"write","loc":1,"value":5},` +
			`{"thread":"0","index":0,"kind":"fork","child":"1","value":0},` +
			`{"thread":"0","index":1,"kind":"read","loc":1,"value":5}]}`, "late.json: event 1: " + forkMsg + "event 0)"},
		// The same in a later window than the child's first event.
		{"latewin.std", "T1|w(x)|10\nT1|w(y)|11\nT1|w(x)|12\nT1|w(y)|13\nT0|fork(T1)|1\nT0|r(x)|2\n", "latewin.std:5: " + forkMsg + "line 1)"},
		{"joined.std", "T0|join(T1)|1\nT0|fork(T1)|2\n", "joined.std:2: T0 forks T1 after it was joined"},
		{"twice.std", "T0|fork(T1)|1\nT1|fork(T2)|2\nT2|w(x)|3\nT0|fork(T2)|4\n", "twice.std:4: T0 forks T2 a second time"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.name)
			if err := os.WriteFile(path, []byte(c.in), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, window := range []int{0, 2} {
				_, err := predict.File(context.Background(), path, tracefile.Options{}, predict.Options{Decider: "explicit", Window: window, Workers: 1})
				var ie *predict.InputError
				if !errors.As(err, &ie) || !strings.Contains(err.Error(), "/"+c.want) {
					t.Errorf("window %d: error %v (%T), want an *InputError with %q", window, err, err, c.want)
				}
			}
		})
	}
}

// TestNotAnExecutionInMemory checks the same for traces in memory, whose
// fork and join events may name any thread number.
func TestNotAnExecutionInMemory(t *testing.T) {
	threads := []program.Thread{{Name: "0", Parent: -1}, {Name: "1", Parent: 0}}
	w := program.Event{Thread: 1, Kind: program.Write, Loc: 1, Value: 1}
	fork := func(index int32, child int64) program.Event {
		return program.Event{Thread: 0, Index: index, Kind: program.Fork, Value: child}
	}
	join := program.Event{Thread: 0, Kind: program.Join, Value: -1}
	for _, c := range []struct {
		events []program.Event
		want   string
	}{
		{[]program.Event{w, fork(0, 1)}, "trace: event 1: T0 forks T1, but T1 has events before the fork (the first at event 0)"},
		{[]program.Event{fork(0, 7)}, "trace: event 0: T0 forks thread number 7, which does not exist"},
		{[]program.Event{fork(0, 0)}, "trace: event 0: T0 forks itself"},
		{[]program.Event{join}, "trace: event 0: T0 joins thread number -1, which does not exist"},
	} {
		tr := &program.Trace{Threads: threads, Events: c.events}
		_, err := predict.Trace(context.Background(), tr, predict.Options{Decider: "explicit", Workers: 1})
		var ie *predict.InputError
		if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.events, err, c.want)
		}
	}
}
