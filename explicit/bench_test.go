package explicit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"mcr/program"
	"mcr/program/tracefile"
)

// benchSizes are the random instance shapes of the benchmarks.
var benchSizes = []struct {
	name string
	o    program.RandomOptions
}{
	{"k3n8", program.RandomOptions{Threads: 3, Events: 8, Vars: 2, Locks: 1, Values: 2}},
	{"k4n16", program.RandomOptions{Threads: 4, Events: 16, Vars: 3, Locks: 1, Values: 3}},
	{"k4n32", program.RandomOptions{Threads: 4, Events: 32, Vars: 4, Locks: 2, Values: 4}},
	{"k6n64", program.RandomOptions{Threads: 6, Events: 64, Vars: 4, Locks: 2, Values: 4}},
}

// benchInstances returns 20 random instances of shape o for decider info
// (half perturbed), the same for every run.
func benchInstances(o program.RandomOptions, info Info) []*program.Instance {
	rng := rand.New(rand.NewPCG(42, uint64(o.Threads*100+o.Events)))
	var out []*program.Instance
	for len(out) < 20 {
		o.Model, o.Constraint = info.Models[rng.IntN(len(info.Models))], info.Constraints[rng.IntN(len(info.Constraints))]
		o.Perturb = 0.5
		o.NoForks, o.NoCut = true, true
		inst, _ := program.RandomInstance(rng, o)
		inst.Guide = nil
		out = append(out, inst)
	}
	return out
}

// BenchmarkDeciders runs every decider on random instances of a few sizes;
// one op decides 20 instances. Naive only runs on the smallest size.
func BenchmarkDeciders(b *testing.B) {
	for _, size := range benchSizes {
		for _, info := range Deciders() {
			if info.Name == "naive" && size.o.Events > 8 {
				continue
			}
			insts := benchInstances(size.o, info)
			b.Run(fmt.Sprintf("%s/%s", info.Name, size.name), func(b *testing.B) {
				d := info.New()
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

// BenchmarkVerifySCAblation measures the Section 4.2 heuristics of seed 000
// on good-writes instances (the paper's Fig. 11 ablation, in miniature).
func BenchmarkVerifySCAblation(b *testing.B) {
	info, _ := Lookup("verifysc")
	info.Constraints = []program.Constraint{program.GoodWrites}
	insts := benchInstances(benchSizes[1].o, info)
	for _, c := range []struct {
		name string
		d    *VerifySC
	}{{"all", &VerifySC{}}, {"nogreedy", &VerifySC{NoGreedy: true}}, {"noclosure", &VerifySC{NoClosure: true}}, {"none", &VerifySC{NoGreedy: true, NoClosure: true, NoGuide: true}}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for _, inst := range insts {
					if _, err := c.d.Decide(context.Background(), inst); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkSeedSearch answers every seed query (read, other value) of
// random SC traces.
func BenchmarkSeedSearch(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	var traces []*program.Trace
	for len(traces) < 10 {
		traces = append(traces, randomTrace(rng, program.RandomOptions{Threads: 3, Events: 12, Vars: 2, Locks: 1, Values: 3, Model: program.SC, Constraint: program.GoodWrites, NoForks: true}))
	}
	for b.Loop() {
		for _, tr := range traces {
			for r, e := range tr.Events {
				if e.Kind != program.Read {
					continue
				}
				for v := range int64(3) {
					if _, _, err := SeedSearch(context.Background(), tr, r, v); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	}
}

// BenchmarkRecorded decides the instances of the recorded Java traces of
// shared/data (VerifySC on value-based good writes, GetWitness on the
// traces' reads-from) and answers seed queries on them (each of the first
// 50 reads with the value of another write to its location).
func BenchmarkRecorded(b *testing.B) {
	for _, f := range recorded(b) {
		tr, _, err := tracefile.ReadAll(f, tracefile.Options{})
		if err != nil || len(tr.Events) < 100 {
			continue
		}
		name := filepath.Base(f)
		for _, c := range []struct {
			decider string
			kind    program.Constraint
		}{{"verifysc", program.GoodWrites}, {"getwitness", program.ReadsFrom}} {
			inst, err := program.InstanceFromTrace(tr, c.kind)
			if err != nil {
				continue
			}
			info, _ := Lookup(c.decider)
			b.Run(fmt.Sprintf("%s/%s", c.decider, name), func(b *testing.B) {
				for b.Loop() {
					if a, err := info.New().Decide(context.Background(), inst); err != nil || !a.Sat {
						b.Fatal(a.Sat, err)
					}
				}
			})
		}
		var queries [][2]int64
		for r, e := range tr.Events {
			if e.Kind != program.Read || len(queries) == 50 {
				continue
			}
			for _, w := range tr.Events {
				if w.Kind == program.Write && w.Loc == e.Loc && w.Value != e.Value {
					queries = append(queries, [2]int64{int64(r), w.Value})
					break
				}
			}
		}
		b.Run("seed/"+name, func(b *testing.B) {
			for b.Loop() {
				for _, q := range queries {
					if _, _, err := SeedSearch(context.Background(), tr, int(q[0]), q[1]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
