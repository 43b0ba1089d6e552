package explicit

// This file declares the registry entries of the explicit stateless model
// checkers (see explore.Algorithm; collected by package mcr/registry).
// Both run their recursion on Config.Workers workers; children are
// committed in the order of the sequential search, so counts and findings
// do not depend on the number of workers (parallel.Tree; rfsmc_parallel.go).

import (
	"context"

	"mcr/parallel"
	"mcr/program"
	"mcr/program/explore"
)

// RF is ReadsFrom-SMC's registry entry (`--algo rf`).
var RF = explore.Algorithm{
	Name:   "rf",
	Doc:    "ReadsFrom-SMC: one execution per reads-from class, acquires included",
	Source: "seed 002, Algorithm 1 and Section 7; under TSO and PSO seed 004, Algorithm 3 (rfsmc_relaxed.go)",
	Models: program.Models,
	Run: func(ctx context.Context, p program.Program, opts explore.Options, cfg explore.Config) *explore.Result {
		if cfg.Model != program.SC {
			return RFSMCRelaxed(ctx, p, opts, cfg.Model) // sequential for now
		}
		return ReadsFromSMCWorkers(ctx, p, opts, parallel.Workers(cfg.Workers))
	},
}

// RVF is RVF-SMC's registry entry (`--algo rvf`).
var RVF = explore.Algorithm{
	Name:   "rvf",
	Doc:    "RVF-SMC: at most one execution per reads-value-from class",
	Source: "seed 000, Algorithm 2",
	Models: onlySC,
	Run: func(ctx context.Context, p program.Program, opts explore.Options, cfg explore.Config) *explore.Result {
		return RVFSMCWorkers(ctx, p, opts, parallel.Workers(cfg.Workers))
	},
}
