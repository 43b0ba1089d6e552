package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mcr/encode"
	"mcr/explicit"
	"mcr/mcr"
	"mcr/program"
	"mcr/program/explore"
)

// runConfig carries the flags that explorers other than dfs use.
type runConfig struct {
	workers      int
	decider      string
	queryTimeout time.Duration
	cross        *mcr.CrossStats // counters of --decider both
	dumpDir      string          // --dump-instances
}

// algorithm is one exploration algorithm of `mcr check --algo`. This table
// is the single registry: flag help, validation and `mcr bench` come from it.
type algorithm struct {
	Name string
	Doc  string
	Run  func(ctx context.Context, p program.Program, opts explore.Options, cfg runConfig) *explore.Result
}

var algorithms = map[string]algorithm{
	"dfs": {"dfs", "every interleaving of visible events, no reduction (the ground truth; small programs only)",
		func(ctx context.Context, p program.Program, opts explore.Options, _ runConfig) *explore.Result {
			return explore.DFS(ctx, p, opts)
		}},
	"mcr":       {"mcr", "Maximal Causality Reduction (seed 001) in RVF-SMC's order (seed 000, Algorithm 2): at most one execution per class", exploreMCR},
	"mcr-seeds": {"mcr-seeds", "MCR as published (seed 001, Algorithms 1-3): a seed per read and new value, level by level; can repeat classes", exploreSeeds},
}

// deciders maps --decider values to constructors of the seed deciders of
// mcr-seeds (one per node of the search; see mcr.SeedOptions) and of the
// race deciders of mcr.
var deciders = map[string]func(cfg runConfig) (program.SeedDecider, error){
	"z3":       func(cfg runConfig) (program.SeedDecider, error) { return encode.NewZ3Seeder(cfg.queryTimeout) },
	"explicit": func(runConfig) (program.SeedDecider, error) { return explicit.Seeder{}, nil },
	"both": func(cfg runConfig) (program.SeedDecider, error) {
		z, err := encode.NewZ3Seeder(cfg.queryTimeout)
		if err != nil {
			return nil, err
		}
		return mcr.CrossCheck{A: z, B: explicit.Seeder{}, CrossStats: cfg.cross}, nil
	},
}

// exploreMCR runs mcr.Explore with the deciders --decider names: explicit
// (VerifySC and the explicit seed search), z3 (Z3, the explicit ones
// answering when it gives up or is not built) or both (compared).
func exploreMCR(ctx context.Context, p program.Program, opts explore.Options, cfg runConfig) *explore.Result {
	mk := deciders[cfg.decider]
	var fellBack atomic.Int64
	o := mcr.Options{Options: opts, Workers: cfg.workers} // explicit: VerifySC and explicit.Seeder
	z := &encode.Z3Decider{Timeout: cfg.queryTimeout}
	defer z.Close()
	switch cfg.decider {
	case "z3":
		o.Decider = mcr.Fallback{A: z, B: &explicit.VerifySC{}, Used: &fellBack}
		o.NewRaceDecider = func() (program.SeedDecider, error) {
			z, err := mk(cfg)
			if err != nil { // Z3 not built: the seed queries count the fallbacks
				return explicit.Seeder{}, nil
			}
			return mcr.SeedFallback{A: z, B: explicit.Seeder{}, Used: &fellBack}, nil
		}
	case "both":
		o.Decider = mcr.CrossDecider{A: z, B: &explicit.VerifySC{}, CrossStats: cfg.cross}
		o.NewRaceDecider = func() (program.SeedDecider, error) { return mk(cfg) }
	}
	var mu sync.Mutex
	dumped, dumpErrs := 0, 0
	if cfg.dumpDir != "" {
		o.OnWitness = func(inst *program.Instance, _ program.Witness) {
			mu.Lock()
			defer mu.Unlock()
			dumped++
			inst.Name = fmt.Sprintf("seed-%05d", dumped)
			if err := program.WriteInstanceFile(filepath.Join(cfg.dumpDir, inst.Name+".json"), inst); err != nil {
				dumpErrs++
			}
		}
	}
	res := finishRun(mcr.Explore(ctx, p, o), cfg, dumped, dumpErrs)
	if n := fellBack.Load(); n > 0 {
		res.Stats.Extra["fallback_answers"] = float64(n)
	}
	return res
}

// exploreSeeds runs mcr.ExploreSeeds, asking seed queries of the decider
// --decider names (z3: with the explicit search as fallback).
func exploreSeeds(ctx context.Context, p program.Program, opts explore.Options, cfg runConfig) *explore.Result {
	mk := deciders[cfg.decider]
	o := mcr.SeedOptions{Options: opts, Workers: cfg.workers, NewDecider: func() (program.SeedDecider, error) { return mk(cfg) }}
	if cfg.decider != "explicit" {
		// Z3 unknown, timeout or absence: the explicit search answers
		o.NewFallback = func() (program.SeedDecider, error) { return explicit.Seeder{}, nil }
	}
	dumped, dumpErrs := 0, 0
	if cfg.dumpDir != "" {
		o.OnAnswer = func(q program.SeedQuery, a program.SeedAnswer) {
			inst, err := program.SeedInstance(q, a)
			if err == nil {
				dumped++
				inst.Name = fmt.Sprintf("seed-%05d", dumped)
				err = program.WriteInstanceFile(filepath.Join(cfg.dumpDir, inst.Name+".json"), inst)
			}
			if err != nil {
				dumpErrs++
			}
		}
	}
	return finishRun(mcr.ExploreSeeds(ctx, p, o), cfg, dumped, dumpErrs)
}

// finishRun adds the counters of --dump-instances and --decider both to
// res.
func finishRun(res *explore.Result, cfg runConfig, dumped, dumpErrs int) *explore.Result {
	if res.Stats.Extra == nil {
		res.Stats.Extra = map[string]float64{}
	}
	if cfg.dumpDir != "" {
		res.Stats.Extra["instances_dumped"] = float64(dumped)
		res.Stats.Extra["instances_not_dumped"] = float64(dumpErrs)
	}
	if cfg.cross != nil {
		res.Stats.Extra["crosscheck_queries"] = float64(cfg.cross.Queries)
		res.Stats.Extra["crosscheck_disagreements"] = float64(cfg.cross.Disagreements)
		res.Stats.Extra["crosscheck_invalid"] = float64(cfg.cross.Invalid)
		if cfg.cross.First != "" {
			res.Stats.Stopped = "deciders disagree: " + cfg.cross.First
			res.Stats.Complete = false
		}
	}
	return res
}

func names[V any](m map[string]V) string {
	var out []string
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func lookupAlgo(name, decider string) (algorithm, error) {
	a, ok := algorithms[name]
	if !ok {
		return a, fmt.Errorf("unknown algorithm %q (have: %s)", name, names(algorithms))
	}
	if _, ok := deciders[decider]; !ok {
		return a, fmt.Errorf("unknown decider %q (have: %s)", decider, names(deciders))
	}
	return a, nil
}
