package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"mcr/mcr/registry"
	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
)

type checkFlags struct {
	algoFlags
	defines  []string
	includes []string
	algo     string
	bounds
	keepGoing   bool
	json        bool
	scheduleOut string
	timeout     time.Duration
	maxMemory   string
	validate    bool
	validateMax int
	property    string // --property: an SV-COMP property file or name
	witness     string // --witness: where to write a violation witness
	inputs      inputFlags
}

func init() { commands = append(commands, newCheckCmd) }

func newCheckCmd() *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check FILE.c | TASK.yml",
		Short: "Explore every behaviour of a pthreads C program and report violations",
		Long: `check explores the executions of a C program under a controlled scheduler and
reports assertion violations, runtime errors (null dereference, out-of-bounds,
division by zero, use after free), data races and deadlocks, each with a
schedule that 'mcr replay' reproduces.

SV-COMP: given a task definition (TASK.yml, format 2.0, 1.1 or 1.0) or --property, check
decides each property of the task in its own search that reports only the
property's kind of finding (unreach-call: assertions and reach_error;
no-data-race: races) and prints the verdict: "SV-COMP verdict: TRUE" (search
complete, no violation), "FALSE(unreach-call)" or "FALSE(no-data-race)" (a
violation whose schedule replays), or "UNKNOWN (reason)"; with the task's
expected verdict it says whether the verdict is correct. Other properties
(no-overflow, valid-memsafety, termination, ...) are UNKNOWN, not guessed.
mcr interprets every program in LP64, whatever the task's data model (the
report says when it differs). --witness writes a violation witness (format
2.0) for a FALSE verdict.

Inputs: a program that calls __VERIFIER_nondet_* (integer and _Bool types)
is explored concolically: each input vector, from all zeros, gets a full
scheduling exploration, and the solver (--input-solver) finds vectors that
flip the input-dependent decisions of every explored execution, under every
order of the other threads' decisions the explored class allows. mcr explores
the schedules itself while a read's value tells its input term, else with rf;
mcr-seeds, rvf and vc explore them with rf. A finding's report and
--schedule-out file carry its input vector.

Exit codes: 0 no finding, 1 finding, 2 bad input, 3 incomplete (a bound,
timeout or interruption cut the search; an unsupported property).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runCheck(cmd, args[0], &f) },
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.defines, "define", "D", nil, "define a macro, NAME or NAME=VALUE (repeatable)")
	fl.StringArrayVarP(&f.includes, "include", "I", nil, "add an include directory (repeatable)")
	fl.StringVar(&f.algo, "algo", registry.Default, "exploration algorithm:"+registry.Help()+"\n")
	addAlgoFlags(fl, &f.algoFlags)
	fl.DurationVar(&f.qTimeout, "query-timeout", time.Minute, "time limit of one solver query")
	fl.StringVar(&f.dumpDir, "dump-instances", "", "write every MCR seed a decider found satisfiable as a consistency instance file in this directory (for mcr verify; mcr and mcr-seeds)")
	addBoundFlags(fl, &f.bounds)
	addInputFlags(fl, &f.inputs)
	fl.BoolVar(&f.keepGoing, "keep-going", false, "report every finding instead of stopping at the first")
	fl.BoolVar(&f.json, "json", false, "write JSON lines (findings, then a final stats record) to stdout")
	fl.StringVar(&f.scheduleOut, "schedule-out", "", "save the first finding's schedule to this file (for mcr replay)")
	fl.DurationVar(&f.timeout, "timeout", 0, "stop after this long (e.g. 30s, 5m); 0 = no limit")
	fl.StringVar(&f.maxMemory, "max-memory", defaultMaxMemory(), "stop the search (incomplete, exit 3) when the process's memory exceeds this (e.g. 8G, 500M; none = no limit)")
	fl.BoolVar(&f.validate, "validate", false, "self-check for small programs: run dfs (every interleaving) after the algorithm and fail (exit 1) on any outcome or finding the algorithm missed")
	fl.IntVar(&f.validateMax, "validate-max", 1_000_000, "with --validate: at most this many dfs executions (a cut dfs makes the validation, and the result, incomplete)")
	fl.StringVar(&f.property, "property", "", "SV-COMP property to decide: a .prp file or its name (unreach-call, no-data-race); with a task file, the one of its properties to check (default: all)")
	fl.StringVar(&f.witness, "witness", "", "with a property: write the violation witness (SV-COMP format 2.0, YAML) of a FALSE verdict to this file")
	return cmd
}

// defaultMaxMemory is the --max-memory default: three quarters of the
// machine's memory, or none if that is unknown.
func defaultMaxMemory() string {
	if n := explore.DefaultMemoryLimit(); n > 0 {
		return fmt.Sprintf("%dM", n>>20)
	}
	return "none"
}

// bounds are the executor's bounds (--max-events, --max-threads).
type bounds struct {
	maxEvents, maxThreads int
	spurious, noSpinAwait bool
	randInputs            bool
	failingLocks          bool
}

func addBoundFlags(fl *pflag.FlagSet, b *bounds) {
	fl.IntVar(&b.maxEvents, "max-events", cfront.DefaultMaxEvents, "per-thread event bound; executions that reach it are reported as bounded")
	fl.BoolVar(&b.noSpinAwait, "no-spin-await", false, "run spin loops (an empty loop whose condition only reads) as written; by default they run as an await of their exit condition, so that they have finitely many executions")
	fl.BoolVar(&b.spurious, "spurious-wakeups", false, "let pthread_cond_wait return without a signal, as POSIX allows (on by default for SV-COMP tasks and --property; off: a wait returns only after a signal, and a lost wake-up is reported as a deadlock)")
	fl.BoolVar(&b.failingLocks, "failing-locks", false, "let a pthread_mutex_lock whose result the program uses fail with EINVAL, as POSIX allows (on by default for SV-COMP tasks and --property, whose tasks expect it; off: a lock always succeeds, as glibc's default mutex does)")
	fl.BoolVar(&b.randInputs, "rand-inputs", false, "treat rand() and random() as inputs (every value in [0, RAND_MAX] explored, like __VERIFIER_nondet_int) and srand as a no-op; off, a run that calls rand ends incomplete")
	fl.IntVar(&b.maxThreads, "max-threads", cfront.DefaultMaxThreads, "threads per execution, main included; a pthread_create beyond it ends the execution as bounded")
}

// loadProgram parses and compiles a C file; errors are bad input. Its
// executions end soon after ctx is done (cfront.Program.StopWhen).
func loadProgram(ctx context.Context, file string, defines, includes []string, b bounds) (*cfront.Program, error) {
	if b.maxEvents <= 0 {
		return nil, badInput(fmt.Errorf("--max-events must be positive"))
	}
	if b.maxThreads <= 0 {
		return nil, badInput(fmt.Errorf("--max-threads must be positive"))
	}
	p, err := cfront.Load(file, cfront.Options{Defines: defines, IncludePaths: includes, MaxEvents: b.maxEvents, MaxThreads: b.maxThreads, SpuriousWakeups: b.spurious, NoSpinAwait: b.noSpinAwait, RandInputs: b.randInputs, FailingLocks: b.failingLocks})
	if err != nil {
		return nil, badInput(err)
	}
	p.StopWhen(ctx)
	return p, nil
}

func runCheck(cmd *cobra.Command, file string, f *checkFlags) error {
	if f.property != "" || f.witness != "" || isTaskFile(file) {
		// A verdict needs every POSIX behaviour: pthread_cond_wait may
		// return without a signal (a task that trusts one wait got a
		// wrong TRUE); the waiting loops it makes are idle (idle.go).
		if !cmd.Flags().Changed("spurious-wakeups") {
			f.bounds.spurious = true
		}
		// SV-COMP's tasks let a lock whose result is tested fail
		// (cfront/failinglock.go): goblint's 04-mutex_13 expects the race
		// on its failure branch.
		if !cmd.Flags().Changed("failing-locks") {
			f.bounds.failingLocks = true
		}
		// A verdict wants the search finished: rf explores the same
		// behaviours at a fraction of mcr's cost per execution today
		// (179 SV-COMP tasks, 20 s each: 136 correct against 134, and no
		// task that mcr decided and rf did not).
		if !cmd.Flags().Changed("algo") {
			f.algo = "rf"
		}
		return runTask(cmd, file, f)
	}
	return checkProgram(cmd, file, f, nil)
}

// checkProgram checks the C program in file and prints the report; with
// sv, only for sv's property, adding its verdict to the report.
func checkProgram(cmd *cobra.Command, file string, f *checkFlags, sv *svRun) error {
	algo, cfg, err := lookupAlgo(f.algo, &f.algoFlags)
	if err != nil {
		return err
	}
	limit, err := explore.ParseBytes(f.maxMemory)
	if err != nil {
		return badInput(fmt.Errorf("--max-memory: %v", err))
	}
	ctx, stop := runContext(f.timeout)
	defer stop()
	ctx, stopMem := explore.WithMemoryLimit(ctx, limit)
	defer stopMem()
	var p *cfront.Program
	if sv != nil && sv.compiled != nil && *sv.compiled != nil {
		p = (*sv.compiled).Fresh() // a task's program is compiled once for all its properties
		p.StopWhen(ctx)
	} else if p, err = loadProgram(ctx, file, f.defines, f.includes, f.bounds); err != nil {
		return err
	} else if sv != nil && sv.compiled != nil {
		*sv.compiled = p
	}
	if err := p.SetModel(cfg.Model); err != nil {
		return badInput(err)
	}
	opts := explore.Options{KeepGoing: f.keepGoing}
	if sv != nil {
		opts.Kinds = []string{sv.prop.Property.Kind}
	}
	bar := progress(algo.Name)
	if bar != nil {
		opts.Progress = func(s explore.Stats) {
			bar.Describe(fmt.Sprintf("%s: %d executions, %d rf classes, %.0f exec/s", algo.Name, s.Executions, s.RFClasses, float64(s.Executions)/s.Seconds))
			_ = bar.Add(1)
		}
	}
	if f.dumpDir != "" {
		if err := os.MkdirAll(f.dumpDir, 0o755); err != nil {
			return badInput(err)
		}
	}
	var reached *explore.Reached
	if f.validate {
		reached = explore.NewReached()
		opts.Observe = reached.Observe(opts.Observe)
		opts.Validate = true
	}
	var res *explore.Result
	var q *cfront.Program
	var undefInputs bool // q reads uninitialised locals as inputs (WithUndefInputs)
	if sv != nil {
		res, q, undefInputs, err = exploreThreadStages(ctx, algo, p, opts, cfg, &f.inputs) // a verdict: few threads first
	} else {
		res, q, err = exploreInputs(ctx, algo, p, opts, cfg, &f.inputs)
		undefInputs = q != p
	}
	if err != nil {
		return err
	}
	if cfg.Model != program.SC {
		res.Stats.Model = cfg.Model.String()
	}
	p = q // the program the findings replay on (WithUndefInputs)
	if bar != nil {
		_ = bar.Finish()
	}
	var val *explore.Validation
	if f.validate && ctx.Err() == nil {
		if explore.HasInputs(p) {
			solver, err := f.inputs.inputSolver(cfg.QueryTimeout)
			if err != nil {
				return badInput(err)
			}
			val = explore.ValidateInputs(ctx, p, res, f.keepGoing, f.validateMax, explore.InputOptions{Solver: solver, MaxInputs: f.inputs.maxInputs})
		} else {
			val = explore.Validate(ctx, p, res, reached, f.keepGoing, f.validateMax)
		}
	}
	if sv != nil {
		sv.decide(p, res)
	}
	out := cmd.OutOrStdout()
	if f.json {
		writeJSON(out, res, sv.jsonVerdict())
		if val != nil {
			_ = json.NewEncoder(out).Encode(struct {
				Type string `json:"type"`
				*explore.Validation
				OK bool `json:"ok"`
			}{"validation", val, val.OK()})
		}
	} else {
		printReport(out, p, file, f.defines, res)
		if val != nil {
			printValidation(out, algo.Name, val)
		}
		sv.print(out)
	}
	if f.scheduleOut != "" && len(res.Findings) > 0 {
		fd := res.Findings[0]
		sf := &program.ScheduleFile{Program: file, Defines: defineMap(f.defines), Finding: fd.Kind + ": " + fd.Message, Inputs: fd.Inputs, UndefInputs: undefInputs, RandInputs: f.bounds.randInputs, FailingLocks: f.bounds.failingLocks, SpuriousWakeups: f.bounds.spurious, NoSpinAwait: f.bounds.noSpinAwait, Steps: fd.Steps}
		if cfg.Model != program.SC {
			sf.Model = cfg.Model.String()
		}
		if err := program.WriteScheduleFile(f.scheduleOut, sf); err != nil {
			return &exitError{exitBadInput, err}
		}
		if !f.json {
			fmt.Fprintf(out, "schedule of the first finding saved to %s (mcr replay %s --schedule %s)\n", f.scheduleOut, file, f.scheduleOut)
		}
	}
	switch {
	case len(res.Findings) > 0 || val != nil && !val.OK():
		return &exitError{code: exitFinding}
	case !res.Stats.Complete || val != nil && !val.Complete || f.validate && val == nil:
		return &exitError{code: exitIncomplete}
	case sv.unknown():
		return &exitError{code: exitIncomplete} // a complete search that proves nothing (svcomp.Decide)
	}
	return nil
}

// printValidation reports the --validate comparison with dfs.
func printValidation(w io.Writer, algo string, v *explore.Validation) {
	cut := ""
	if !v.Complete {
		cut = " (dfs was cut: what it did not reach was not compared)"
	}
	fmt.Fprintf(w, "validation against dfs: %d interleavings, %d outcomes, %d reads-from classes, %d blocked classes%s\n",
		v.Interleavings, v.Outcomes, v.RFClasses, v.BlockedClasses, cut)
	if v.MissedRFClasses+v.MissedBlockedClasses > 0 {
		fmt.Fprintf(w, "  %s did not run %d reads-from classes and %d blocked classes of dfs (value-based algorithms merge classes)\n",
			algo, v.MissedRFClasses, v.MissedBlockedClasses)
	}
	if v.OK() {
		fmt.Fprintf(w, "validation: OK, %s reached every outcome and finding dfs reached\n", algo)
		return
	}
	fmt.Fprintf(w, "VALIDATION FAILED: %s missed %d outcomes of dfs", algo, v.MissedOutcomes)
	if len(v.MissedFindings) > 0 {
		fmt.Fprintf(w, " and the findings %v", v.MissedFindings)
	}
	if len(v.Extra) > 0 {
		fmt.Fprintf(w, "; it reports %v, which dfs does not", v.Extra)
	}
	if v.Broken > 0 {
		fmt.Fprintf(w, "; %d of its invariant checks failed (%v in the statistics)", v.Broken, explore.InvariantCounters)
	}
	fmt.Fprintln(w)
}

// progress returns a spinner on stderr when it is a terminal, else nil.
func progress(algo string) *progressbar.ProgressBar {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	return progressbar.NewOptions(-1, progressbar.OptionSetWriter(os.Stderr), progressbar.OptionSetDescription(algo),
		progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionSpinnerType(14))
}

func defineMap(defs []string) map[string]string {
	if len(defs) == 0 {
		return nil
	}
	m := map[string]string{}
	for _, d := range defs {
		k, v, ok := cutDefine(d)
		if ok {
			m[k] = v
		}
	}
	return m
}

func cutDefine(d string) (string, string, bool) {
	for i := 0; i < len(d); i++ {
		if d[i] == '=' {
			return d[:i], d[i+1:], true
		}
	}
	return d, "1", d != ""
}

// writeJSON writes one JSON line per finding and a final stats record,
// with the SV-COMP verdict if there is one.
func writeJSON(w io.Writer, res *explore.Result, verdict any) {
	enc := json.NewEncoder(w)
	for _, f := range res.Findings {
		_ = enc.Encode(struct {
			Type string `json:"type"`
			explore.Finding
		}{"finding", f})
	}
	findings := res.Findings
	if findings == nil {
		findings = []explore.Finding{}
	}
	_ = enc.Encode(struct {
		Type string `json:"type"`
		explore.Stats
		Findings []explore.Finding `json:"findings"`
		Verdict  any               `json:"svcomp,omitempty"`
	}{"stats", res.Stats, findings, verdict})
}
