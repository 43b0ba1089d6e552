package explicit

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"mcr/program"
)

// TestCancel checks that deciders stop on a cancelled context with an
// error instead of running on.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, info := range Deciders() {
		rng := rand.New(rand.NewPCG(1, 1))
		stopped := 0
		for range 10 {
			o := program.RandomOptions{Threads: 6, Events: 64, Vars: 4, Locks: 1, Values: 4, NoCut: true, NoForks: true,
				Model: info.Models[0], Constraint: info.Constraints[len(info.Constraints)-1], Perturb: 1}
			inst, _ := program.RandomInstance(rng, o)
			inst.Guide = nil
			start := time.Now()
			_, err := info.New().Decide(ctx, inst)
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Fatalf("%s: %v", info.Name, err)
			}
			if err != nil {
				stopped++
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("%s took %v after cancellation", info.Name, d)
			}
		}
		t.Logf("%s: stopped on %d of 10 large instances (the others were decided within 4096 states)", info.Name, stopped)
		if info.Name == "naive" && stopped == 0 {
			t.Errorf("naive never noticed the cancellation")
		}
	}
}

// FuzzDeciders decodes an instance and runs every decider on it: none may
// panic, all must agree with naive, and every witness must be valid.
func FuzzDeciders(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(instanceDir, "*.json"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		inst, err := program.DecodeInstance("fuzz.json", data)
		if err != nil || inst.NumEvents() > 14 || len(inst.Threads) > 4 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		for _, m := range program.Models {
			inst.Model = m
			_, want, err := program.CheckedDecide(ctx, Naive{}, inst)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				t.Fatalf("naive: %v", err)
			}
			for _, info := range variants() {
				if !info.Supports(inst) {
					continue
				}
				_, got, err := program.CheckedDecide(ctx, info.New(), inst)
				if err != nil {
					if ctx.Err() != nil {
						return
					}
					t.Fatalf("%s: %v", info.Name, err)
				}
				if got != want {
					t.Fatalf("%s under %s says %v, naive %v\n%s", info.Name, m, got, want, dump(inst))
				}
			}
		}
	})
}
