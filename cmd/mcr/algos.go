package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"mcr/encode"
	"mcr/mcr"
	"mcr/program"
	"mcr/program/explore"
)

// runConfig carries the flags that explorers other than dfs use.
type runConfig struct {
	workers      int
	decider      string
	queryTimeout time.Duration
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
	"mcr": {"mcr", "Maximal Causality Reduction (seed 001, Algorithms 1-3)", exploreMCR},
}

// deciders maps --decider values to constructors of per-worker seed deciders.
var deciders = map[string]func(cfg runConfig) (program.SeedDecider, error){
	"z3": func(cfg runConfig) (program.SeedDecider, error) { return encode.NewZ3Seeder(cfg.queryTimeout) },
}

func exploreMCR(ctx context.Context, p program.Program, opts explore.Options, cfg runConfig) *explore.Result {
	mk := deciders[cfg.decider]
	return mcr.Explore(ctx, p, mcr.Options{Options: opts, Workers: cfg.workers,
		NewDecider: func() (program.SeedDecider, error) { return mk(cfg) }})
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
