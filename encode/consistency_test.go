package encode_test

// The differential tests of Z3Decider live in an external test package so
// that they may use package explicit (the production packages encode and
// explicit never import each other; DESIGN.md).

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mcr/encode"
	"mcr/encode/z3"
	"mcr/explicit"
	"mcr/program"
)

func needZ3(t testing.TB) {
	t.Helper()
	if !z3.Available() {
		t.Skip("built without Z3")
	}
}

func dump(inst *program.Instance) string {
	data, err := program.EncodeInstance(inst)
	if err != nil {
		return err.Error()
	}
	return string(data)
}

// decide runs d through CheckedDecide, so that every witness is validated.
func decide(t *testing.T, d program.Decider, inst *program.Instance) bool {
	t.Helper()
	_, ok, err := program.CheckedDecide(context.Background(), d, inst)
	if err != nil {
		t.Fatalf("%s: %v\n%s", d.Name(), err, dump(inst))
	}
	return ok
}

// TestZ3InstanceFiles checks the verdicts stated in the instance files
// under every model they state one for.
func TestZ3InstanceFiles(t *testing.T) {
	needZ3(t)
	files, err := filepath.Glob("../testdata/instances/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no instance files: %v", err)
	}
	for _, f := range files {
		inst, err := program.ReadInstanceFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for m, want := range inst.Expect {
			in := inst.Clone()
			in.Model = m
			if got := decide(t, &encode.Z3Decider{}, in); got != want {
				t.Errorf("%s under %s: z3 says %v, want %v", f, m, got, want)
			}
		}
	}
}

// oracles returns the explicit deciders that decide inst: naive always,
// and the polynomial ones of the explicit registry where they apply.
func oracles(inst *program.Instance) []program.Decider {
	var out []program.Decider
	for _, info := range explicit.Deciders() {
		if info.Supports(inst) {
			out = append(out, info.New())
		}
	}
	return out
}

// TestZ3Differential compares Z3Decider with every explicit decider on
// random instances of every model and constraint kind; every witness
// passes the validator. It fails unless both verdicts occur often.
func TestZ3Differential(t *testing.T) {
	needZ3(t)
	n := 300
	if testing.Short() {
		n = 60
	}
	for _, m := range program.Models {
		for _, c := range program.Constraints {
			t.Run(fmt.Sprintf("%s-%s", m, c), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(m)+101, uint64(c)+7))
				// One decider for all: its Z3 sessions are reused (pushed
				// and popped scopes), so no query may see another's.
				z, noProp := &encode.Z3Decider{}, &encode.Z3Decider{NoPropagate: true}
				defer z.Close()
				defer noProp.Close()
				yes := 0
				for i := range n {
					o := program.RandomOptions{Threads: 2 + rng.IntN(3), Events: 2 + rng.IntN(7), Vars: 1 + rng.IntN(3),
						Locks: rng.IntN(2), Values: 1 + rng.IntN(3), Model: m, Constraint: c, Perturb: 0.6,
						NoRMW: i%5 == 0, NoFences: i%7 == 0}
					inst, _ := program.RandomInstance(rng, o)
					got := decide(t, z, inst)
					for _, d := range append(oracles(inst), noProp) {
						if want := decide(t, d, inst); got != want {
							t.Fatalf("instance %d: z3 says %v, %s says %v\n%s", i, got, d.Name(), want, dump(inst))
						}
					}
					if got {
						yes++
					}
				}
				t.Logf("%d instances: %d realizable, %d unrealizable", n, yes, n-yes)
				if yes < n/5 || n-yes < n/5 {
					t.Errorf("unbalanced: %d of %d realizable", yes, n)
				}
			})
		}
	}
}

// TestZ3Errors checks cancellation, timeouts and malformed instances.
func TestZ3Errors(t *testing.T) {
	needZ3(t)
	rng := rand.New(rand.NewPCG(3, 4))
	inst, _ := program.RandomInstance(rng, program.RandomOptions{Threads: 4, Events: 20, Vars: 2, Model: program.TSO, NoCut: true})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := (&encode.Z3Decider{}).Decide(ctx, inst)
	if !errors.Is(err, program.ErrUnknown) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v, want ErrUnknown and context.Canceled", err)
	}
	bad := inst.Clone()
	bad.Start[1]++ // Start no longer agrees with the events
	if _, err := (&encode.Z3Decider{}).Decide(context.Background(), bad); err == nil {
		t.Errorf("malformed instance accepted")
	}
	_, err = (&encode.Z3Decider{Timeout: time.Nanosecond}).Decide(context.Background(), inst)
	if err != nil && !errors.Is(err, program.ErrUnknown) {
		t.Errorf("timeout: got %v, want nil or ErrUnknown", err)
	}
}

// TestZ3NotBuilt checks the answer of a build without Z3 (go test -tags
// noz3).
func TestZ3NotBuilt(t *testing.T) {
	if z3.Available() {
		t.Skip("built with Z3")
	}
	inst, _ := program.RandomInstance(rand.New(rand.NewPCG(1, 2)), program.RandomOptions{Threads: 2, Events: 3})
	if _, err := (&encode.Z3Decider{}).Decide(context.Background(), inst); !errors.Is(err, z3.ErrNotBuilt) || !errors.Is(err, program.ErrUnknown) {
		t.Errorf("got %v, want z3.ErrNotBuilt, also a program.ErrUnknown", err)
	}
}

// BenchmarkZ3Consistency decides 20 random instances per op (half of them
// perturbed) for each problem at a few sizes; compare with
// explicit.BenchmarkDeciders, which uses the same shapes.
func BenchmarkZ3Consistency(b *testing.B) {
	needZ3(b)
	sizes := []struct {
		name string
		o    program.RandomOptions
	}{
		{"k3n8", program.RandomOptions{Threads: 3, Events: 8, Vars: 2, Locks: 1, Values: 2}},
		{"k4n16", program.RandomOptions{Threads: 4, Events: 16, Vars: 3, Locks: 1, Values: 3}},
		{"k4n32", program.RandomOptions{Threads: 4, Events: 32, Vars: 4, Locks: 2, Values: 4}},
		{"k6n64", program.RandomOptions{Threads: 6, Events: 64, Vars: 4, Locks: 2, Values: 4}},
	}
	problems := []struct {
		name string
		m    program.MemoryModel
		c    program.Constraint
	}{
		{"sc-good", program.SC, program.GoodWrites},
		{"sc-rf", program.SC, program.ReadsFrom},
		{"tso-rf", program.TSO, program.ReadsFrom},
		{"pso-rf", program.PSO, program.ReadsFrom},
	}
	for _, p := range problems {
		for _, size := range sizes {
			rng := rand.New(rand.NewPCG(42, uint64(size.o.Threads*100+size.o.Events)))
			var insts []*program.Instance
			for range 20 {
				o := size.o
				o.Model, o.Constraint, o.Perturb, o.NoForks, o.NoCut = p.m, p.c, 0.5, true, true
				inst, _ := program.RandomInstance(rng, o)
				insts = append(insts, inst)
			}
			b.Run(p.name+"/"+size.name, func(b *testing.B) {
				d := &encode.Z3Decider{}
				yes := 0
				for b.Loop() {
					yes = 0
					for _, inst := range insts {
						a, err := d.Decide(context.Background(), inst)
						if err != nil {
							b.Fatal(err)
						}
						if a.Sat {
							yes++
						}
					}
				}
				b.ReportMetric(float64(yes), "realizable/20")
			})
		}
	}
}

// chainInstance is n rounds of a ping-pong: A writes x, B reads it and
// writes y, A reads that (4n events, every read with one source), a
// reads-from instance whose rules have about n^2 atoms.
func chainInstance(t *testing.T, n int) *program.Instance {
	t.Helper()
	var a, b []string
	for i := range n {
		a = append(a, fmt.Sprintf(`{"kind":"write","loc":"x","value":%d}`, i+1), fmt.Sprintf(`{"kind":"read","loc":"y","rf":"B:%d"}`, 2*i+1))
		b = append(b, fmt.Sprintf(`{"kind":"read","loc":"x","rf":"A:%d"}`, 2*i), fmt.Sprintf(`{"kind":"write","loc":"y","value":%d}`, i+1))
	}
	src := fmt.Sprintf(`{"mm":"sc","constraint":"rf","threads":[{"name":"A","events":[%s]},{"name":"B","events":[%s]}]}`,
		strings.Join(a, ","), strings.Join(b, ","))
	inst, err := program.DecodeInstance("chain", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// TestZ3LongInstanceBounded: building the formula of a long instance is
// bounded too, not only Z3's search (issue 13: a 20,000-event chain took
// 6 GB and a minute under --timeout 5s). A formula over MaxAtoms is given
// up as unknown, the decider's timeout bounds the building too, and
// with propagation the chain's sole sources order the skeleton so that
// its formula is empty.
func TestZ3LongInstanceBounded(t *testing.T) {
	needZ3(t)
	inst := chainInstance(t, 500)
	big := &encode.Z3Decider{NoPropagate: true, MaxAtoms: 10_000}
	if _, err := big.Decide(context.Background(), inst); !errors.Is(err, program.ErrUnknown) || !strings.Contains(err.Error(), "atoms") {
		t.Errorf("over MaxAtoms: %v, want an unknown answer naming the atoms", err)
	}
	// The deadline passes while the formula is built (or, on a machine
	// fast enough to build it in a millisecond, before Z3 is asked).
	late := &encode.Z3Decider{NoPropagate: true, Timeout: time.Millisecond}
	if _, err := late.Decide(context.Background(), inst); !errors.Is(err, program.ErrUnknown) {
		t.Errorf("deadline while building: %v, want unknown", err)
	}
	st := &encode.Z3Stats{}
	d := &encode.Z3Decider{MaxAtoms: 10_000, Stats: st}
	if !decide(t, d, inst) {
		t.Error("the chain is realizable")
	}
	if st.Solved.Load() != 0 {
		t.Errorf("%d formulas went to Z3; the sole sources decide every atom", st.Solved.Load())
	}
}
