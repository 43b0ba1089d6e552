package main

// This file registers the explicit stateless model checkers of package
// explicit: ReadsFrom-SMC (rf) and RVF-SMC (rvf). Both search
// sequentially (--workers does not apply): a subtree adds work to its
// ancestors (schedules in rf, backtrack signals in rvf), so subtrees are
// not independent.

import (
	"context"

	"mcr/explicit"
	"mcr/program"
	"mcr/program/explore"
)

func init() {
	algorithms["rf"] = algorithm{"rf", "ReadsFrom-SMC: one execution per reads-from class, acquires included (seed 002, Algorithm 1 and Section 7; sequential)",
		func(ctx context.Context, p program.Program, opts explore.Options, _ runConfig) *explore.Result {
			return explicit.ReadsFromSMC(ctx, p, opts)
		}}
	algorithms["rvf"] = algorithm{"rvf", "RVF-SMC: at most one execution per reads-value-from class (seed 000, Algorithm 2; sequential)",
		func(ctx context.Context, p program.Program, opts explore.Options, _ runConfig) *explore.Result {
			return explicit.RVFSMC(ctx, p, opts)
		}}
}
