package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/svcomp"
)

// This file implements SV-COMP mode of mcr check: a task file or
// --property, one search per property, the verdict line and --witness.

// isTaskFile reports whether the argument of check is a task definition.
func isTaskFile(file string) bool {
	ext := strings.ToLower(filepath.Ext(file))
	return ext == ".yml" || ext == ".yaml"
}

// svRun is one property's check: what to decide and, after it, the verdict.
type svRun struct {
	task    *svcomp.Task // nil for a plain C file with --property
	prop    svcomp.TaskProperty
	many    bool // one of several properties checked: the verdict line names it
	verdict *svcomp.Verdict
	// compiled is shared by a task's runs: the program as the first search
	// loaded it; the others run on fresh copies (cfront.Program.Fresh)
	compiled **cfront.Program
}

// decide sets the verdict from the search's result. The schedules replay
// without the search's deadline, which may be over (a timeout) and would
// stop the replays; a replay is one execution, which the event and step
// bounds keep finite.
func (sv *svRun) decide(p *cfront.Program, res *explore.Result) {
	p.StopWhen(context.Background())
	sv.verdict = svcomp.Decide(sv.prop.Property, p, res)
	sv.verdict.Expect(sv.prop.Expected)
	sv.verdict.DataModel = sv.dataModel()
}

// dataModel is the task's data model; a plain C file is taken as LP64,
// the model mcr interprets.
func (sv *svRun) dataModel() string {
	if sv.task == nil {
		return "LP64"
	}
	return sv.task.DataModel
}

// jsonVerdict is the verdict for the JSON stats record (an untyped nil
// when there is none, so that the field is left out).
func (sv *svRun) jsonVerdict() any {
	if sv == nil || sv.verdict == nil {
		return nil
	}
	return sv.verdict
}

// print writes the verdict line, and the comparison with the expected
// verdict when the task gives one.
func (sv *svRun) print(w io.Writer) {
	if sv == nil || sv.verdict == nil {
		return
	}
	v := sv.verdict
	line := "SV-COMP verdict: " + v.String()
	if sv.many {
		line += " [" + v.Property + "]"
	}
	if v.Expected != "" {
		line += fmt.Sprintf("; expected: %s — %s", v.Expected, v.Match)
	}
	fmt.Fprintln(w, line)
}

// unsure sets the verdict UNKNOWN for reason, where no search ran, and
// prints it (a JSON record of type "verdict" with --json).
func (sv *svRun) unsure(out io.Writer, asJSON bool, reason string) {
	sv.verdict = svcomp.Unsure(sv.prop.Property, reason)
	sv.verdict.Expect(sv.prop.Expected)
	sv.verdict.DataModel = sv.dataModel()
	if asJSON {
		_ = json.NewEncoder(out).Encode(struct {
			Type    string          `json:"type"`
			Verdict *svcomp.Verdict `json:"svcomp"`
		}{"verdict", sv.verdict})
		return
	}
	sv.print(out)
}

// runTask checks the properties of a task file, or the --property of a
// plain C file, one search each, and writes the witness of the first FALSE
// verdict if --witness asks for it. The exit code is that of a plain
// check: 1 if some property is violated, else 3 if some verdict is
// UNKNOWN, else 0; 2 for bad input.
func runTask(cmd *cobra.Command, file string, f *checkFlags) error {
	if f.validate {
		return badInput(fmt.Errorf("--validate compares every kind of finding with dfs; it does not combine with a task file or --property"))
	}
	if _, _, err := lookupAlgo(f.algo, &f.algoFlags); err != nil {
		return err // a usage error, not a verdict about the program
	}
	runs, task, err := svRuns(file, f.property)
	if err != nil {
		return badInput(err)
	}
	for _, sv := range runs {
		sv.many = len(runs) > 1
	}
	out := cmd.OutOrStdout()
	prog, dataModel := file, "LP64"
	if task != nil {
		if len(task.Files) != 1 {
			return badInput(fmt.Errorf("%s: %d input files; mcr checks one", file, len(task.Files)))
		}
		prog, dataModel = task.Files[0], task.DataModel
		if dataModel == "" {
			dataModel = "LP64" // a format 1.0 task does not say: the model mcr interprets
		}
		if !f.json {
			fmt.Fprintf(out, "SV-COMP task %s: %s, data model %s\n", file, task.InputFiles[0], orNone(task.DataModel))
			if task.DataModel == "ILP32" {
				fmt.Fprintf(out, "  note: mcr interprets the program in LP64 (8-byte long and pointers), not %s\n", dataModel)
			}
		}
	}
	var errs []error
	var witnessed *svRun
	var compiled *cfront.Program
	for _, sv := range runs {
		if sv.prop.Property.Kind == "" { // nothing to search for
			sv.unsure(out, f.json, sv.prop.Property.Unsupported)
			errs = append(errs, &exitError{code: exitIncomplete})
			continue
		}
		sv.compiled = &compiled
		err := checkProgram(cmd, prog, f, sv)
		var ee *exitError
		if errors.As(err, &ee) && ee.code == exitBadInput {
			// the program is refused: every property's verdict is UNKNOWN
			for _, sv := range runs {
				sv.unsure(out, f.json, "refused: "+ee.err.Error())
			}
			return err
		}
		errs = append(errs, err)
		if witnessed == nil && sv.verdict != nil && sv.verdict.Result == svcomp.False {
			witnessed = sv
		}
	}
	if f.witness != "" {
		if err := writeWitness(out, f, witnessed, prog, dataModel, task); err != nil {
			return badInput(err)
		}
	}
	return worstExit(errs)
}

// svRuns lists the properties to check of file: those of the task (or
// the one --property names), or --property for a plain C file.
func svRuns(file, property string) ([]*svRun, *svcomp.Task, error) {
	if !isTaskFile(file) {
		if property == "" {
			return nil, nil, fmt.Errorf("--witness needs a property: give a task file or --property")
		}
		p, err := svcomp.ReadProperty(property)
		if err != nil {
			return nil, nil, err
		}
		return []*svRun{{prop: svcomp.TaskProperty{File: property, Property: p}}}, nil, nil
	}
	task, err := svcomp.LoadTask(file)
	if err != nil {
		return nil, nil, err
	}
	var runs []*svRun
	for _, tp := range task.Properties {
		if property == "" || property == tp.File || property == filepath.Base(tp.File) ||
			property == tp.Property.Name || filepath.Base(property) == filepath.Base(tp.File) {
			runs = append(runs, &svRun{task: task, prop: tp})
		}
	}
	if len(runs) == 0 {
		return nil, nil, fmt.Errorf("%s has no property %s", file, property)
	}
	return runs, task, nil
}

// writeWitness writes the violation witness of sv's verdict (nil: no
// FALSE verdict, no witness).
func writeWitness(out io.Writer, f *checkFlags, sv *svRun, prog, dataModel string, task *svcomp.Task) error {
	if sv == nil {
		if !f.json {
			fmt.Fprintf(out, "no violation witness written: no property is violated\n")
		}
		return nil
	}
	wt := svcomp.WitnessTask{InputFiles: []string{prog}, Files: []string{prog}, DataModel: dataModel, Producer: "mcr", Version: version}
	if task != nil {
		wt.InputFiles, wt.Files = task.InputFiles, task.Files
	}
	if err := svcomp.WriteWitness(f.witness, wt, sv.prop.Property, sv.verdict); err != nil {
		return fmt.Errorf("--witness: %v", err)
	}
	if !f.json {
		fmt.Fprintf(out, "violation witness (%s) written to %s\n", sv.verdict, f.witness)
	}
	return nil
}

func orNone(dataModel string) string {
	if dataModel == "" {
		return "not given (format 1.0; checked as LP64)"
	}
	return dataModel
}

// worstExit combines the exit errors of several checks: a finding wins,
// then an incomplete search.
func worstExit(errs []error) error {
	var worst error
	rank := func(err error) int {
		var ee *exitError
		switch {
		case err == nil:
			return 0
		case !errors.As(err, &ee):
			return 4
		case ee.code == exitFinding:
			return 3
		case ee.code == exitIncomplete:
			return 2
		case ee.code == exitOK:
			return 0
		}
		return 5 // bad input
	}
	for _, err := range errs {
		if rank(err) > rank(worst) {
			worst = err
		}
	}
	return worst
}

// unknown reports whether the run decided its property as UNKNOWN (a
// complete search can prove nothing: svcomp.Decide); false without one.
func (sv *svRun) unknown() bool {
	return sv != nil && sv.verdict != nil && sv.verdict.Result == svcomp.Unknown
}

// exploreThreadStages is exploreInputs for a verdict, with the thread
// bound raised in stages: 2, 4, 8, ... threads, then p's own bound. A
// thread created beyond a stage's bound never runs (cfront's
// threadbound.go), so each stage explores prefixes of real runs, and a
// finding in one is real; a program that creates thousands of threads
// (goblint-regression's races-as-reachability tasks) has its violation
// found among few threads in a fraction of a second, where the full bound
// spent the whole time on interleavings of 31 threads. A stage ends the
// search when it found something, when it was complete (it never reached
// its bound), or when it was cut by something else than the thread bound
// (more threads would not help); otherwise the next stage runs, or the
// last one if the next would run every thread this one's executions
// tried to start. A stage
// before the last has an eighth of the time left; if it spends it, the
// last stage (p's bound) gets the rest, so that a program whose search
// is long at every bound loses little (a quarter cost SV-COMP's
// workstealqueue_mutex-1 its FALSE at 20 s). The result and statistics are those of the
// stage that ended the search; Extra["thread_bound_stages"] counts the
// stages before it.
// undef says whether the program returned, the one the findings replay
// on, reads uninitialised locals as inputs (exploreInputs's q != p).
func exploreThreadStages(ctx context.Context, algo *explore.Algorithm, p *cfront.Program, opts explore.Options, cfg explore.Config, f *inputFlags) (res *explore.Result, q *cfront.Program, undef bool, err error) {
	stages := 0
	for b := 2; b < p.MaxThreads(); b *= 2 {
		sctx, cancel := ctx, context.CancelFunc(func() {})
		if d, ok := ctx.Deadline(); ok {
			sctx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(d)/8))
		}
		s := p.WithMaxThreads(b)
		s.StopWhen(sctx)
		res, r, err := exploreInputs(sctx, algo, s, opts, cfg, f)
		spent := sctx.Err() != nil
		cancel()
		if err != nil {
			return nil, r, r != s, err
		}
		stages++
		if len(res.Findings) > 0 || res.Stats.Complete || ctx.Err() != nil || !spent && !s.ThreadBoundHit() {
			r.StopWhen(ctx) // the finding's replays run under the whole search's context
			return withStages(res, stages-1), r, r != s, nil
		}
		if spent || s.ThreadsAttempted() <= 2*b {
			// the stage's time is up, or the next stage would run every
			// thread the program tried to start: the full bound gets the rest
			break
		}
	}
	res, r, err := exploreInputs(ctx, algo, p, opts, cfg, f)
	if res != nil {
		withStages(res, stages)
	}
	return res, r, r != p, err
}

// withStages notes n thread-bound stages before res's search.
func withStages(res *explore.Result, n int) *explore.Result {
	if n > 0 {
		if res.Stats.Extra == nil {
			res.Stats.Extra = map[string]float64{}
		}
		res.Stats.Extra["thread_bound_stages"] = float64(n)
	}
	return res
}
