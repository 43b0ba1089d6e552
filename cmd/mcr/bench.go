package main

// This file implements `mcr bench`: every testdata benchmark run that
// states its reads-from class count, with every chosen algorithm, as a
// table (or CSV, or JSON lines).

import (
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"mcr/mcr/registry"
	"mcr/program/cfront"
	"mcr/program/explore"
)

type benchFlags struct {
	algoFlags
	algos   []string
	filter  string
	dir     string
	csv     bool
	json    bool
	timeout time.Duration
}

func init() { commands = append(commands, newBenchCmd) }

func newBenchCmd() *cobra.Command {
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Run the testdata benchmarks with their known class counts and print a table",
		Long: `bench runs every testdata program run that states its number of reads-from
classes (testdata/c/*.json, "rf_classes"), at its listed sizes, big ones
included, with every chosen algorithm, and prints one row per run and
algorithm: benchmark, N, algorithm, executions, reads-from classes found,
reads-from classes expected, time, findings. dfs only runs what the
testdata marks as small enough for it.

rf counts acquires as reads of their mutex, so on programs with locks its
executions may exceed the reads-from classes dfs counts.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runBench(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&f.algos, "algo", nil, "algorithms, comma-separated (default: every implemented one but dfs): "+registry.Names())
	fl.StringVar(&f.filter, "filter", "", "only runs whose name (\"lastzero N=11\") matches this regular expression")
	fl.StringVar(&f.dir, "dir", "testdata/c", "directory of the benchmark programs and their .json expectations")
	fl.BoolVar(&f.csv, "csv", false, "write CSV")
	fl.BoolVar(&f.json, "json", false, "write one JSON object per row")
	fl.DurationVar(&f.timeout, "timeout", 0, "time limit per run (e.g. 30s); 0 = none")
	addAlgoFlags(fl, &f.algoFlags)
	f.qTimeout = time.Minute
	return cmd
}

// benchRow is one line of the table.
type benchRow struct {
	Benchmark  string   `json:"benchmark"`
	Defines    string   `json:"n"`
	Algorithm  string   `json:"algorithm"`
	Executions int      `json:"executions"`
	RFClasses  int      `json:"rf_classes"`
	Expected   int      `json:"expected_rf"` // -1: none for this memory model
	Seconds    float64  `json:"seconds"`
	Complete   bool     `json:"complete"`
	Stopped    string   `json:"stopped,omitempty"`
	Findings   []string `json:"findings"`
}

func runBench(cmd *cobra.Command, f *benchFlags) error {
	if f.csv && f.json {
		return badInput(fmt.Errorf("--csv and --json exclude each other"))
	}
	re, err := regexp.Compile(f.filter)
	if err != nil {
		return badInput(fmt.Errorf("--filter: %v", err))
	}
	names := f.algos
	if len(names) == 0 {
		cfg, err := f.algoFlags.config()
		if err != nil {
			return badInput(err)
		}
		for _, a := range registry.Algorithms() {
			if a.Run != nil && a.Name != "dfs" && slices.Contains(a.Models, cfg.Model) {
				names = append(names, a.Name)
			}
		}
		if len(names) == 0 {
			names = []string{"dfs"} // the only one under --mm tso, pso for now
		}
	}
	// --decider applies to the algorithms that ask decider queries; the
	// others run as they are (a column per algorithm, one flag for all).
	var algos []*explore.Algorithm
	var cfgs []explore.Config
	for _, n := range names {
		af := f.algoFlags
		if a, err := registry.Lookup(n); err == nil && len(a.Deciders) == 0 {
			af.decider = ""
		}
		a, c, err := lookupAlgo(n, &af)
		if err != nil {
			return err
		}
		algos, cfgs = append(algos, a), append(cfgs, c)
	}
	cases, err := explore.LoadCases(f.dir)
	if err != nil {
		return badInput(err)
	}
	if len(cases) == 0 {
		return badInput(fmt.Errorf("no benchmark expectations (*.json) in %s", f.dir))
	}
	ctx, stop := runContext(0) // per-backend / per-run limits apply inside
	defer stop()
	out := newBenchWriter(cmd.OutOrStdout(), f)
	for _, c := range cases {
		if c.RFClasses == nil || !re.MatchString(c.Name) {
			continue
		}
		p, err := loadProgram(ctx, c.File, c.DefineList(), nil, bounds{maxEvents: maxEventsOf(c), maxThreads: cfront.DefaultMaxThreads})
		if err != nil {
			return err
		}
		// every algorithm runs under the one --mm; the expectations are
		// for the case's model (testdata/c: SC)
		if err := p.SetModel(cfgs[0].Model); err != nil {
			return badInput(err)
		}
		expected := *c.RFClasses
		if cfgs[0].Model.String() != cmp.Or(c.MM, "sc") {
			expected = -1
		}
		for i, a := range algos {
			if a.Name == "dfs" && !c.For("dfs") {
				continue // too many interleavings
			}
			if ctx.Err() != nil {
				return out.flush()
			}
			rctx, cancel := ctx, context.CancelFunc(func() {})
			if f.timeout > 0 {
				rctx, cancel = context.WithTimeout(ctx, f.timeout)
			}
			p.StopWhen(rctx) // runs are sequential: no execution is running
			res := a.Explore(rctx, p, explore.Options{KeepGoing: true}, cfgs[i])
			cancel()
			s := res.Stats
			name, defs, _ := strings.Cut(c.Name, " ")
			if err := out.row(benchRow{Benchmark: name, Defines: defs, Algorithm: a.Name, Executions: s.Executions, RFClasses: s.RFClasses,
				Expected: expected, Seconds: s.Seconds, Complete: s.Complete, Stopped: s.Stopped, Findings: res.FindingKinds()}); err != nil {
				return err
			}
		}
	}
	return out.flush()
}

func maxEventsOf(c explore.Case) int {
	if c.MaxEvents > 0 {
		return c.MaxEvents
	}
	return cfront.DefaultMaxEvents
}

// benchWriter writes rows as CSV or JSON lines as they come, or as a table
// at the end.
type benchWriter struct {
	tw  *tabwriter.Writer
	cw  *csv.Writer
	enc *json.Encoder
}

var benchHeader = []string{"benchmark", "N", "algorithm", "executions", "rf classes", "expected rf", "time", "findings"}

func newBenchWriter(w io.Writer, f *benchFlags) *benchWriter {
	switch {
	case f.json:
		return &benchWriter{enc: json.NewEncoder(w)}
	case f.csv:
		b := &benchWriter{cw: csv.NewWriter(w)}
		_ = b.cw.Write(benchHeader)
		return b
	}
	b := &benchWriter{tw: tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)}
	fmt.Fprintln(b.tw, strings.Join(benchHeader, "\t")+"\t")
	return b
}

func (b *benchWriter) row(r benchRow) error {
	if r.Findings == nil {
		r.Findings = []string{}
	}
	switch {
	case b.enc != nil:
		return b.enc.Encode(r)
	case b.cw != nil:
		_ = b.cw.Write([]string{r.Benchmark, r.Defines, r.Algorithm, strconv.Itoa(r.Executions), strconv.Itoa(r.RFClasses),
			expectedText(r.Expected), strconv.FormatFloat(r.Seconds, 'f', 3, 64), strings.Join(r.Findings, " ")})
		b.cw.Flush()
		return b.cw.Error()
	}
	t := fmt.Sprintf("%.2fs", r.Seconds)
	if !r.Complete {
		t += " (" + r.Stopped + ")"
	}
	_, err := fmt.Fprintf(b.tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t\n", r.Benchmark, r.Defines, r.Algorithm, r.Executions, r.RFClasses,
		expectedText(r.Expected), t, strings.Join(r.Findings, " "))
	return err // the table is aligned and written at the end
}

// expectedText renders an expected count, "-" for none (-1: the case's
// counts are for another memory model than --mm).
func expectedText(n int) string {
	if n < 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

func (b *benchWriter) flush() error {
	if b.tw != nil {
		return b.tw.Flush()
	}
	return nil
}
