package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"mcr/program"
	"mcr/program/explore"
)

// algorithm is one exploration algorithm of `mcr check --algo`. This table
// is the single registry: flag help, validation and `mcr bench` come from it.
type algorithm struct {
	Name string
	Doc  string
	Run  func(ctx context.Context, p program.Program, opts explore.Options) *explore.Result
}

var algorithms = map[string]algorithm{
	"dfs": {"dfs", "every interleaving, no reduction (the ground truth; small programs only)", explore.DFS},
}

func algoNames() string {
	var names []string
	for n := range algorithms {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func lookupAlgo(name string) (algorithm, error) {
	a, ok := algorithms[name]
	if !ok {
		return a, fmt.Errorf("unknown algorithm %q (have: %s)", name, algoNames())
	}
	return a, nil
}
