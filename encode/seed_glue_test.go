package encode_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"mcr/encode"
	"mcr/encode/z3"
	"mcr/explicit"
	"mcr/program"
	"mcr/program/tracefile"
)

// emptyRunsTrace returns a random value-format execution of three threads
// forked by thread 1 that take two locks in runs of empty critical
// sections (the events seed_glue.go glues to points), nested in other
// sections at times, between accesses to two variables, some of them in
// critical sections.
func emptyRunsTrace(t *testing.T, seed uint64) *program.Trace {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	for th := 2; th <= 4; th++ {
		line("Fork 1 %d 0", th)
		line("Begin %d 0 0", th)
	}
	mem := [2]int64{}
	access := func(th int) {
		v := rng.IntN(2)
		if rng.IntN(2) == 0 {
			line("Read %d V%d %d", th, v, mem[v])
			return
		}
		mem[v] = int64(1 + rng.IntN(3))
		line("Write %d V%d %d", th, v, mem[v])
	}
	for range 10 + rng.IntN(8) {
		th := 2 + rng.IntN(3)
		switch rng.IntN(4) {
		case 0: // a run of empty sections, inside another lock at times
			l, outer := rng.IntN(2), rng.IntN(3) == 0
			if outer {
				line("Acq %d L%d 0", th, 1-l)
			}
			for range 1 + rng.IntN(3) {
				line("Acq %d L%d 0", th, l)
				line("Rel %d L%d 0", th, l)
			}
			if outer {
				access(th)
				line("Rel %d L%d 0", th, 1-l)
			}
		case 1: // a section with accesses
			l := rng.IntN(2)
			line("Acq %d L%d 0", th, l)
			access(th)
			if rng.IntN(2) == 0 {
				access(th)
			}
			line("Rel %d L%d 0", th, l)
		default:
			access(th)
		}
	}
	for th := 2; th <= 4; th++ {
		line("End %d 0 0", th)
		line("Join 1 %d 0", th)
	}
	tr, _, err := tracefile.Read(fmt.Sprintf("emptyruns-%d.vals.txt", seed), strings.NewReader(b.String()), tracefile.Options{})
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, b.String())
	}
	return tr
}

// TestSeedEmptyRuns: on traces full of runs of empty critical sections,
// the z3 seeder (which glues them to points) and the explicit search
// (which does not) answer every race query and every query of a read for
// another value alike, and every z3 witness passes the checker.
func TestSeedEmptyRuns(t *testing.T) {
	if !z3.Available() {
		t.Skip("built without Z3")
	}
	ctx := context.Background()
	z, err := encode.NewZ3Seeder(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	seeds := uint64(60)
	if testing.Short() {
		seeds = 15
	}
	sats := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		tr := emptyRunsTrace(t, seed)
		ev := tr.Events
		var qs []program.SeedQuery
		for a := range ev {
			for b := a + 1; b < len(ev); b++ {
				x, y := &ev[a], &ev[b]
				if x.Kind.IsAccess() && y.Kind.IsAccess() && x.Loc == y.Loc && x.Thread != y.Thread &&
					(x.Kind == program.Write || y.Kind == program.Write) {
					q := program.NewSeedQuery(tr, nil)
					q.Race = [2]int32{int32(a), int32(b)}
					qs = append(qs, q)
				}
			}
			if ev[a].Kind == program.Read {
				for v := int64(0); v <= 3; v++ {
					if v != ev[a].Value {
						q := program.NewSeedQuery(tr, nil)
						q.Read, q.Value = int32(a), v
						qs = append(qs, q)
					}
				}
			}
		}
		for _, q := range qs {
			za, err := z.Decide(ctx, q)
			if err != nil {
				t.Fatalf("seed %d query %v/%d=%d: z3: %v", seed, q.Race, q.Read, q.Value, err)
			}
			ea, err := explicit.Seeder{}.Decide(ctx, q)
			if err != nil {
				t.Fatalf("seed %d query %v/%d=%d: explicit: %v", seed, q.Race, q.Read, q.Value, err)
			}
			if za.Sat != ea.Sat {
				t.Errorf("seed %d query race %v read %d=%d: z3 sat %v, explicit sat %v", seed, q.Race, q.Read, q.Value, za.Sat, ea.Sat)
				continue
			}
			if za.Sat {
				sats++
				if _, err := program.CheckSeed(ctx, q, za); err != nil {
					t.Errorf("seed %d query race %v read %d=%d: z3 witness %v rejected: %v", seed, q.Race, q.Read, q.Value, za.Schedule, err)
				}
			}
		}
	}
	if sats == 0 {
		t.Error("no satisfiable query: the traces test nothing")
	}
}
