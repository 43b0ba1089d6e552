package explore

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/sourcegraph/conc/panics"

	"mcr/program"
)

// Algorithm describes one exploration algorithm: a value declared in the
// package that implements it (explore.DFSAlgorithm, explicit.RF, mcr.MCR,
// ...) and collected in the registry (package mcr/registry), from which
// the CLI's --algo values, help text, flag validation and `mcr bench`
// columns and the tests' algorithm tables come, as go/analysis's Analyzer
// values are collected by a driver.
type Algorithm struct {
	// Name is the --algo value.
	Name string
	// Doc is one line for help texts: what it explores and its guarantee.
	Doc string
	// Source cites the specification, e.g. "seed 002 Algorithm 1".
	Source string
	// Models lists the memory models it explores under.
	Models []program.MemoryModel
	// Deciders lists the --decider values it accepts; nil: it asks no
	// decider queries, and --decider is refused unless it is the default.
	Deciders []string
	// DumpsInstances says whether it can write the instances it decides
	// (--dump-instances).
	DumpsInstances bool
	// Run explores p. nil: the algorithm is registered but not yet
	// implemented; the CLI lists it and refuses it with Planned.
	Run func(ctx context.Context, p program.Program, opts Options, cfg Config) *Result
	// Planned says, for an algorithm without Run, where it will come from.
	Planned string
}

// Explore runs a on p and makes sure a search ctx ended is not reported
// complete: explorers poll ctx inside long steps (an execution, a
// witness query, a race report) and give up the step, and such a cut may
// otherwise go unseen when it happens in the last step. Callers check
// a.Check(cfg) first.
//
// A panic inside the algorithm (a bug of ours, never the program's) is
// not a crash: the result says "internal error" with the panic's value and
// where it happened, and is incomplete. Findings reported before it are
// lost with the algorithm's recorder.
func (a *Algorithm) Explore(ctx context.Context, p program.Program, opts Options, cfg Config) (res *Result) {
	defer func() {
		if r := recover(); r != nil {
			res = &Result{Stats: Stats{Algorithm: a.Name, Stopped: internalError(r, debug.Stack())}}
		}
	}()
	res = a.Run(ctx, p, opts, cfg)
	if ctx.Err() != nil && res.Stats.Stopped == "" {
		res.Stats.Stopped = StopReason(ctx)
		res.Stats.Complete = false
	}
	return res
}

// internalError describes a recovered panic for Stats.Stopped: its value
// (for a panic re-raised by parallel.Tree, the original one's first line)
// and the innermost frame of this module in stack.
func internalError(r any, stack []byte) string {
	msg, _, _ := strings.Cut(fmt.Sprint(r), "\n")
	msg = strings.TrimPrefix(msg, "panic: ")
	where := ""
	if rp, ok := r.(*panics.Recovered); ok {
		stack = []byte(rp.Stack)
	}
	for _, line := range strings.Split(string(stack), "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "/") && strings.Contains(t, ".go:") &&
			!strings.Contains(t, "/runtime/") && !strings.Contains(t, "/explore/algorithm.go") && !strings.Contains(t, "sourcegraph/conc") {
			where = " at " + t
			break
		}
	}
	return "internal error (a bug in mcr; please report it with the program): " + msg + where
}

// Config carries the settings that some algorithms use beside Options.
type Config struct {
	// Workers is the number of parallel workers (below 1: all CPUs).
	Workers int
	// Decider names the decider of the algorithm's queries (one of its
	// Deciders; "" : its first).
	Decider string
	// QueryTimeout bounds one decider query (0: no bound of its own).
	QueryTimeout time.Duration
	// DumpDir, if not "", receives every satisfiable query the algorithm
	// decided, as an instance file (DumpsInstances algorithms only).
	DumpDir string
	// Model is the memory model to explore under.
	Model program.MemoryModel
}

// DefaultDecider is the --decider default: the explicit deciders, then Z3
// for the queries they find hard (mcr.AutoStates).
const DefaultDecider = "auto"

// Check reports why a cannot run with cfg, or nil: an algorithm that is
// not implemented yet, a memory model it does not explore under, a
// decider it does not take, --dump-instances it cannot honour. The errors
// are meant for users: they name the flag and say what would work.
func (a *Algorithm) Check(cfg Config) error {
	if a.Run == nil {
		return fmt.Errorf("--algo %s is not implemented yet (%s)", a.Name, a.Planned)
	}
	if !slices.Contains(a.Models, cfg.Model) {
		var ms []string
		for _, m := range a.Models {
			ms = append(ms, m.String())
		}
		return fmt.Errorf("--algo %s does not explore under --mm %s yet (it explores under %s)", a.Name, cfg.Model, strings.Join(ms, ", "))
	}
	switch {
	case cfg.Decider == "" || slices.Contains(a.Deciders, cfg.Decider):
	case len(a.Deciders) > 0:
		return fmt.Errorf("--algo %s takes --decider %s, not %q", a.Name, strings.Join(a.Deciders, ", "), cfg.Decider)
	case cfg.Decider != DefaultDecider && cfg.Decider != "explicit": // explicit: what they use
		return fmt.Errorf("--algo %s asks no decider queries, so --decider %s would not be used", a.Name, cfg.Decider)
	}
	if cfg.DumpDir != "" && !a.DumpsInstances {
		return fmt.Errorf("--algo %s writes no instances: --dump-instances needs an algorithm that decides seed instances", a.Name)
	}
	return nil
}

// DFSAlgorithm is dfs's registry entry.
var DFSAlgorithm = Algorithm{
	Name:   "dfs",
	Doc:    "every interleaving of visible events, no reduction (the ground truth; small programs only)",
	Source: "exhaustive search; DESIGN.md, Exploration algorithms",
	Models: program.Models, // TSO, PSO: flushes are steps (program.Buffered)
	Run: func(ctx context.Context, p program.Program, opts Options, _ Config) *Result {
		return DFS(ctx, p, opts)
	},
}
