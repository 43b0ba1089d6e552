package explicit

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"mcr/program"
	"mcr/program/tracefile"
)

// TestInstanceFromTrace: the instances of an SC trace (its own reads-from,
// or value-based good writes) have the trace as a witness, and the deciders
// find one.
func TestInstanceFromTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for range 300 {
		tr := randomTrace(rng, program.RandomOptions{Threads: 2 + rng.IntN(3), Events: 2 + rng.IntN(8), Vars: 1 + rng.IntN(3),
			Locks: rng.IntN(2), Values: 2, Model: program.SC, Constraint: program.GoodWrites})
		for _, c := range program.Constraints {
			inst, err := program.InstanceFromTrace(tr, c)
			if err != nil {
				t.Fatal(err)
			}
			var w program.Witness
			for _, e := range tr.Events {
				w = append(w, program.Step{Event: e.ID()})
			}
			if err := program.ValidateWitness(inst, w); err != nil {
				t.Fatalf("%s: the trace is no witness: %v\n%s", c, err, dump(inst))
			}
			for _, info := range Deciders() {
				if !info.Supports(inst) {
					continue
				}
				if _, ok, err := program.CheckedDecide(context.Background(), info.New(), inst); err != nil || !ok {
					t.Fatalf("%s on %s: %v %v\n%s", info.Name, c, ok, err, dump(inst))
				}
			}
		}
	}
}

// recorded returns the recorded traces with values of shared/data, if
// present.
func recorded(t testing.TB) []string {
	files, _ := filepath.Glob("/work/shared/data/traces/*.vals.txt")
	if len(files) == 0 {
		t.Skip("no recorded traces in /work/shared/data/traces")
	}
	return files
}

// TestRecordedTraces decides the instances of the recorded Java traces (the
// focs-lab value traces: each read has the last written value, so they are
// consistent): VerifySC on value-based good writes, GetWitness on their own
// reads-from, each within a time limit.
func TestRecordedTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, f := range recorded(t) {
		tr, _, err := tracefile.ReadAll(f, tracefile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range program.Constraints {
			inst, err := program.InstanceFromTrace(tr, c)
			if err != nil {
				t.Logf("%s: %v", filepath.Base(f), err)
				continue
			}
			for _, name := range []string{"verifysc", "getwitness"} {
				info, _ := Lookup(name)
				if !info.Supports(inst) {
					continue
				}
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				start := time.Now()
				_, ok, err := program.CheckedDecide(ctx, info.New(), inst)
				cancel()
				t.Logf("%-28s %-5s %4d events %2d threads: %-10s %v %v in %v", filepath.Base(f), c, inst.NumEvents(), len(inst.Threads), name, ok, err, time.Since(start).Round(time.Millisecond))
				// enum-input2 is the inconsistent consistency test: with
				// value-based good writes it has no witness.
				want := !(c == program.GoodWrites && filepath.Base(f) == "enum-input2.vals.txt")
				if err == nil && ok != want {
					t.Errorf("%s: %s says %v, want %v", f, name, ok, want)
				}
			}
		}
	}
}
