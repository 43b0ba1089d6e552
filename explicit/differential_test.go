package explicit

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"mcr/program"
)

// bruteForce decides inst by trying every sequence of steps, pruned by the
// validator: the ground truth for naive on tiny instances.
func bruteForce(inst *program.Instance) bool {
	var w program.Witness
	next := make([]int32, len(inst.Threads))
	flushed := map[program.EventID]bool{}
	var rec func() bool
	rec = func() bool {
		err := program.ValidateWitness(inst, w)
		if err == nil {
			return true
		}
		if strings.HasPrefix(err.Error(), "witness step") {
			return false
		}
		for t := range inst.Threads {
			if int(next[t]) < len(inst.Thread(program.ThreadID(t))) {
				w = append(w, program.Step{Event: program.EventID{Thread: program.ThreadID(t), Index: next[t]}})
				next[t]++
				ok := rec()
				next[t]--
				w = w[:len(w)-1]
				if ok {
					return true
				}
			}
			if inst.Model == program.SC {
				continue
			}
			for k, e := range inst.Thread(program.ThreadID(t))[:next[t]] {
				id := program.EventID{Thread: program.ThreadID(t), Index: int32(k)}
				if e.Kind != program.Write || flushed[id] {
					continue
				}
				w = append(w, program.Step{Event: id, Flush: true})
				flushed[id] = true
				ok := rec()
				flushed[id] = false
				w = w[:len(w)-1]
				if ok {
					return true
				}
			}
		}
		return false
	}
	return rec()
}

func dump(inst *program.Instance) string {
	data, err := program.EncodeInstance(inst)
	if err != nil {
		return err.Error()
	}
	return string(data)
}

// TestNaiveAgainstBruteForce checks the baseline itself against exhaustive
// search through the validator.
func TestNaiveAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n := 1500
	if testing.Short() {
		n = 300
	}
	yes := map[program.MemoryModel]int{}
	tried := 0
	for i := range n {
		o := program.RandomOptions{Threads: 1 + rng.IntN(3), Events: 1 + rng.IntN(3), Vars: 1 + rng.IntN(2), Locks: rng.IntN(2),
			Model: program.Models[i%3], Constraint: program.Constraints[i/3%2], Perturb: 0.5}
		inst, _ := program.RandomInstance(rng, o)
		if inst.NumEvents() > 8 {
			continue
		}
		tried++
		w, ok, err := program.CheckedDecide(context.Background(), Naive{}, inst)
		if err != nil {
			t.Fatalf("%v\n%s", err, dump(inst))
		}
		if bf := bruteForce(inst); bf != ok {
			t.Fatalf("naive says %v, brute force %v (witness %v)\n%s", ok, bf, w, dump(inst))
		}
		if ok {
			yes[inst.Model]++
		}
	}
	t.Logf("realizable per model: %v of %d", yes, tried)
}

// stats counts the outcomes of a differential run.
type stats struct {
	instances, realizable, unrealizable, disagreements int
	perDecider                                         map[string]int
}

func (s stats) String() string {
	return fmt.Sprintf("%d instances: %d realizable, %d unrealizable, %d disagreements; decided per decider %v",
		s.instances, s.realizable, s.unrealizable, s.disagreements, s.perDecider)
}

// variants returns the registry plus the ablation variants of the deciders
// with switches, so that every code path meets the baseline.
func variants() []Info {
	out := Deciders()
	for _, i := range out {
		switch i.Name {
		case "verifysc":
			for name, d := range map[string]*VerifySC{"nogreedy": {NoGreedy: true}, "noclosure": {NoClosure: true},
				"noguide": {NoGuide: true}, "plain": {NoGreedy: true, NoClosure: true, NoGuide: true}} {
				i.Name = "verifysc-" + name
				i.New = func() program.Decider { return d }
				out = append(out, i)
			}
		case "verifytso":
			i.Name, i.Constraints = "verifytso-noclosure", onlyRF // good writes: no closure (verifyrelaxed_good.go)
			i.New = func() program.Decider { return &VerifyTSO{NoClosure: true} }
			out = append(out, i)
		case "verifypso":
			i.Name, i.Constraints = "verifypso-noclosure", onlyRF
			i.New = func() program.Decider { return &VerifyPSO{NoClosure: true} }
			out = append(out, i)
		case "getwitness":
			i.Name = "getwitness-P-III"
			i.New = func() program.Decider { return &GetWitness{NoConstruct: true} }
			out = append(out, i)
		}
	}
	return out
}

// shapes are the random instance shapes of the differential test: many
// small instances, and fewer medium ones with few locations and values, so
// that writes compete.
var shapes = []struct {
	name string
	n    int
	opts func(rng *rand.Rand, i int) program.RandomOptions
}{
	{"small", 2000, func(rng *rand.Rand, i int) program.RandomOptions {
		return program.RandomOptions{Threads: 2 + i%3, Events: 2 + i%7, Vars: 1 + i%3, Locks: i % 3, Perturb: 0.5}
	}},
	{"medium", 1000, func(rng *rand.Rand, i int) program.RandomOptions {
		return program.RandomOptions{Threads: 2 + rng.IntN(3), Events: 3 + rng.IntN(10), Vars: 1 + rng.IntN(2), Locks: rng.IntN(2),
			Values: 1 + rng.IntN(3), Perturb: 0.5, NoRMW: rng.IntN(3) == 0}
	}},
}

// TestDifferential runs every decider (and ablation variant) on random
// instances of every model and constraint kind and compares with
// NaiveVerify; every witness passes the validator (CheckedDecide).
func TestDifferential(t *testing.T) {
	for _, shape := range shapes {
		for _, m := range program.Models {
			for _, c := range program.Constraints {
				t.Run(fmt.Sprintf("%s-%s-%s", shape.name, m, c), func(t *testing.T) {
					n := shape.n
					if shape.name == "medium" && m != program.SC {
						// naive's TSO/PSO search is most of the package's
						// time: 600 of each (1,000 ran clean)
						n = 600
					}
					if testing.Short() {
						n /= 10
					}
					rng := rand.New(rand.NewPCG(uint64(m)+11, uint64(c)+13+uint64(len(shape.name))))
					st := stats{perDecider: map[string]int{}}
					for i := range n {
						o := shape.opts(rng, i)
						o.Model, o.Constraint = m, c
						inst, _ := program.RandomInstance(rng, o)
						differential(t, inst, &st)
					}
					t.Log(st)
					if st.realizable < n/5 || st.unrealizable < n/5 {
						t.Errorf("unbalanced: %v", st)
					}
				})
			}
		}
	}
}

// differential decides inst with naive and every other decider that
// supports it, and records the outcome in st.
func differential(t *testing.T, inst *program.Instance, st *stats) {
	t.Helper()
	st.instances++
	_, want, err := program.CheckedDecide(context.Background(), Naive{}, inst)
	if err != nil {
		t.Fatalf("naive: %v\n%s", err, dump(inst))
	}
	if want {
		st.realizable++
	} else {
		st.unrealizable++
	}
	for _, info := range variants() {
		if info.Name == "naive" || !info.Supports(inst) {
			continue
		}
		_, got, err := program.CheckedDecide(context.Background(), info.New(), inst)
		if errors.Is(err, program.ErrUnsupported) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v\n%s", info.Name, err, dump(inst))
		}
		st.perDecider[info.Name]++
		if got != want {
			st.disagreements++
			t.Errorf("%s says %v, naive %v\n%s", info.Name, got, want, dump(inst))
			if st.disagreements > 3 {
				t.FailNow()
			}
		}
	}
}

// TestVerifySCStateBudget checks VerifySC.MaxStates, the budget of
// --decider auto: a bounded query either answers as the unbounded one
// does or gives up with ErrStates, which program.Fallback passes on
// (it wraps program.ErrUnknown); and some queries do give up.
func TestVerifySCStateBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	gaveUp, answered := 0, 0
	for range 400 {
		o := program.RandomOptions{Threads: 2 + rng.IntN(3), Events: 2 + rng.IntN(4), Vars: 1 + rng.IntN(2), Locks: rng.IntN(2),
			Model: program.SC, Constraint: program.Constraints[rng.IntN(2)], Perturb: 0.3}
		inst, _ := program.RandomInstance(rng, o)
		_, want, err := program.CheckedDecide(context.Background(), &VerifySC{}, inst)
		if err != nil {
			t.Fatal(err)
		}
		_, got, err := program.CheckedDecide(context.Background(), &VerifySC{MaxStates: 4}, inst)
		switch {
		case err != nil && (!errors.Is(err, ErrStates) || !errors.Is(err, program.ErrUnknown)):
			t.Fatalf("bounded: %v", err)
		case err != nil:
			gaveUp++
			f := program.Fallback[*program.Instance, program.InstanceAnswer]{A: &VerifySC{MaxStates: 4}, B: &VerifySC{}}
			if ans, err := f.Decide(context.Background(), inst); err != nil || ans.Sat != want {
				t.Fatalf("fallback: %v %v, want %v\n%s", ans.Sat, err, want, dump(inst))
			}
		case got != want:
			t.Fatalf("bounded says %v, unbounded %v\n%s", got, want, dump(inst))
		default:
			answered++
		}
	}
	if gaveUp == 0 || answered == 0 {
		t.Errorf("%d gave up, %d answered: the budget is never or always hit", gaveUp, answered)
	}
}
