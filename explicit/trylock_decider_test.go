package explicit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcr/encode"
	"mcr/program"
	"mcr/program/explore"
	"mcr/program/randprog"
	"mcr/program/randprog/randtest"
)

// TestFailedTrylockDeciders checks the deciders that place failed trylocks
// (getwitness, verifysc, verifytso, verifypso and their variants, naive,
// z3) on reads-from instances of executions with one (issue 15; under TSO
// and PSO issue 19), per memory model: the instance of the execution
// itself, the same with each failed trylock reading another acquire of its
// lock, and under TSO/PSO the good-writes instance of the execution
// (verifyrelaxed_good.go), against each other, Z3 (encode, if built) and,
// on the smaller ones, against exhaustive search through the validator
// (bruteForce). Every witness passes ValidateWitness (CheckedDecide).
// Deciders that do not place them say so (ErrUnsupported) and are
// skipped.
func TestFailedTrylockDeciders(t *testing.T) {
	o := randprog.TrylockOptions()
	o.Threads = 3 // more sections for a failed trylock to fall in
	seeds := randtest.Seeds(randtest.Count("TRYLOCK_DECIDERS", 30, 30))
	dumped := 0
	for _, m := range program.Models {
		t.Run(m.String(), func(t *testing.T) {
			st := stats{perDecider: map[string]int{}}
			brute, z3 := 0, 0
			for _, seed := range seeds {
				src := randprog.Generate(seed, o)
				name := fmt.Sprintf("trylock%d.c", seed)
				var traces []*program.Trace
				opts := explore.Options{KeepGoing: true, Observe: func(x program.Execution) {
					if tr := x.Trace(); len(traces) < 4 && hasLockFail(tr) {
						traces = append(traces, tr)
					}
				}}
				if _, ok := randtest.DFS(randtest.LoadModel(t, name, src, nil, m), 2000, opts); !ok && len(traces) == 0 {
					continue
				}
				before := t.Failed()
				for _, tr := range traces {
					for _, v := range trylockInstances(t, name, tr) {
						differential(t, v, &st)
						data, err := program.EncodeInstance(v)
						if err != nil {
							t.Fatal(err)
						}
						if dir := os.Getenv("TRYLOCK_DUMP"); dir != "" { // for mcr crosscheck DIR
							dumped++
							if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("trylock-%s-%d.json", m, dumped)), data, 0o644); err != nil {
								t.Fatal(err)
							}
						}
						back, err := program.DecodeInstance(name, data)
						if err != nil {
							t.Fatalf("%s: the JSON form does not read back: %v\n%s", name, err, data)
						}
						_, want, _ := program.CheckedDecide(context.Background(), Naive{}, v)
						if _, b, err := program.CheckedDecide(context.Background(), Naive{}, back); err != nil || want != b {
							t.Errorf("%s: read back from JSON, naive says %v (%v), before %v\n%s", name, b, err, want, data)
						}
						_, got, err := program.CheckedDecide(context.Background(), &encode.Z3Decider{}, v)
						if err == nil {
							z3++
						} else if !errors.Is(err, program.ErrUnknown) {
							t.Fatalf("%s: z3: %v\n%s", name, err, dump(v))
						}
						if err == nil && got != want {
							t.Errorf("%s: z3 says %v, naive %v\n%s", name, got, want, dump(v))
						}
						if len(v.Events) <= 24 {
							brute++
							if got := bruteForce(v); got != want {
								t.Errorf("%s: exhaustive search says %v, naive %v\n%s", name, got, want, dump(v))
							}
						}
					}
				}
				if !before && t.Failed() {
					t.Logf("%s:\n%s", name, src)
					return
				}
			}
			t.Logf("%v; z3 on %d; %d checked exhaustively", st, z3, brute)
			want := "getwitness"
			if m != program.SC {
				want = "verify" + strings.ToLower(m.String())
			}
			if st.realizable == 0 || st.unrealizable == 0 || st.perDecider[want] == 0 {
				t.Errorf("unbalanced: %v", st)
			}
		})
	}
}

// trylockInstances returns the instances TestFailedTrylockDeciders
// decides for trace tr: trylockVariants of its reads-from instance, and
// under TSO/PSO its good-writes instance.
func trylockInstances(t *testing.T, name string, tr *program.Trace) []*program.Instance {
	inst, err := program.InstanceFromTrace(tr, program.ReadsFrom)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out := trylockVariants(inst)
	if tr.Model != program.SC {
		good, err := program.InstanceFromTrace(tr, program.GoodWrites)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, good)
	}
	return out
}

func hasLockFail(tr *program.Trace) bool {
	for i := range tr.Events {
		if tr.Events[i].Kind == program.LockFail {
			return true
		}
	}
	return false
}

// trylockVariants returns inst and, for each failed trylock, copies in
// which it reads each other acquire of its lock instead.
func trylockVariants(inst *program.Instance) []*program.Instance {
	out := []*program.Instance{inst}
	for i := range inst.Events {
		f := &inst.Events[i]
		if f.Kind != program.LockFail {
			continue
		}
		for a := range inst.Events {
			e := &inst.Events[a]
			if e.Kind != program.Acquire || e.Loc != f.Loc || inst.Sources[i][0] == int32(a) {
				continue
			}
			v := *inst
			v.Sources = make([][]int32, len(inst.Sources))
			copy(v.Sources, inst.Sources)
			v.Sources[i] = []int32{int32(a)}
			v.Guide = nil
			out = append(out, &v)
		}
	}
	return out
}
