package explicit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"mcr/encode"
	"mcr/program"
	"mcr/program/explore"
	"mcr/program/randprog"
	"mcr/program/randprog/randtest"
)

// TestFailedTrylockDeciders checks the deciders that place failed trylocks
// (getwitness, verifysc and their variants, naive, z3) on reads-from instances of executions with one
// (issue 15): the instance of the execution itself, and the same with
// each failed trylock reading another acquire of its lock, against each
// other, Z3 (encode, if built) and, on the smaller ones, against exhaustive search through the
// validator (bruteForce). Every witness passes ValidateWitness
// (CheckedDecide). Deciders that do not place them yet say so
// (ErrUnsupported) and are skipped.
func TestFailedTrylockDeciders(t *testing.T) {
	st := stats{perDecider: map[string]int{}}
	brute, z3, dumped := 0, 0, 0
	o := randprog.TrylockOptions()
	o.Threads = 3 // more sections for a failed trylock to fall in
	randtest.Each(t, "trylock", randtest.Seeds(randtest.Count("TRYLOCK_DECIDERS", 30, 30)), o, func(seed int64, name string, p program.Program) {
		var traces []*program.Trace
		opts := explore.Options{KeepGoing: true, Observe: func(x program.Execution) {
			if tr := x.Trace(); len(traces) < 4 && hasLockFail(tr) {
				traces = append(traces, tr)
			}
		}}
		if _, ok := randtest.DFS(p, 2000, opts); !ok && len(traces) == 0 {
			return
		}
		for _, tr := range traces {
			inst, err := program.InstanceFromTrace(tr, program.ReadsFrom)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, v := range trylockVariants(inst) {
				differential(t, v, &st)
				data, err := program.EncodeInstance(v)
				if err != nil {
					t.Fatal(err)
				}
				if dir := os.Getenv("TRYLOCK_DUMP"); dir != "" { // for mcr crosscheck DIR
					dumped++
					if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("trylock-%d.json", dumped)), data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				back, err := program.DecodeInstance(name, data)
				if err != nil {
					t.Fatalf("%s: the JSON form does not read back: %v\n%s", name, err, data)
				}
				_, a, _ := program.CheckedDecide(context.Background(), Naive{}, v)
				if _, b, err := program.CheckedDecide(context.Background(), Naive{}, back); err != nil || a != b {
					t.Errorf("%s: read back from JSON, naive says %v (%v), before %v\n%s", name, b, err, a, data)
				}
				_, want, _ := program.CheckedDecide(context.Background(), Naive{}, v)
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
					_, want, _ := program.CheckedDecide(context.Background(), Naive{}, v)
					if got := bruteForce(v); got != want {
						t.Errorf("%s: exhaustive search says %v, naive %v\n%s", name, got, want, dump(v))
					}
				}
			}
		}
	})
	t.Logf("%v; z3 on %d; %d checked exhaustively", st, z3, brute)
	if st.realizable == 0 || st.unrealizable == 0 || st.perDecider["getwitness"] == 0 {
		t.Errorf("unbalanced: %v", st)
	}
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
