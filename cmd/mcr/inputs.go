package main

// Nondeterministic inputs (__VERIFIER_nondet_*): the concolic driver
// (explore.ExploreInputs) wraps the scheduling exploration.

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"mcr/mcr/registry"
	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/sym"
)

// inputFlags are check's flags for programs that read inputs.
type inputFlags struct {
	domain    int
	maxInputs int
	solver    string
}

func addInputFlags(fl *pflag.FlagSet, f *inputFlags) {
	fl.IntVar(&f.domain, "input-domain", sym.DefaultDomain, "inputs (__VERIFIER_nondet_*): the explicit input solver enumerates a query's inputs when they have at most this many value combinations")
	fl.IntVar(&f.maxInputs, "max-inputs", explore.DefaultMaxInputs, "inputs: explore at most this many input vectors (reaching it makes the search incomplete)")
	fl.StringVar(&f.solver, "input-solver", "auto", "inputs: solver of the input queries: z3, explicit (enumerates small domains, --input-domain), both (z3, cross-checked by explicit where it applies), auto (explicit, and z3 for what explicit leaves undecided when built with it)")
}

// newZ3InputSolver is set when mcr is built with Z3's bit-vector terms
// (inputs_z3.go).
var newZ3InputSolver func(timeout time.Duration) sym.Solver

// inputSolver builds the --input-solver solver.
func (f *inputFlags) inputSolver(timeout time.Duration) (sym.Solver, error) {
	if f.domain <= 0 {
		return nil, fmt.Errorf("--input-domain must be positive")
	}
	ex := sym.Explicit{Limit: uint64(f.domain)}
	switch f.solver {
	case "explicit":
		return ex, nil
	case "auto":
		if newZ3InputSolver == nil {
			return ex, nil
		}
		// the explicit solver first: its candidates are small values near
		// the query's constants (the next index of a concretised array
		// access, where Z3 picks any value), and it is cheaper than a Z3
		// call on the small domains it decides
		return sym.Fallback{First: ex, Then: newZ3InputSolver(timeout)}, nil
	case "z3", "both":
		if newZ3InputSolver == nil {
			return nil, fmt.Errorf("--input-solver %s needs Z3, and this mcr was built without it (CGO_ENABLED=0 or -tags noz3); use --input-solver explicit", f.solver)
		}
		if f.solver == "both" {
			return &sym.CrossCheck{A: newZ3InputSolver(timeout), B: ex}, nil
		}
		return newZ3InputSolver(timeout), nil
	}
	return nil, fmt.Errorf("--input-solver: unknown solver %q (have: auto, z3, explicit, both)", f.solver)
}

// exploreInputs explores p with algo, under every input vector the
// concolic search finds if p reads inputs. mcr explores the schedules of
// each input vector itself while a read's value tells its input term, and
// hands the program to rf when one does not (explore.InputOptions
// ValueBased, Fallback). The other value-based algorithms (mcr-seeds, rvf,
// vc) identify executions by the values they read, which confuses two
// writes of the same value with different input terms: with inputs, rf
// explores the schedules instead, and the statistics say so.
//
// A search that stopped at a trylock whose other outcome it does not
// explore is done again by rf (trylocksWithRF).
//
// A search left incomplete, without a finding, by a read of an
// uninitialised integer local (whose value C leaves indeterminate) runs
// again with such locals as inputs (cfront.Program.WithUndefInputs); the
// program returned is the one the findings replay on.
func exploreInputs(ctx context.Context, algo *explore.Algorithm, p *cfront.Program, opts explore.Options, cfg explore.Config, f *inputFlags) (*explore.Result, *cfront.Program, error) {
	var res *explore.Result
	if !explore.HasInputs(p) {
		if p.HasTrylock() && oneTrylockOutcome(algo, cfg) {
			// algo is not started: it would end at its first trylock
			// anyway, after its first execution, which can take the
			// whole --timeout (goblint 04-mutex_35: 100,000-event
			// bounded executions stepped in place, the race never
			// reported).
			r, err := exploreWithRF(ctx, p, opts, cfg)
			if err != nil {
				return nil, p, err
			}
			res = r
		}
		if res == nil {
			res = algo.Explore(ctx, p, opts, cfg)
			if r, err := trylocksWithRF(ctx, algo, p, opts, cfg, res); err != nil {
				return nil, p, err
			} else if r != nil {
				res = r
			}
		}
	} else {
		r, err := exploreConcolic(ctx, algo, p, opts, cfg, f, "")
		if err != nil {
			return nil, p, err
		}
		res = r
	}
	if res.Stats.Complete || len(res.Findings) > 0 || !cfront.ReadsUndef(res.Stats.Unmodelled) || ctx.Err() != nil {
		return res, p, nil
	}
	q := p.WithUndefInputs()
	r, err := exploreConcolic(ctx, algo, q, opts, cfg, f, "uninitialised locals are inputs")
	if err != nil {
		return nil, p, err
	}
	addFirstSearch(r, res)
	return r, q, nil
}

// trylocksWithRF explores p again with rf when algo's search stopped at
// a trylock (explore.TrylocksNotExplored: mcr, mcr-seeds and rvf explore
// one outcome of a trylock only; vc refuses them) and rf explores both
// under cfg's memory model (seed 002 Section 7: a failed trylock reads
// the acquire holding the lock; explicit/rfsmc_trylock.go). It returns rf's result,
// with the first search's executions and events added and the counter
// trylocks_explored_with_rf, or nil when it did not run.
func trylocksWithRF(ctx context.Context, algo *explore.Algorithm, p program.Program, opts explore.Options, cfg explore.Config, res *explore.Result) (*explore.Result, error) {
	if algo.Name == "rf" || algo.Name == "dfs" || ctx.Err() != nil || !strings.Contains(res.Stats.Stopped, explore.TrylocksNotExplored) {
		return nil, nil
	}
	r, err := exploreWithRF(ctx, p, opts, cfg)
	if r != nil {
		addFirstSearch(r, res)
	}
	return r, err
}

// exploreWithRF explores p with rf under cfg's memory model for its
// trylocks, counted as trylocks_explored_with_rf; nil when rf does not
// take cfg.
func exploreWithRF(ctx context.Context, p program.Program, opts explore.Options, cfg explore.Config) (*explore.Result, error) {
	rf, err := registry.Lookup("rf")
	if err != nil {
		return nil, err
	}
	c := cfg
	c.Decider, c.DumpDir = "", ""
	if rf.Check(c) != nil {
		return nil, nil
	}
	r := rf.Explore(ctx, p, opts, c)
	if r.Stats.Extra == nil {
		r.Stats.Extra = map[string]float64{}
	}
	r.Stats.Extra["trylocks_explored_with_rf"] = 1
	return r, nil
}

// oneTrylockOutcome reports whether algo explores one outcome of a
// trylock only under cfg's model (it stops with
// explore.TrylocksNotExplored): rvf and mcr-seeds, and mcr under SC (under
// TSO and PSO it explores both, with seed 004's search).
func oneTrylockOutcome(algo *explore.Algorithm, cfg explore.Config) bool {
	return algo.Name == "rvf" || algo.Name == "mcr-seeds" || algo.Name == "mcr" && cfg.Model == program.SC
}

// addFirstSearch adds to r, the result of a search done again, the
// executions and events of the first search res, which it replaces: the
// statistics count all the work done.
func addFirstSearch(r, res *explore.Result) {
	r.Stats.Executions += res.Stats.Executions
	r.Stats.Events += res.Stats.Events
}

// exploreConcolic is the concolic search of a program with inputs.
func exploreConcolic(ctx context.Context, algo *explore.Algorithm, p program.Program, opts explore.Options, cfg explore.Config, f *inputFlags, why string) (*explore.Result, error) {
	solver, err := f.inputSolver(cfg.QueryTimeout)
	if err != nil {
		return nil, badInput(err)
	}
	io := explore.InputOptions{Solver: solver, MaxInputs: f.maxInputs, Exhaustive: algo.Name == "dfs"}
	if why != "" {
		io.Note = " (inputs: " + why + ")"
	}
	if algo.Name != "dfs" && algo.Name != "rf" {
		rf, err := registry.Lookup("rf")
		if err != nil {
			return nil, err
		}
		c := cfg
		c.Decider, c.DumpDir = "", ""
		rfErr := rf.Check(c)
		switch {
		case algo.Name == "mcr" && rfErr == nil:
			io.ValueBased, io.Fallback, io.FallbackConfig = true, rf, c
		case rfErr != nil:
			return nil, badInput(fmt.Errorf("the program reads inputs, whose schedules rf explores instead of %s: %v", algo.Name, rfErr))
		default:
			io.Note = fmt.Sprintf(" (inputs: scheduling explored with rf instead of %s, which identifies executions by values", algo.Name)
			if why != "" {
				io.Note += "; " + why
			}
			io.Note += ")"
			algo, cfg = rf, c
		}
	}
	res := explore.ExploreInputs(ctx, algo, p, opts, cfg, io)
	if res.Stats.Extra["input_path_errors"] > 0 {
		res.Stats.Complete = false
	}
	if cc, ok := solver.(*sym.CrossCheck); ok && cc.Disagreements > 0 {
		res.Stats.Extra["input_solver_disagreements"] = float64(cc.Disagreements)
		res.Stats.Complete = false
		if res.Stats.Stopped == "" {
			res.Stats.Stopped = "the input solvers disagree: " + cc.First
		}
	}
	return res, nil
}

// inputText renders an input vector: "T0#0=4 T0.1#0=1".
func inputText(in []program.InputValue) string {
	if len(in) == 0 {
		return "all 0"
	}
	var parts []string
	for _, v := range in {
		parts = append(parts, fmt.Sprintf("T%s#%d=%d", v.Thread, v.K, v.Value))
	}
	return strings.Join(parts, " ")
}

// printInputs prints a finding's input vector, if the program reads inputs.
func printInputs(w io.Writer, p program.Program, f *explore.Finding) {
	if explore.HasInputs(p) {
		fmt.Fprintf(w, "  inputs (thread#k=value, absent ones 0): %s\n", inputText(f.Inputs))
	}
}
