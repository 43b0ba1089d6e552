package main

// This file registers the explicit stateless model checkers of package
// explicit: ReadsFrom-SMC (rf) and RVF-SMC (rvf). Both run their recursion
// on --workers workers; children are committed in the order of the
// sequential search, so counts and findings do not depend on the number of
// workers (explicit/rfsmc_parallel.go).

import (
	"context"

	"mcr/explicit"
	"mcr/parallel"
	"mcr/program"
	"mcr/program/explore"
)

func init() {
	algorithms["rf"] = algorithm{"rf", "ReadsFrom-SMC: one execution per reads-from class, acquires included (seed 002, Algorithm 1 and Section 7)",
		func(ctx context.Context, p program.Program, opts explore.Options, cfg runConfig) *explore.Result {
			return explicit.ReadsFromSMCWorkers(ctx, p, opts, parallel.Workers(cfg.workers))
		}}
	algorithms["rvf"] = algorithm{"rvf", "RVF-SMC: at most one execution per reads-value-from class (seed 000, Algorithm 2)",
		func(ctx context.Context, p program.Program, opts explore.Options, cfg runConfig) *explore.Result {
			return explicit.RVFSMCWorkers(ctx, p, opts, parallel.Workers(cfg.workers))
		}}
}
