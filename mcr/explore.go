// Package mcr implements Maximal Causality Reduction (MCR), the
// exploration algorithm of 001_aa53da3bf10d3f4e.txt: execute a seed
// interleaving, check properties on the trace's maximal causal model, ask
// which new values the trace's reads could read in a feasible reordering
// (seed queries, decided by Z3 or by the explicit deciders), and recurse on
// the seeds that exist, in parallel (Algorithms 1-3).
//
// Explore, the default (`--algo mcr`), asks the seed queries in the order
// of RVF-SMC (000_1fb260b9b3a323b2.txt, Algorithm 2): a seed flips only a
// read on the causal frontier of what earlier seeds fixed, every read it
// fixes keeps its source set, and a causal map keeps younger siblings off
// the sources elder ones covered. That is what seed 000 built to remove
// MCR's revisits, and it does: no class is executed twice, so no run
// takes more executions than there are reads-from classes. Seed-per-read
// MCR (ExploreSeeds, `--algo mcr-seeds`) cannot promise that once a seed
// must drop its parent's map (see its explorer.clean): on the testdata it
// ran up to 2.5 times the reads-from classes (fib_bench N=4: 48784
// executions for 19605 classes; Explore: 19605).
//
// A seed query over the frontier is a good-writes instance (every fixed
// read has a set of allowed sources of its value); Options.Decider answers
// it: VerifySC (seed 000 Algorithm 1), Z3 over order variables
// (encode.Z3Decider), or both, compared (program.Cross). Properties are
// checked on every maximal trace (races: the race query of seed 001
// Section 3.3, Options.NewRaceDecider) and on every seed (a read of a
// dereferenced pointer that can be NULL: the null-read property).
//
// Blocked executions (issue 12) are handled by the RVF-SMC engine as in
// explicit/rvfsmc.go: a thread whose assumption fails is stuck, the others
// run on, and their writes become sources of the reads that made it fail.
package mcr

import (
	"context"

	"mcr/explicit"
	"mcr/parallel"
	"mcr/program"
	"mcr/program/explore"
)

// Options configure Explore.
type Options struct {
	explore.Options
	// Workers is the number of parallel workers (0: number of CPUs).
	// Findings and counts do not depend on it.
	Workers int
	// Decider decides the seed instances; nil means VerifySC. It must be
	// safe for concurrent use. An error from it stops the search (the
	// result says so), so wrap a decider that can give up in a
	// program.Fallback.
	Decider program.Decider
	// NewRaceDecider creates the deciders of race queries; each is used by
	// one goroutine at a time, and closed (if it has Close) at the end.
	// nil means the explicit search (explicit.Seeder).
	NewRaceDecider func() (program.SeedDecider, error)
	// OnWitness, if set, sees every seed instance that has a witness, and
	// the witness (for --dump-instances); inst is reused after it returns.
	// With several workers it is called concurrently.
	OnWitness func(inst *program.Instance, w program.Witness)
}

// Explore runs MCR on p in RVF-SMC's order (see the package comment) and
// returns the findings and statistics (Stats.Extra as explicit.RVFSMC's,
// with "seed_queries" for its "verifysc_queries").
func Explore(ctx context.Context, p program.Program, o Options) *explore.Result {
	races := program.SeedDecider(explicit.Seeder{})
	if o.NewRaceDecider != nil {
		pool := &seedPool{new: o.NewRaceDecider}
		defer pool.close()
		races = pool
	}
	return explicit.RVFSMCWith(ctx, p, o.Options, explicit.RVFConfig{Workers: parallel.Workers(o.Workers), Name: "mcr", Queries: "seed_queries",
		Decider: o.Decider, Races: races, PredictNull: true, OnWitness: o.OnWitness})
}

// seedPool is a SeedDecider that hands each query to a decider no other
// goroutine is using (Z3 contexts are not thread-safe), creating one when
// all are busy: at most one per concurrent caller.
type seedPool struct {
	new  func() (program.SeedDecider, error)
	free parallel.Free[program.SeedDecider]
}

func (p *seedPool) Name() string { return "pool" }

func (p *seedPool) Decide(ctx context.Context, q program.SeedQuery) (program.SeedAnswer, error) {
	d, err := p.free.Get(p.new)
	if err != nil {
		return program.SeedAnswer{}, err
	}
	defer p.free.Put(d)
	return d.Decide(ctx, q)
}

// close closes the deciders; it is called when no query runs, so every
// decider is free.
func (p *seedPool) close() {
	for _, d := range p.free.Drain() {
		if c, ok := d.(interface{ Close() }); ok {
			c.Close()
		}
	}
}
