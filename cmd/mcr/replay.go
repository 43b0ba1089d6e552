package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"mcr/program"
)

func init() { commands = append(commands, newReplayCmd) }

func newReplayCmd() *cobra.Command {
	var (
		schedule string
		defines  []string
		includes []string
		bounds   bounds
		mm       string
	)
	cmd := &cobra.Command{
		Use:   "replay FILE.c --schedule F",
		Short: "Re-run a program along a saved schedule and show the interleaving",
		Long: `replay executes FILE.c along the schedule saved by 'mcr check --schedule-out'
(the -D definitions saved with it are used unless -D is given; the input
values of __VERIFIER_nondet_* calls saved with it always, and so do the
options it was found with: --rand-inputs, --failing-locks,
--spurious-wakeups, --no-spin-await), prints the
interleaving and the outcome, and exits 1 if the run ends in a violation or
ends with the two racing accesses of a race schedule, 0 otherwise.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if schedule == "" {
				return badInput(fmt.Errorf("--schedule is required"))
			}
			sf, err := program.ReadScheduleFile(schedule)
			if err != nil {
				return badInput(err)
			}
			if len(defines) == 0 {
				for k, v := range sf.Defines {
					defines = append(defines, k+"="+v)
				}
			}
			bounds.randInputs = bounds.randInputs || sf.RandInputs
			bounds.failingLocks = bounds.failingLocks || sf.FailingLocks
			bounds.spurious = bounds.spurious || sf.SpuriousWakeups
			bounds.noSpinAwait = bounds.noSpinAwait || sf.NoSpinAwait
			ctx, stop := runContext(0) // Ctrl-C ends an execution that never ends
			defer stop()
			p, err := loadProgram(ctx, args[0], defines, includes, bounds)
			if err != nil {
				return err
			}
			if mm == "" {
				mm = sf.Model
			}
			if mm != "" {
				m, ok := program.ParseMemoryModel(mm)
				if !ok {
					return badInput(fmt.Errorf("--mm %q: want sc, tso or pso", mm))
				}
				if err := p.SetModel(m); err != nil {
					return badInput(err)
				}
			}
			if sf.UndefInputs {
				p = p.WithUndefInputs()
			}
			q := program.WithInputs(p, sf.Inputs)
			x, err := program.Replay(q, program.ResolveSchedule(q, sf.Steps))
			out := cmd.OutOrStdout()
			if err != nil {
				return badInput(fmt.Errorf("%s does not replay on %s: %v", schedule, args[0], err))
			}
			tr := x.Trace()
			if sf.Finding != "" {
				fmt.Fprintf(out, "replaying %s (%s)\n", schedule, sf.Finding)
			}
			if len(sf.Inputs) > 0 {
				fmt.Fprintf(out, "inputs (thread#k=value, absent ones 0): %s\n", inputText(sf.Inputs))
			}
			n := len(sf.Steps)
			_, outcome := x.Done()
			// A violation stops only its thread (program.Failer): the
			// interleaving is shown up to the first one; a deadlock is
			// shown whole.
			failures := program.Failures(x)
			switch {
			case len(failures) > 0:
				n = min(len(tr.Events), max(n, failures[0].Events))
			case outcome.Kind == program.Deadlock:
				n = len(tr.Events)
			}
			printInterleaving(out, tr, n)
			for _, f := range failures {
				fmt.Fprintf(out, "outcome: %s: %s at %s\n", f.Kind, f.Message, posText(tr, f.Pos))
			}
			if outcome.Kind == program.Deadlock {
				fmt.Fprintf(out, "outcome: %s: %s\n", outcome.Kind, outcome.Message)
			}
			if len(failures) > 0 || outcome.Kind == program.Deadlock {
				return &exitError{code: exitFinding}
			}
			if n >= 2 && program.Conflicts(program.MemoryAccess(tr.Events[n-2]), program.MemoryAccess(tr.Events[n-1])) {
				fmt.Fprintf(out, "outcome: data race: steps %d and %d access %s from different threads back to back\n", n-1, n, tr.LocName(tr.Events[n-1].Loc))
				return &exitError{code: exitFinding}
			}
			fmt.Fprintf(out, "outcome: %s\n", outcome.Kind)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&schedule, "schedule", "", "schedule file written by mcr check --schedule-out")
	fl.StringArrayVarP(&defines, "define", "D", nil, "define a macro (overrides the definitions saved in the schedule)")
	fl.StringArrayVarP(&includes, "include", "I", nil, "add an include directory")
	fl.StringVar(&mm, "mm", "", "memory model to replay under: sc, tso or pso (default: the schedule's, else sc)")
	addBoundFlags(fl, &bounds)
	return cmd
}
