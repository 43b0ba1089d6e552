package main

// The algorithms and their --decider values come from the registry
// (package mcr/registry); this file only adds what the verbs share.

import (
	"time"

	"github.com/spf13/pflag"

	"mcr/mcr/registry"
	"mcr/program/explore"
)

// algoFlags are the flags that choose and configure an algorithm, shared
// by check and bench.
type algoFlags struct {
	decider  string
	model    string
	workers  int
	qTimeout time.Duration
	dumpDir  string
}

// config resolves the flags into an explore.Config. Errors: an unknown
// memory model.
func (f *algoFlags) config() (explore.Config, error) {
	mm, err := registry.ParseModel(f.model)
	if err != nil {
		return explore.Config{}, err
	}
	return explore.Config{Workers: f.workers, Decider: f.decider, QueryTimeout: f.qTimeout, DumpDir: f.dumpDir, Model: mm}, nil
}

// lookupAlgo resolves and checks --algo name with the flags f (see
// registry.Check); errors are bad input.
func lookupAlgo(name string, f *algoFlags) (*explore.Algorithm, explore.Config, error) {
	cfg, err := f.config()
	if err != nil {
		return nil, cfg, badInput(err)
	}
	a, err := registry.Check(name, cfg)
	if err != nil {
		return nil, cfg, badInput(err)
	}
	return a, cfg, nil
}

// addAlgoFlags declares the flags of f on fl.
func addAlgoFlags(fl *pflag.FlagSet, f *algoFlags) {
	fl.StringVar(&f.decider, "decider", explore.DefaultDecider, "decider of the algorithm's queries (mcr, mcr-seeds):"+registry.DeciderHelp()+"\n")
	fl.StringVar(&f.model, "mm", "sc", "memory model: sc, tso or pso (store buffers per thread, or per thread and location; tso and pso: --algo dfs, rf and mcr)")
	fl.IntVar(&f.workers, "workers", 0, "parallel workers (default: number of CPUs); counts and findings do not depend on it")
}
