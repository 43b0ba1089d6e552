package mcr

// This file is `--algo mcr --mm tso|pso`: MCR's queries over TSO and PSO
// traces. The search is seed 004's RF-SMC (004_fe58e94b2666f77b.txt,
// Algorithm 3; explicit.RFSMCRelaxedWith): one execution per reads-from
// class, which is exact and never runs more executions than --algo rf
// under the same model (it runs as many). What MCR brings is the deciding
// of each mutation: the instance (the mutation's events with their
// memory-writes, every read with its source) goes to the decider
// --decider names, as MCR's seed queries do under SC:
//
//	explicit  VerifyTSO / VerifyPSO (seed 004 Algorithms 1, 2) with closure
//	z3        Z3 over the order variables of the buffer-writes and the
//	          memory-writes (encode.Z3Decider, INSTANCES.md), the explicit
//	          decider answering when Z3 gives up (fallback_answers)
//	both      every instance asked to both, verdicts compared and every
//	          witness validated (program.Cross); a disagreement makes the
//	          run incomplete
//	auto      the explicit decider (polynomial for a fixed number of
//	          threads; no TSO/PSO query in the testdata needs Z3)
//
// Every witness replays through the executor's store buffers and passes
// program.ValidateWitness before its schedule is explored.

import (
	"context"
	"sync/atomic"

	"mcr/encode"
	"mcr/explicit"
	"mcr/program"
	"mcr/program/explore"
)

// runMCRRelaxed runs `--algo mcr` under cfg.Model (TSO or PSO).
func runMCRRelaxed(ctx context.Context, p program.Program, opts explore.Options, cfg explore.Config) *explore.Result {
	var fellBack atomic.Int64
	cs := &program.CrossStats{}
	exp := explicit.RelaxedDecider(cfg.Model)
	z := &encode.Z3Decider{Timeout: cfg.QueryTimeout}
	defer z.Close()
	rc := explicit.RelaxedConfig{Name: "mcr", Queries: "seed_queries", Decider: exp}
	switch cfg.Decider {
	case "z3":
		rc.Decider = program.Fallback[*program.Instance, program.InstanceAnswer]{A: z, B: exp, Used: &fellBack}
	case "both":
		rc.Decider = program.Cross[*program.Instance, program.InstanceAnswer]{Kind: program.InstanceKind, A: z, B: exp, CrossStats: cs}
	}
	d := newDumper(cfg.DumpDir)
	if d != nil {
		rc.OnInstance = func(inst *program.Instance, _ program.Witness) { d.dump(inst, nil) } // with or without a witness
	}
	res := finishRun(explicit.RFSMCRelaxedWith(ctx, p, opts, cfg.Model, rc), cfg, d, cs)
	if n := fellBack.Load(); n > 0 {
		res.Stats.Extra["fallback_answers"] = float64(n)
	}
	return res
}
