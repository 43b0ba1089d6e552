package predict

// This file checks the per-query limits on Z3 (issue 18): a query stopped
// by Z3's resource limit or by the memory guard is counted as given up,
// with its reason, and makes the result incomplete, never a silent drop.

import (
	"context"
	"errors"
	"fmt"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"mcr/encode"
	"mcr/encode/z3"
	"mcr/explicit"
	"mcr/program/tracefile"
)

// TestZ3Rlimit: with a resource limit of one unit every z3 query gives up;
// the race of lostupdate.vals.txt is then undecided, the result incomplete
// with the reason, and the give-ups counted under "rlimit". Without the
// limit the same run finds the race (the limit is what stopped it).
func TestZ3Rlimit(t *testing.T) {
	if !z3Available() {
		t.Skip("z3 not built in")
	}
	path := "../../testdata/traces/lostupdate.vals.txt"
	opts := Options{Decider: "z3", Workers: 1, NoShortcuts: true, QueryRlimit: 1}
	res, err := File(context.Background(), path, tracefile.Options{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Stats
	z := s.Solver["z3"]
	if s.Complete || len(res.Races) != 0 || s.Unknown == 0 || z.GaveUp != s.Unknown || z.Reasons[reasonRlimit] != z.GaveUp {
		t.Errorf("under rlimit 1: complete %v, %d races, %d unknown, z3 %+v; want incomplete, 0, all unknown by rlimit", s.Complete, len(res.Races), s.Unknown, z)
	}
	if !strings.Contains(s.Stopped, "z3 gave up") || !strings.Contains(s.Stopped, "rlimit") {
		t.Errorf("reason %q does not name the resource limit", s.Stopped)
	}
	opts.QueryRlimit = 0
	if res, err = File(context.Background(), path, tracefile.Options{}, opts); err != nil {
		t.Fatal(err)
	}
	if !res.Stats.Complete || len(res.Races) != 1 || res.Stats.Unknown != 0 {
		t.Errorf("without rlimit: complete %v, %d races, %d unknown; want complete, 1, 0", res.Stats.Complete, len(res.Races), res.Stats.Unknown)
	}
}

// TestMemGuardCountsZ3: a limit above the Go heap but below the Go heap
// plus Z3's memory (its tables alone are over 16 MB once a context
// exists) stops a query only when the guard counts Z3.
func TestMemGuardCountsZ3(t *testing.T) {
	if !z3Available() {
		t.Skip("z3 not built in")
	}
	c, err := z3.NewContext() // alive during the test: its tables count
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	zmem := z3.AllocatedBytes()
	if zmem < 8<<20 {
		t.Fatalf("Z3 holds %d bytes with a context alive; want its tables (MBs)", zmem)
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	expectStop(t, newMemGuard(sample[0].Value.Uint64()+zmem/2, true))
}

// TestGaveUpReason: the classification of a decider's give-ups.
func TestGaveUpReason(t *testing.T) {
	live := context.Background()
	late, cancel := context.WithTimeout(live, -time.Second)
	defer cancel()
	stopped, stop := context.WithCancel(live)
	stop()
	lost, lose := context.WithCancelCause(live)
	lose(errRaceWon)
	for _, c := range []struct {
		err  error
		qctx context.Context
		want string
	}{
		{errMemory, stopped, reasonMemory},
		{fmt.Errorf("%w (5 units): %w", encode.ErrRlimit, errors.New("unknown")), live, reasonRlimit},
		{explicit.ErrStates, live, reasonStates},
		{context.DeadlineExceeded, late, reasonTimeout},
		{errors.New("z3: timeout: unknown"), live, reasonTimeout},
		{context.Canceled, stopped, reasonStopped},
		{context.Canceled, lost, reasonLost},
		{errors.New("z3: incomplete"), live, reasonOther},
	} {
		if got := gaveUpReason(c.err, c.qctx); got != c.want {
			t.Errorf("gaveUpReason(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
