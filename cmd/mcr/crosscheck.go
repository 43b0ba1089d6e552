package main

// This file implements `mcr crosscheck`: random consistency instances
// (program.RandomInstance), every backend on each, every witness validated,
// and a table of agreement and time per backend (DESIGN.md, "Correctness
// strategy"). Each failing instance is written to --out as an instance file
// whose comment records the answers, ready to become a regression test.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"mcr/parallel"
	"mcr/program"
)

type crosscheckFlags struct {
	mm, kind                      string
	count                         int
	seed                          uint64
	threads, events, vars, locks  string // "N" or "MIN-MAX"
	values                        int
	perturb                       string // a probability, or "auto"
	workers                       int
	out, backend                  string
	timeout                       time.Duration
	json                          bool
	threadsR, eventsR, varsR, lkR span
}

// span is an inclusive range of sizes; each instance draws uniformly.
type span struct{ lo, hi int }

func (s span) draw(rng *rand.Rand) int { return s.lo + rng.IntN(s.hi-s.lo+1) }

func (s span) String() string {
	if s.lo == s.hi {
		return strconv.Itoa(s.lo)
	}
	return fmt.Sprintf("%d-%d", s.lo, s.hi)
}

// parseSpan parses "N" or "MIN-MAX" with min <= N.
func parseSpan(flag, v string, min int) (span, error) {
	lo, hi, isRange := strings.Cut(v, "-")
	a, err1 := strconv.Atoi(strings.TrimSpace(lo))
	b, err2 := a, error(nil)
	if isRange {
		b, err2 = strconv.Atoi(strings.TrimSpace(hi))
	}
	if err1 != nil || err2 != nil || a < min || b < a || b > 1000 {
		return span{}, fmt.Errorf("--%s %q: want N or MIN-MAX with %d <= MIN <= MAX <= 1000", flag, v, min)
	}
	return span{a, b}, nil
}

// parseKind parses --kind.
func parseKind(v string) (program.Constraint, bool) {
	switch v {
	case "rf", "reads-from":
		return program.ReadsFrom, true
	case "goodwrites", "good", "good-writes":
		return program.GoodWrites, true
	}
	return 0, false
}

func init() { commands = append(commands, newCrosscheckCmd) }

func newCrosscheckCmd() *cobra.Command {
	var f crosscheckFlags
	cmd := &cobra.Command{
		Use:   "crosscheck",
		Short: "Decide random consistency instances with every backend and compare",
		Long: `crosscheck generates random consistency instances of one memory model and
constraint kind (realizable ones from random executions, unrealizable ones by
perturbing sources), decides each with every selected backend that supports
it, validates every witness, and prints per backend the agreement and the
time (median, p95, max). Every disagreement or invalid witness is written to
--out as an instance file for 'mcr verify'. Instance i of a run is the same
for every --workers.

Exit codes: 0 all agree, 1 disagreement or invalid witness, 2 bad input,
3 a backend could not decide or the run was interrupted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runCrosscheck(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.mm, "mm", "sc", "memory model: sc, tso or pso")
	fl.StringVar(&f.kind, "kind", "rf", "constraint kind: rf (reads-from) or goodwrites")
	fl.IntVar(&f.count, "count", 1000, "number of instances")
	fl.Uint64Var(&f.seed, "seed", 1, "random seed")
	fl.StringVar(&f.threads, "threads", "3", "threads per instance, N or MIN-MAX")
	fl.StringVar(&f.events, "events", "6", "events per thread before the random cut, N or MIN-MAX")
	fl.StringVar(&f.vars, "vars", "2", "memory locations, N or MIN-MAX")
	fl.StringVar(&f.locks, "locks", "1", "locks, N or MIN-MAX")
	fl.IntVar(&f.values, "values", 2, "distinct values written")
	fl.StringVar(&f.perturb, "perturb", "auto", "probability that an instance's sources are perturbed, then often unrealizable; auto: 0.6 for rf, 0.8 for goodwrites (about half of the instances unrealizable)")
	fl.IntVar(&f.workers, "workers", 0, "parallel workers (default: number of CPUs)")
	fl.StringVar(&f.out, "out", "crosscheck-failures", "directory for the instance files of failures")
	fl.StringVar(&f.backend, "backend", "all", backendHelp())
	fl.DurationVar(&f.timeout, "timeout", 10*time.Second, "time limit per backend and instance")
	fl.BoolVar(&f.json, "json", false, "write one JSON summary record to stdout")
	return cmd
}

// crossResult is what crosscheck keeps of one instance.
type crossResult struct {
	done   bool
	events int
	outs   []outcome // without witnesses
	j      judgement
	file   string // the failure's instance file, or ""
}

// crossFailure is one failing instance in the summary.
type crossFailure struct {
	Index    int      `json:"index"`
	File     string   `json:"file"`
	Problems []string `json:"problems"`
}

// backendStats is one row of the table.
type backendStats struct {
	Backend  string  `json:"backend"`
	Runs     int     `json:"runs"`
	Agree    int     `json:"agree"` // verdict equal to the reference verdict
	Unknown  int     `json:"unknown"`
	Invalid  int     `json:"invalid"`
	MedianMs float64 `json:"median_ms"`
	P95Ms    float64 `json:"p95_ms"`
	MaxMs    float64 `json:"max_ms"`
	TotalMs  float64 `json:"total_ms"`
	Note     string  `json:"note,omitempty"`
}

// crossSummary is the --json output of crosscheck.
type crossSummary struct {
	Type          string         `json:"type"`
	MM            string         `json:"mm"`
	Kind          string         `json:"kind"`
	Seed          uint64         `json:"seed"`
	Count         int            `json:"count"`
	Done          int            `json:"done"`
	Threads       string         `json:"threads"`
	EventsPer     string         `json:"events_per_thread"`
	Vars          string         `json:"vars"`
	Locks         string         `json:"locks"`
	MeanEvents    float64        `json:"mean_events"`
	Realizable    int            `json:"realizable"`
	Unrealizable  int            `json:"unrealizable"`
	Undecided     int            `json:"undecided"`
	Disagreements int            `json:"disagreements"`
	Invalid       int            `json:"invalid_witnesses"`
	Seconds       float64        `json:"seconds"`
	Backends      []backendStats `json:"backends"`
	Failures      []crossFailure `json:"failures"`
	Unknowns      []crossUnknown `json:"unknowns"`
}

// crossUnknown is one backend that could not decide one instance.
type crossUnknown struct {
	Index   int    `json:"index"`
	Backend string `json:"backend"`
	Error   string `json:"error"`
}

func runCrosscheck(cmd *cobra.Command, f *crosscheckFlags) error {
	m, ok := program.ParseMemoryModel(f.mm)
	if !ok {
		return badInput(fmt.Errorf("--mm %q: want sc, tso or pso", f.mm))
	}
	c, ok := parseKind(f.kind)
	if !ok {
		return badInput(fmt.Errorf("--kind %q: want rf or goodwrites", f.kind))
	}
	var err error
	for _, s := range []struct {
		flag, v string
		min     int
		dst     *span
	}{{"threads", f.threads, 1, &f.threadsR}, {"events", f.events, 1, &f.eventsR}, {"vars", f.vars, 1, &f.varsR}, {"locks", f.locks, 0, &f.lkR}} {
		if *s.dst, err = parseSpan(s.flag, s.v, s.min); err != nil {
			return badInput(err)
		}
	}
	perturb := map[program.Constraint]float64{program.ReadsFrom: 0.6, program.GoodWrites: 0.8}[c]
	if f.perturb != "auto" {
		if perturb, err = strconv.ParseFloat(f.perturb, 64); err != nil || perturb < 0 || perturb > 1 {
			return badInput(fmt.Errorf("--perturb %q: want a probability or auto", f.perturb))
		}
	}
	if f.count < 1 || f.values < 1 {
		return badInput(fmt.Errorf("--count and --values must be positive"))
	}
	sel, note, err := selectBackends(f.backend)
	if err != nil {
		return badInput(err)
	}
	run := supporting(sel, &program.Instance{Model: m, Constraint: c})
	if len(run) == 0 {
		return badInput(fmt.Errorf("no selected backend (%s) decides %s %s instances", f.backend, m, c))
	}
	if note != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), "mcr:", note)
	}
	ctx, stop := runContext(0) // per-backend / per-run limits apply inside
	defer stop()
	bar := countBar(f.count)
	start := time.Now()
	results := make([]crossResult, f.count)
	parallel.ForEach(ctx, parallel.Workers(f.workers), f.count, func(_, i int) {
		results[i] = crossOne(ctx, f, m, c, perturb, run, i)
		if bar != nil {
			_ = bar.Add(1)
		}
	})
	if bar != nil {
		_ = bar.Finish()
	}
	sum := summarize(f, m, c, run, results)
	sum.Seconds = time.Since(start).Seconds()
	out := cmd.OutOrStdout()
	if f.json {
		_ = json.NewEncoder(out).Encode(sum)
	} else {
		printCrosscheck(out, f, parallel.Workers(f.workers), sum)
	}
	switch {
	case len(sum.Failures) > 0:
		return &exitError{code: exitFinding}
	case sum.Done < sum.Count || sum.Undecided > 0 || slices.ContainsFunc(sum.Backends, func(b backendStats) bool { return b.Unknown > 0 }):
		return &exitError{code: exitIncomplete}
	}
	return nil
}

// crossOne generates instance i (from the seed and i alone), decides it
// with every backend of run, and writes it to f.out if they fail.
func crossOne(ctx context.Context, f *crosscheckFlags, m program.MemoryModel, c program.Constraint, perturb float64, run []backend, i int) crossResult {
	rng := rand.New(rand.NewPCG(f.seed, uint64(i)))
	o := program.RandomOptions{Threads: f.threadsR.draw(rng), Events: f.eventsR.draw(rng), Vars: f.varsR.draw(rng),
		Locks: f.lkR.draw(rng), Values: f.values, Model: m, Constraint: c, Perturb: perturb}
	inst, _ := program.RandomInstance(rng, o)
	inst.Name = fmt.Sprintf("crosscheck-%s-%s-seed%d-%d", m, c, f.seed, i)
	r := crossResult{events: inst.NumEvents()}
	for _, b := range run {
		r.outs = append(r.outs, decide(ctx, b, inst, f.timeout))
	}
	if ctx.Err() != nil {
		return r // interrupted: the answers may be cut short
	}
	r.done = true
	r.j = judge(r.outs, nil)
	if len(r.j.Problems) > 0 {
		r.file = writeFailure(f, inst, i, r)
	}
	for k := range r.outs {
		r.outs[k].Witness = nil
	}
	return r
}

// writeFailure writes inst to f.out with a comment that records the run,
// the problems and every answer, and returns the file name (or why it could
// not be written).
func writeFailure(f *crosscheckFlags, inst *program.Instance, i int, r crossResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mcr crosscheck --mm %s --kind %s --seed %d (instance %d): %s.", inst.Model, inst.Constraint, f.seed, i,
		strings.Join(r.j.Problems, "; "))
	for _, o := range r.outs {
		fmt.Fprintf(&b, " %s: %s", o.Backend, o.Verdict)
		if len(o.Witness) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(o.Witness, ", "))
		}
		if o.Error != "" {
			fmt.Fprintf(&b, " (%s)", o.Error)
		}
		b.WriteString(".")
	}
	data, err := program.EncodeInstance(inst)
	if err != nil {
		return "not written: " + err.Error()
	}
	comment, _ := json.Marshal(b.String())
	// EncodeInstance starts with "{\n"; the comment goes first.
	data = bytes.Replace(data, []byte("{\n"), append(append([]byte("{\n  \"comment\": "), comment...), ",\n"...), 1)
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return "not written: " + err.Error()
	}
	path := filepath.Join(f.out, inst.Name+".json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "not written: " + err.Error()
	}
	return path
}

func summarize(f *crosscheckFlags, m program.MemoryModel, c program.Constraint, run []backend, results []crossResult) crossSummary {
	s := crossSummary{Type: "crosscheck", MM: m.String(), Kind: f.kind, Seed: f.seed, Count: f.count,
		Threads: f.threadsR.String(), EventsPer: f.eventsR.String(), Vars: f.varsR.String(), Locks: f.lkR.String(),
		Failures: []crossFailure{}, Unknowns: []crossUnknown{}}
	if c == program.GoodWrites {
		s.Kind = "goodwrites"
	} else {
		s.Kind = "rf"
	}
	ms := make([][]float64, len(run))
	s.Backends = make([]backendStats, len(run))
	events := 0
	for i, r := range results {
		if !r.done {
			continue
		}
		s.Done++
		events += r.events
		switch r.j.Verdict {
		case realizable:
			s.Realizable++
		case unrealizable:
			s.Unrealizable++
		default:
			s.Undecided++
		}
		for k, o := range r.outs {
			st := &s.Backends[k]
			st.Runs++
			ms[k] = append(ms[k], o.Ms)
			switch {
			case o.Invalid != "":
				st.Invalid++
				s.Invalid++
			case o.Verdict == unknown:
				st.Unknown++
				s.Unknowns = append(s.Unknowns, crossUnknown{Index: i, Backend: o.Backend, Error: o.Error})
			case o.Verdict == r.j.Verdict:
				st.Agree++
			}
		}
		if len(r.j.Problems) > 0 {
			if slices.ContainsFunc(r.j.Problems, func(p string) bool { return strings.HasPrefix(p, "disagreement") }) {
				s.Disagreements++
			}
			s.Failures = append(s.Failures, crossFailure{Index: i, File: r.file, Problems: r.j.Problems})
		}
	}
	if s.Done > 0 {
		s.MeanEvents = float64(events) / float64(s.Done)
	}
	for k, b := range run {
		st := &s.Backends[k]
		st.Backend = b.Name
		x := slices.Clone(ms[k])
		slices.Sort(x)
		st.MedianMs, st.P95Ms = percentile(x, 0.5), percentile(x, 0.95)
		if len(x) > 0 {
			st.MaxMs = x[len(x)-1]
		}
		for _, v := range x {
			st.TotalMs += v
		}
		if b.Note != nil {
			st.Note = b.Note()
		}
	}
	return s
}

// percentile returns the nearest-rank p-quantile of sorted x (0 if empty).
func percentile(x []float64, p float64) float64 {
	if len(x) == 0 {
		return 0
	}
	k := int(math.Ceil(p*float64(len(x)))) - 1
	return x[max(k, 0)]
}

func printCrosscheck(w io.Writer, f *crosscheckFlags, workers int, s crossSummary) {
	fmt.Fprintf(w, "mcr crosscheck: %d of %d %s %s instances, seed %d; %s threads, %s events per thread (mean %.1f events), %s vars, %s locks; %d workers, %.1fs\n",
		s.Done, s.Count, s.MM, s.Kind, s.Seed, s.Threads, s.EventsPer, s.MeanEvents, s.Vars, s.Locks, workers, s.Seconds)
	pct := func(n int) float64 { return 100 * float64(n) / float64(max(s.Done, 1)) }
	fmt.Fprintf(w, "verdicts: %d realizable (%.1f%%), %d unrealizable (%.1f%%), %d undecided\n",
		s.Realizable, pct(s.Realizable), s.Unrealizable, pct(s.Unrealizable), s.Undecided)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "backend\truns\tagree\tunknown\tinvalid\tmedian ms\tp95 ms\tmax ms\ttotal s")
	for _, b := range s.Backends {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t%.1f\t%.1f\n", b.Backend, b.Runs, b.Agree, b.Unknown, b.Invalid,
			b.MedianMs, b.P95Ms, b.MaxMs, b.TotalMs/1000)
	}
	_ = tw.Flush()
	for _, b := range s.Backends {
		if b.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", b.Backend, b.Note)
		}
	}
	fmt.Fprintf(w, "disagreements: %d, invalid witnesses: %d\n", s.Disagreements, s.Invalid)
	for k, fl := range s.Failures {
		if k == 20 {
			fmt.Fprintf(w, "  ... %d more (see %s)\n", len(s.Failures)-k, f.out)
			break
		}
		fmt.Fprintf(w, "  instance %d -> %s: %s\n", fl.Index, fl.File, strings.Join(fl.Problems, "; "))
	}
	for k, u := range s.Unknowns {
		if k == 20 {
			fmt.Fprintf(w, "  ... %d more undecided\n", len(s.Unknowns)-k)
			break
		}
		fmt.Fprintf(w, "  instance %d: %s could not decide: %s\n", u.Index, u.Backend, u.Error)
	}
}

// countBar returns a progress bar on stderr when it is a terminal, else nil.
func countBar(n int) *progressbar.ProgressBar {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	return progressbar.NewOptions(n, progressbar.OptionSetWriter(os.Stderr), progressbar.OptionSetDescription("crosscheck"),
		progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionShowCount())
}
