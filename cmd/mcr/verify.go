package main

// This file implements `mcr verify`, which decides one consistency
// instance with every backend and compares the answers, and the backend
// table and comparison it shares with `mcr crosscheck` (crosscheck.go).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"mcr/encode"
	"mcr/encode/z3"
	"mcr/explicit"
	"mcr/program"
)

// backend is one consistency decider of verify and crosscheck.
type backend struct {
	Name     string // "z3", "verifysc", ..., "naive"
	Group    string // the --backend group that selects it: "z3", "explicit" or "naive"
	Doc      string
	Supports func(*program.Instance) bool
	New      func(timeout time.Duration) program.Decider
	// Note, if not nil, describes what the backend did so far (for
	// crosscheck's summary).
	Note func() string
}

// backends returns the table of backends: Z3 and the explicit registry,
// the polynomial deciders in group "explicit" and the baseline in
// "naive". It is a variable only so that tests can add a faulty backend.
var backends = allBackends

func allBackends() []backend {
	var out []backend
	for _, noProp := range []bool{false, true} {
		b := backend{Name: "z3", Group: "z3", Doc: encode.Z3Doc, Supports: func(*program.Instance) bool { return true }}
		if noProp {
			b.Name, b.Doc = "z3-noprop", "the same encoding sent whole to Z3, without unit propagation"
		}
		st := &encode.Z3Stats{}
		b.New = func(t time.Duration) program.Decider {
			return &encode.Z3Decider{Timeout: t, NoPropagate: noProp, Stats: st}
		}
		b.Note = func() string {
			return fmt.Sprintf("Z3 called on %d of %d instances (the others were decided before the solver)", st.Solved.Load(), st.Encoded.Load())
		}
		out = append(out, b)
	}
	for _, info := range explicit.Deciders() {
		g := "explicit"
		if info.Name == "naive" {
			g = "naive"
		}
		out = append(out, backend{Name: info.Name, Group: g, Doc: info.Doc, Supports: info.Supports,
			New: func(time.Duration) program.Decider { return info.New() }})
	}
	return out
}

// backendHelp is the --backend flag's help text.
func backendHelp() string {
	var names []string
	for _, b := range backends() {
		names = append(names, b.Name)
	}
	return "comma-separated backends: all, z3 (both Z3 variants), explicit (the polynomial deciders), naive, or a name (" +
		strings.Join(names, ", ") + ")"
}

// selectBackends parses --backend. Without Z3, "all" leaves z3 out (note
// says so) and naming z3 is an error.
func selectBackends(spec string) (sel []backend, note string, err error) {
	all := backends()
	want := map[string]bool{}
	for _, w := range strings.Split(spec, ",") {
		w = strings.TrimSpace(w)
		found := w == "all"
		for _, b := range all {
			if w == b.Group || w == b.Name {
				found = true
			}
		}
		if !found {
			return nil, "", fmt.Errorf("unknown backend %q (%s)", w, backendHelp())
		}
		want[w] = true
	}
	for _, b := range all {
		if !want["all"] && !want[b.Group] && !want[b.Name] {
			continue
		}
		if b.Group == "z3" && !z3.Available() {
			if !want["all"] {
				return nil, "", z3.ErrNotBuilt
			}
			note = b.Name + " left out: " + z3.ErrNotBuilt.Error()
			continue
		}
		sel = append(sel, b)
	}
	return sel, note, nil
}

// supporting returns the backends of sel that decide inst.
func supporting(sel []backend, inst *program.Instance) []backend {
	var out []backend
	for _, b := range sel {
		if b.Supports(inst) {
			out = append(out, b)
		}
	}
	return out
}

// Verdicts of an outcome.
const (
	realizable   = "realizable"
	unrealizable = "unrealizable"
	unknown      = "unknown" // the backend failed: timeout, error, panic
)

// outcome is one backend's answer on one instance.
type outcome struct {
	Backend string   `json:"backend"`
	Verdict string   `json:"verdict"`
	Witness []string `json:"witness,omitempty"`
	// Invalid is why the witness failed program.ValidateWitness ("" if it
	// passed or there is none).
	Invalid string  `json:"invalid,omitempty"`
	Error   string  `json:"error,omitempty"`
	Ms      float64 `json:"ms"`
}

// decide runs b on inst with a time limit and validates its witness. A
// panic of the backend becomes an error outcome: it is a bug to report,
// not a reason to lose the other answers.
func decide(ctx context.Context, b backend, inst *program.Instance, timeout time.Duration) (o outcome) {
	o.Backend = b.Name
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	start := time.Now()
	defer func() {
		o.Ms = float64(time.Since(start).Microseconds()) / 1000
		if p := recover(); p != nil {
			o.Verdict, o.Error, o.Witness = unknown, fmt.Sprintf("panic: %v", p), nil
		}
	}()
	d := b.New(timeout)
	if c, ok := d.(interface{ Close() }); ok {
		defer c.Close() // Z3's contexts live outside the Go heap: free them now
	}
	a, err := d.Decide(ctx, inst)
	switch {
	case err != nil:
		o.Verdict, o.Error = unknown, err.Error()
	case !a.Sat:
		o.Verdict = unrealizable
	default:
		o.Verdict = realizable
		o.Witness = make([]string, len(a.Witness))
		for k, s := range a.Witness {
			o.Witness[k] = inst.StepString(s)
		}
		if err := program.ValidateWitness(inst, a.Witness); err != nil {
			o.Invalid = err.Error()
		}
	}
	return o
}

// judgement compares the outcomes on one instance.
type judgement struct {
	// Verdict is the reference verdict: naive's if it decided (the
	// baseline), else the majority's, else unknown.
	Verdict string `json:"verdict"`
	// Problems lists disagreements, invalid witnesses, panics and
	// contradicted expectations, one sentence each.
	Problems []string `json:"problems"`
	Unknown  int      `json:"unknown"` // backends that could not decide
}

// judge compares outs; expect is the verdict the instance file states, or
// nil.
func judge(outs []outcome, expect *bool) judgement {
	j := judgement{Verdict: unknown, Problems: []string{}}
	count := map[string]int{}
	for _, o := range outs {
		switch {
		case o.Verdict == unknown:
			j.Unknown++
			if strings.HasPrefix(o.Error, "panic: ") {
				j.Problems = append(j.Problems, fmt.Sprintf("%s: %s", o.Backend, o.Error))
			}
		case o.Invalid != "":
			j.Problems = append(j.Problems, fmt.Sprintf("%s returned an invalid witness: %s", o.Backend, o.Invalid))
		default:
			count[o.Verdict]++
			if o.Backend == "naive" {
				j.Verdict = o.Verdict
			}
		}
	}
	if j.Verdict == unknown && count[realizable]+count[unrealizable] > 0 {
		j.Verdict = realizable
		if count[unrealizable] > count[realizable] {
			j.Verdict = unrealizable
		}
	}
	if count[realizable] > 0 && count[unrealizable] > 0 {
		var yes, no []string
		for _, o := range outs {
			switch {
			case o.Invalid != "":
			case o.Verdict == realizable:
				yes = append(yes, o.Backend)
			case o.Verdict == unrealizable:
				no = append(no, o.Backend)
			}
		}
		j.Problems = append(j.Problems, fmt.Sprintf("disagreement: %s realizable, %s unrealizable", say(yes), say(no)))
	}
	if expect != nil && j.Verdict != unknown && (j.Verdict == realizable) != *expect {
		want := unrealizable
		if *expect {
			want = realizable
		}
		j.Problems = append(j.Problems, fmt.Sprintf("the instance file expects %s, the backends say %s", want, j.Verdict))
	}
	return j
}

// say is "a says" or "a, b say".
func say(names []string) string {
	if len(names) == 1 {
		return names[0] + " says"
	}
	return strings.Join(names, ", ") + " say"
}

type verifyFlags struct {
	backend string
	mm      string
	json    bool
	timeout time.Duration
}

func init() { commands = append(commands, newVerifyCmd) }

func newVerifyCmd() *cobra.Command {
	var f verifyFlags
	cmd := &cobra.Command{
		Use:   "verify INSTANCE.json",
		Short: "Decide a consistency instance with every backend and compare the answers",
		Long: `verify reads a consistency instance (program/INSTANCES.md), decides it with
each selected backend that supports its memory model and constraint kind,
validates every witness with the shared validator, and prints per backend the
verdict, the witness and the time. The instance file's "expect" verdict, if
any, is checked too.

Exit codes: 0 the backends agree, 1 disagreement, invalid witness or
contradicted expectation, 2 bad input, 3 a backend could not decide.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runVerify(cmd, args[0], &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.backend, "backend", "all", backendHelp())
	fl.StringVar(&f.mm, "mm", "", "decide under this memory model (sc, tso, pso) instead of the file's")
	fl.BoolVar(&f.json, "json", false, "write one JSON record to stdout")
	fl.DurationVar(&f.timeout, "timeout", time.Minute, "time limit per backend")
	return cmd
}

// verifyRecord is the --json output of verify.
type verifyRecord struct {
	Type       string    `json:"type"`
	File       string    `json:"file"`
	Instance   string    `json:"instance"`
	MM         string    `json:"mm"`
	Constraint string    `json:"constraint"`
	Threads    int       `json:"threads"`
	Events     int       `json:"events"`
	Expect     *bool     `json:"expect"`
	Results    []outcome `json:"results"`
	judgement
}

func runVerify(cmd *cobra.Command, file string, f *verifyFlags) error {
	sel, note, err := selectBackends(f.backend)
	if err != nil {
		return badInput(err)
	}
	inst, err := program.ReadInstanceFile(file)
	if err != nil {
		return badInput(err) // names the file (os.ReadFile, DecodeInstance)
	}
	if f.mm != "" {
		m, ok := program.ParseMemoryModel(f.mm)
		if !ok {
			return badInput(fmt.Errorf("--mm %q: want sc, tso or pso", f.mm))
		}
		inst.Model = m
	}
	run := supporting(sel, inst)
	if len(run) == 0 {
		return badInput(fmt.Errorf("%s: no selected backend (%s) decides %s %s instances", file, f.backend, inst.Model, inst.Constraint))
	}
	if note != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), "mcr:", note)
	}
	ctx, stop := runContext(0) // per-backend / per-run limits apply inside
	defer stop()
	var outs []outcome
	for _, b := range run {
		outs = append(outs, decide(ctx, b, inst, f.timeout))
	}
	var expect *bool
	if v, ok := inst.Expect[inst.Model]; ok {
		expect = &v
	}
	j := judge(outs, expect)
	out := cmd.OutOrStdout()
	if f.json {
		_ = json.NewEncoder(out).Encode(verifyRecord{Type: "verify", File: file, Instance: inst.Name, MM: inst.Model.String(),
			Constraint: inst.Constraint.String(), Threads: len(inst.Threads), Events: inst.NumEvents(), Expect: expect,
			Results: outs, judgement: j})
	} else {
		printVerify(out, file, inst, outs, j, expect)
	}
	switch {
	case len(j.Problems) > 0:
		return &exitError{code: exitFinding}
	case j.Unknown > 0:
		return &exitError{code: exitIncomplete}
	}
	return nil
}

func printVerify(w io.Writer, file string, inst *program.Instance, outs []outcome, j judgement, expect *bool) {
	fmt.Fprintf(w, "mcr verify %s: %s, %s, %d threads, %d events\n", file, inst.Model, constraintName(inst.Constraint),
		len(inst.Threads), inst.NumEvents())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, o := range outs {
		detail := strings.Join(o.Witness, " ")
		switch {
		case o.Error != "":
			detail = o.Error
		case o.Invalid != "":
			detail += "\n    INVALID: " + o.Invalid
		}
		if detail != "" {
			detail = "\t" + detail
		}
		fmt.Fprintf(tw, "  %s\t%s\t%.3f ms%s\n", o.Backend, o.Verdict, o.Ms, detail)
	}
	_ = tw.Flush()
	for _, p := range j.Problems {
		fmt.Fprintf(w, "PROBLEM: %s\n", p)
	}
	decided := len(outs) - j.Unknown
	var parts []string
	if len(j.Problems) == 0 && decided > 1 {
		parts = append(parts, fmt.Sprintf("%d backends agree", decided))
	}
	if j.Unknown > 0 {
		parts = append(parts, fmt.Sprintf("%d undecided", j.Unknown))
	}
	if expect != nil {
		parts = append(parts, fmt.Sprintf("expected %v", map[bool]string{true: realizable, false: unrealizable}[*expect]))
	}
	suffix := ""
	if len(parts) > 0 {
		suffix = " (" + strings.Join(parts, "; ") + ")"
	}
	fmt.Fprintf(w, "result: %s%s\n", j.Verdict, suffix)
}

// constraintName names a constraint kind in reports.
func constraintName(c program.Constraint) string {
	if c == program.GoodWrites {
		return "good writes"
	}
	return "reads-from"
}
