package mcr

// This file declares the registry entries of the MCR explorers (see
// explore.Algorithm; collected by package mcr/registry) and builds their
// deciders from the --decider value.

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"

	"mcr/encode"
	"mcr/explicit"
	"mcr/program"
	"mcr/program/explore"
)

// Backend is one --decider value of the MCR explorers.
type Backend struct {
	Name string
	Doc  string
	Z3   bool // needs a build with Z3
}

// Backends lists the --decider values of mcr and mcr-seeds.
var Backends = []Backend{
	{"explicit", "VerifySC and its search with optional events (seed 000 Algorithm 1)", false},
	{"z3", "Z3 over order variables; the explicit deciders answer when it gives up (fallback_answers)", true},
	{"both", "every query asked to Z3 and to the explicit deciders, answers compared and witnesses checked", true},
	{"auto", fmt.Sprintf("the explicit deciders up to %d search states a query (witness and race queries), then Z3 (counted as z3_handoffs; without Z3 the explicit search goes on); the --decider default", AutoStates), false},
}

// AutoStates is the state budget of an explicit witness query under
// --decider auto before Z3 takes it over. VerifySC is polynomial for a
// fixed number of threads but exponential in it: on SV-COMP's indexer.c
// (13 threads) one query ran for minutes where Z3 answers in
// milliseconds. Executions of indexer.c in 60 s (loaded machine):
// explicit 1, z3 1,945, auto with budget 20,000: 764, 2,000: 2,139, 500:
// 2,391; no query of the testdata programs needs 2,000 states, so there
// auto is the explicit deciders.
const AutoStates = 2000

func backendNames() []string {
	var out []string
	for _, b := range Backends {
		out = append(out, b.Name)
	}
	return out
}

var scOnly = []program.MemoryModel{program.SC}

// MCR is the default explorer's registry entry (`--algo mcr`): Explore.
var MCR = explore.Algorithm{
	Name:           "mcr",
	Doc:            "Maximal Causality Reduction in RVF-SMC's order: at most one execution per class",
	Source:         "seed 001 with seed 000 Algorithm 2's order; under TSO and PSO seed 004 Algorithm 3's search (relaxed.go)",
	Models:         program.Models,
	Deciders:       backendNames(),
	DumpsInstances: true,
	Run:            runMCR,
}

// Seeds is the published MCR's registry entry (`--algo mcr-seeds`):
// ExploreSeeds.
var Seeds = explore.Algorithm{
	Name:           "mcr-seeds",
	Doc:            "MCR as published: a seed per read and new value, level by level; can repeat classes",
	Source:         "seed 001, Algorithms 1-3",
	Models:         scOnly,
	Deciders:       backendNames(),
	DumpsInstances: true,
	Run:            runSeeds,
}

// newSeeder returns the seed decider --decider names: Z3, the explicit
// search, or both compared into cs.
func newSeeder(cfg explore.Config, cs *program.CrossStats) (program.SeedDecider, error) {
	switch cfg.Decider {
	case "z3":
		return encode.NewZ3Seeder(cfg.QueryTimeout)
	case "both":
		z, err := encode.NewZ3Seeder(cfg.QueryTimeout)
		if err != nil {
			return nil, err
		}
		return program.Cross[program.SeedQuery, program.SeedAnswer]{Kind: program.SeedKind, A: z, B: explicit.Seeder{}, CrossStats: cs}, nil
	}
	return explicit.Seeder{}, nil
}

// runMCR runs Explore with the deciders cfg.Decider names: explicit
// (VerifySC and the explicit seed search), z3 (Z3, the explicit ones
// answering when it gives up) or both (compared).
func runMCR(ctx context.Context, p program.Program, opts explore.Options, cfg explore.Config) *explore.Result {
	if cfg.Model != program.SC {
		return runMCRRelaxed(ctx, p, opts, cfg)
	}
	var fellBack, handoffs atomic.Int64
	cs := &program.CrossStats{}
	o := Options{Options: opts, Workers: cfg.Workers} // explicit: VerifySC and explicit.Seeder
	z := &encode.Z3Decider{Timeout: cfg.QueryTimeout}
	defer z.Close()
	switch cfg.Decider {
	case "z3":
		o.Decider = program.Fallback[*program.Instance, program.InstanceAnswer]{A: z, B: &explicit.VerifySC{}, Used: &fellBack}
		o.NewRaceDecider = func() (program.SeedDecider, error) {
			z, err := newSeeder(cfg, cs)
			if err != nil { // Z3 not built: the seed queries count the fallbacks
				return explicit.Seeder{}, nil
			}
			return program.Fallback[program.SeedQuery, program.SeedAnswer]{A: z, B: explicit.Seeder{}, Used: &fellBack}, nil
		}
	case "both":
		o.Decider = program.Cross[*program.Instance, program.InstanceAnswer]{Kind: program.InstanceKind, A: z, B: &explicit.VerifySC{}, CrossStats: cs}
		o.NewRaceDecider = func() (program.SeedDecider, error) { return newSeeder(cfg, cs) }
	case "auto":
		// A query past the budget goes to Z3; if Z3 gives up (or is not
		// built) the explicit search answers it without a budget.
		z3OrExplicit := program.Fallback[*program.Instance, program.InstanceAnswer]{A: z, B: &explicit.VerifySC{}, Used: &fellBack}
		o.Decider = program.Fallback[*program.Instance, program.InstanceAnswer]{A: &explicit.VerifySC{MaxStates: AutoStates}, B: z3OrExplicit, Used: &handoffs}
		// The race queries of the leaves likewise: the explicit seed
		// search within the budget, then Z3, then the explicit search
		// without one (a long leaf's race query alone took seconds).
		o.NewRaceDecider = func() (program.SeedDecider, error) {
			var rest program.SeedDecider = explicit.Seeder{}
			if z, err := encode.NewZ3Seeder(cfg.QueryTimeout); err == nil {
				rest = program.Fallback[program.SeedQuery, program.SeedAnswer]{A: z, B: explicit.Seeder{}, Used: &fellBack}
			}
			return program.Fallback[program.SeedQuery, program.SeedAnswer]{A: explicit.Seeder{MaxStates: AutoStates}, B: rest, Used: &handoffs}, nil
		}
	}
	d := newDumper(cfg.DumpDir)
	if d != nil {
		o.OnWitness = func(inst *program.Instance, _ program.Witness) { d.dump(inst, nil) }
	}
	res := finishRun(Explore(ctx, p, o), cfg, d, cs)
	if n := fellBack.Load(); n > 0 {
		res.Stats.Extra["fallback_answers"] = float64(n)
	}
	if n := handoffs.Load(); n > 0 {
		res.Stats.Extra["z3_handoffs"] = float64(n)
	}
	return res
}

// runSeeds runs ExploreSeeds, asking seed queries of the decider
// cfg.Decider names (z3: with the explicit search as fallback).
func runSeeds(ctx context.Context, p program.Program, opts explore.Options, cfg explore.Config) *explore.Result {
	cs := &program.CrossStats{}
	o := SeedOptions{Options: opts, Workers: cfg.Workers, NewDecider: func() (program.SeedDecider, error) { return newSeeder(cfg, cs) }}
	if cfg.Decider == "z3" || cfg.Decider == "both" {
		// Z3 unknown, timeout or absence: the explicit search answers
		o.NewFallback = func() (program.SeedDecider, error) { return explicit.Seeder{}, nil }
	}
	d := newDumper(cfg.DumpDir)
	if d != nil {
		o.OnAnswer = func(q program.SeedQuery, a program.SeedAnswer) {
			inst, err := program.SeedInstance(q, a)
			d.dump(inst, err)
		}
	}
	return finishRun(ExploreSeeds(ctx, p, o), cfg, d, cs)
}

// dumper writes --dump-instances files, numbered in the order the
// explorer reports them (deterministic).
type dumper struct {
	dir         string
	mu          sync.Mutex
	dumped, bad int
}

func newDumper(dir string) *dumper {
	if dir == "" {
		return nil
	}
	return &dumper{dir: dir}
}

func (d *dumper) dump(inst *program.Instance, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err == nil {
		d.dumped++
		inst.Name = fmt.Sprintf("seed-%05d", d.dumped)
		err = program.WriteInstanceFile(filepath.Join(d.dir, inst.Name+".json"), inst)
	}
	if err != nil {
		d.bad++
	}
}

// finishRun adds the counters of --dump-instances and --decider both to
// res; a disagreement between the deciders makes the result incomplete.
func finishRun(res *explore.Result, cfg explore.Config, d *dumper, cs *program.CrossStats) *explore.Result {
	if res.Stats.Extra == nil {
		res.Stats.Extra = map[string]float64{}
	}
	if d != nil {
		res.Stats.Extra["instances_dumped"] = float64(d.dumped)
		res.Stats.Extra["instances_not_dumped"] = float64(d.bad)
	}
	if cfg.Decider == "both" {
		res.Stats.Extra["crosscheck_queries"] = float64(cs.Queries)
		res.Stats.Extra["crosscheck_disagreements"] = float64(cs.Disagreements)
		res.Stats.Extra["crosscheck_invalid"] = float64(cs.Invalid)
		if cs.First != "" {
			res.Stats.Stopped = "deciders disagree: " + cs.First
			res.Stats.Complete = false
		}
	}
	return res
}
