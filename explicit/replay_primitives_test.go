package explicit

import (
	"context"
	"testing"

	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
)

// TestPrimitiveFindingsReplay: every finding rf and rvf report on the
// testdata programs of the synchronisation primitives of issue 15
// (condition variables, rwlocks, barriers, semaphores, keys) replays from
// its steps, as `mcr replay` runs a schedule file, to the same outcome (a
// race: to its two accesses). dfs's findings are replayed by
// TestDFSTestdata. (vc refuses these programs: their primitives are
// read-modify-writes.)
func TestPrimitiveFindingsReplay(t *testing.T) {
	algos := []struct {
		name string
		run  func(context.Context, program.Program, explore.Options) *explore.Result
	}{{"rf", ReadsFromSMC}, {"rvf", RVFSMC}}
	replayed := 0
	for _, c := range []struct {
		file     string
		defines  []string
		spurious bool
		findings int // at least, per algorithm
	}{
		{"barrier_phase", nil, false, 1},
		{"barrier_short", nil, false, 1},
		{"cond_if", nil, false, 1},
		{"cond_lost", nil, false, 1},
		{"condvar_spurious", []string{"TRUST=1"}, true, 1},
		{"key_destructor", []string{"RACY=1"}, false, 2},
		{"rwlock_reader_writes", nil, false, 2},
		{"rwlock_upgrade", nil, false, 1},
		{"sem_misuse", nil, false, 2},
	} {
		p, err := cfront.Load("../testdata/c/"+c.file+".c", cfront.Options{Defines: c.defines, SpuriousWakeups: c.spurious})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range algos {
			res := a.run(context.Background(), p, explore.Options{KeepGoing: true})
			if len(res.Findings) < c.findings {
				t.Errorf("%s %v, %s: %d findings, want at least %d", c.file, c.defines, a.name, len(res.Findings), c.findings)
			}
			for _, f := range res.Findings {
				replayed++
				if why := replays(p, f); why != "" {
					t.Errorf("%s %v, %s: %s %q: %s", c.file, c.defines, a.name, f.Kind, f.Message, why)
				}
			}
		}
	}
	t.Logf("%d findings replayed", replayed)
}

// replays returns "" if f's steps reproduce f, else what went wrong.
func replays(p program.Program, f explore.Finding) string {
	x, err := program.Replay(p, program.ResolveSchedule(p, f.Steps))
	if err != nil {
		return "does not replay: " + err.Error()
	}
	tr := x.Trace()
	if f.Kind == explore.KindRace {
		n := len(f.Steps)
		if n < 2 || n > len(tr.Events) || !program.Conflicts(program.MemoryAccess(tr.Events[n-2]), program.MemoryAccess(tr.Events[n-1])) {
			return "the replay does not end with two conflicting accesses"
		}
		return ""
	}
	if _, out := x.Done(); out.Kind.String() != f.Kind {
		return "the replay ends in " + out.Kind.String()
	}
	return ""
}
