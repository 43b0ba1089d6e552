package main

// This file implements `mcr predict TRACE`: races and null dereferences of
// one recorded trace, with witnesses (package mcr/predict).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"mcr/mcr/predict"
	"mcr/program/tracefile"
)

type predictFlags struct {
	format       string
	stdValues    bool
	decider      string
	workers      int
	window       int
	overlap      int
	states       int
	json         bool
	timeout      time.Duration
	qTimeout     time.Duration
	qMemory      int64
	qRlimit      int64
	maxQueries   int
	countQueries int
	maxQEvents   int
	readsFrom    bool
	noShortcuts  bool
	steps        int
}

func init() { commands = append(commands, newPredictCmd) }

func newPredictCmd() *cobra.Command {
	var f predictFlags
	cmd := &cobra.Command{
		Use:   "predict TRACE",
		Short: "Predict the data races and null dereferences of a recorded trace",
		Long: `predict reads one recorded execution (RAPID STD, the value format, or mcr's
JSON traces) and reports every data race (per pair of source locations) and
null dereference that some feasible reordering of it exhibits, under the
maximal causal model: every read executed before the race keeps its traced
value. Each finding comes with a witness schedule that an independent
checker has replayed. STD traces have no values: their reads keep the
writes they read from instead.

The trace is read window by window (--window new events each, 0 = all at
once; a rest of at most half a window joins the last one, so a trace of up
to 1.5 windows is analysed whole). A window keeps the trace before it in
place and analyses again the last --overlap events of the window before,
so pairs of events up to that far apart share a window. Pairs further apart
that must-happen-before and locks do not rule out are counted (far pairs):
while their location pair has no witness the result is incomplete, and
once it has one its counts are lower bounds ("at least").

Exit codes: 0 no finding, 1 finding, 2 bad input, 3 incomplete (timeout,
interruption, or a query cap left a location pair undecided).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runPredict(cmd, args[0], &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "", "trace format: std, vals or json (default: detected from the first line)")
	fl.BoolVar(&f.stdValues, "std-values", false, "the third STD field is the value read or written, not a location (focs-lab enum-input tests)")
	fl.StringVar(&f.decider, "decider", predict.Auto, "decider for race and null queries: "+predict.DeciderNames()+
		" (auto: explicit search within a state budget estimated per query, then z3, racing both when z3 is slow; both: ask both, report disagreements)")
	fl.IntVar(&f.states, "states", 0, "auto: states one explicit query may visit before z3 takes it over; 0 = estimated per query from its size, threads and locations")
	fl.IntVar(&f.workers, "workers", 0, "parallel workers, each with its own deciders (default: number of CPUs)")
	fl.IntVar(&f.window, "window", predict.DefaultWindow, "events per window; 0 = the whole trace")
	fl.IntVar(&f.overlap, "overlap", 0, "events at the end of each window that the next one analyses again, so that pairs up to that far apart share a window; 0 = half a window, -1 = none")
	fl.BoolVar(&f.json, "json", false, "write JSON lines (races, null dereferences, disagreements, then a final stats record)")
	fl.DurationVar(&f.timeout, "timeout", 0, "stop after this long (e.g. 30s, 5m); 0 = no limit")
	fl.DurationVar(&f.qTimeout, "query-timeout", time.Minute, "time limit of one decider query")
	fl.Int64Var(&f.qMemory, "query-memory", predict.DefaultQueryMemory>>20, "MiB of Go heap plus Z3 memory above which running decider queries are stopped (unknown; the explicit search and Z3 can grow fast); -1 = no limit")
	fl.Int64Var(&f.qRlimit, "query-rlimit", predict.DefaultQueryRlimit, "Z3 resource units (rlimit: deterministic solver steps, about one a microsecond) one z3 query may use before it gives up (unknown); 0 = no limit")
	fl.IntVar(&f.maxQueries, "max-queries", predict.DefaultMaxQueries, "decider queries per location pair and window while looking for its witness; -1 = no limit")
	fl.IntVar(&f.countQueries, "count-queries", predict.DefaultCountQueries, "decider queries per location pair and window for counting racy events once it has a witness (pairs left undecided make its counts lower bounds); -1 = no limit")
	fl.IntVar(&f.maxQEvents, "max-query-events", predict.DefaultMaxQueryEvents, "skip (leave undecided) queries whose sub-trace has more events; -1 = no limit")
	fl.BoolVar(&f.readsFrom, "reads-from", false, "keep every read's write (reads-from preservation) even if the trace has values")
	fl.BoolVar(&f.noShortcuts, "no-shortcuts", false, "send every candidate pair to the decider (for cross-checking deciders)")
	fl.IntVar(&f.steps, "steps", predict.DefaultWitnessTail, "last witness steps to describe per finding; -1 = all (JSON: \"tail\"; \"events\" always lists every step)")
	return cmd
}

func runPredict(cmd *cobra.Command, path string, f *predictFlags) error {
	switch f.format {
	case "", tracefile.FormatSTD, tracefile.FormatVals, tracefile.FormatJSON:
	default:
		return badInput(fmt.Errorf("unknown --format %q (want std, vals or json)", f.format))
	}
	if f.window < 0 {
		return badInput(fmt.Errorf("--window must be 0 or positive"))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	opts := predict.Options{Decider: f.decider, Workers: f.workers, Window: f.window, Overlap: f.overlap, States: f.states, QueryTimeout: f.qTimeout, QueryMemory: f.qMemory << 20, QueryRlimit: f.qRlimit,
		MaxQueries: f.maxQueries, CountQueries: f.countQueries, MaxQueryEvents: f.maxQEvents, ReadsFrom: f.readsFrom, NoShortcuts: f.noShortcuts, WitnessTail: f.steps}
	if f.states < 0 {
		return badInput(fmt.Errorf("--states must be 0 or positive"))
	}
	if f.maxQueries == 0 || f.countQueries == 0 {
		return badInput(fmt.Errorf("--max-queries and --count-queries must be positive or -1"))
	}
	bar := progress("predict")
	if bar != nil {
		opts.Progress = func(s predict.Stats) {
			bar.Describe(fmt.Sprintf("predict: %d events, %d windows, %d queries, %d racy events", s.Events, s.Windows, s.Queries, s.RacyEvents))
			_ = bar.Add(1)
		}
	}
	res, err := predict.File(ctx, path, tracefile.Options{Format: f.format, ThirdFieldIsValue: f.stdValues}, opts)
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		return badInput(err)
	}
	out := cmd.OutOrStdout()
	if f.json {
		writePredictJSON(out, res)
	} else {
		printPrediction(out, path, res)
	}
	switch {
	case len(res.Races)+len(res.NullDerefs) > 0:
		return &exitError{code: exitFinding}
	case !res.Stats.Complete:
		return &exitError{code: exitIncomplete}
	}
	return nil
}

// writePredictJSON writes one line per race, null dereference and
// disagreement, then a stats record with the numbers of each and, as
// check's has, the findings (races and null dereferences, each with its
// kind).
func writePredictJSON(w io.Writer, res *predict.Result) {
	enc := json.NewEncoder(w)
	findings := []any{}
	for _, r := range res.Races {
		findings = append(findings, struct {
			Kind string `json:"kind"`
			*predict.Race
		}{"race", r})
	}
	for _, n := range res.NullDerefs {
		findings = append(findings, struct {
			Kind string `json:"kind"`
			*predict.NullDeref
		}{"null-dereference", n})
	}
	for _, r := range res.Races {
		_ = enc.Encode(struct {
			Type string `json:"type"`
			*predict.Race
		}{"race", r})
	}
	for _, n := range res.NullDerefs {
		_ = enc.Encode(struct {
			Type string `json:"type"`
			*predict.NullDeref
		}{"null-dereference", n})
	}
	for _, d := range res.Disagreements {
		_ = enc.Encode(struct {
			Type string `json:"type"`
			*predict.Disagreement
		}{"disagreement", d})
	}
	_ = enc.Encode(struct {
		Type string `json:"type"`
		predict.Stats
		Races         int   `json:"races"`
		NullDerefs    int   `json:"null_derefs"`
		Disagreements int   `json:"disagreements_reported"`
		Findings      []any `json:"findings"`
	}{"stats", res.Stats, len(res.Races), len(res.NullDerefs), len(res.Disagreements), findings})
}

// printPrediction writes the human-readable report.
func printPrediction(w io.Writer, path string, res *predict.Result) {
	s := res.Stats
	window := "whole trace"
	if s.Window > 0 {
		window = fmt.Sprintf("windows of %d events", s.Window)
	}
	fmt.Fprintf(w, "mcr predict %s (%s, %s, decider %s, %s)\n", path, s.Format, s.Mode, s.Decider, window)
	for i, r := range res.Races {
		fmt.Fprintf(w, "race %d: %s / %s\n", i+1, r.Sites[0], r.Sites[1])
		fmt.Fprintf(w, "  threads: %s\n", strings.Join(r.Threads, ", "))
		fmt.Fprintf(w, "  accesses: %s\n            %s\n", r.Accesses[0], r.Accesses[1])
		fmt.Fprintf(w, "  racy events: %s%d (%d racing with an earlier event)\n", atLeast(r.AtLeast), r.RacyEvents, r.LaterEvents)
		printWitness(w, r.Witness, "the two accesses are next, both enabled")
	}
	for i, n := range res.NullDerefs {
		fmt.Fprintf(w, "null dereference %d: %s\n", i+1, n.Site)
		fmt.Fprintf(w, "  read: %s, can read null\n", n.Read)
		fmt.Fprintf(w, "  reads that can: %s%d\n", atLeast(n.AtLeast), n.Reads)
		printWitness(w, n.Witness, "the last read reads null")
	}
	for _, d := range res.Disagreements {
		var evs []string
		for _, e := range d.Events {
			evs = append(evs, e.String())
		}
		var ans []string
		for k, v := range d.Answers {
			ans = append(ans, k+": "+v)
		}
		sort.Strings(ans)
		fmt.Fprintf(w, "disagreement on %s query %s: %s\n", d.Query, strings.Join(evs, " / "), strings.Join(ans, "; "))
	}
	fmt.Fprintf(w, "statistics: %d events, %d threads, %d window(s) (largest %d events), %d accesses",
		s.Events, s.Threads, s.Windows, s.PeakWindow, s.Accesses)
	if s.Reentrant > 0 {
		fmt.Fprintf(w, "; %d nested lock operations dropped", s.Reentrant)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  pairs: %d conflicting, %d ordered by must-happen-before, %d under a common lock, %d candidates\n",
		s.Pairs, s.PrunedMHB, s.PrunedLockset, s.Candidates)
	fmt.Fprintf(w, "  candidates: %d must run in order, %d already known, %d by trace order, %d queried, %d undecided; %d co-enabled in the trace\n",
		s.MustOrder, s.Known, s.Fast, s.Queries, s.Undecided, s.Swept)
	if s.CountCapped > 0 {
		fmt.Fprintf(w, "  counting: %d pairs left undecided by --count-queries %d (counts are lower bounds)\n", s.CountCapped, s.CountCap)
	}
	fmt.Fprintf(w, "  queries: %d (%d sat, %d unsat, %d unknown", s.Queries, s.Sat, s.Unsat, s.Unknown)
	if s.MemoryStops > 0 {
		fmt.Fprintf(w, ", %d stopped by --query-memory", s.MemoryStops)
	}
	fmt.Fprintf(w, "), %d too big to ask, %d invalid witnesses, %d disagreements; %d dereferenced reads\n",
		s.TooBig, s.Invalid, s.Disagreements, s.NullReads)
	if s.FarPairs > 0 {
		fmt.Fprintf(w, "  far pairs (in no common window): %d; location pairs of them without a witness: %d\n", s.FarPairs, s.FarOpen)
	}
	fmt.Fprintf(w, "  time: %.3fs; %s; %s\n", s.Seconds, phaseText(s.Phases), solverText(s.Solver))
	switch {
	case len(res.Races)+len(res.NullDerefs) > 0:
		fmt.Fprintf(w, "result: %d race(s) (location pairs), %d racy events (%d racing with an earlier one, at %d locations), %d null dereference(s)%s\n",
			len(res.Races), s.RacyEvents, s.LaterEvents, s.LaterSites, len(res.NullDerefs), incompleteText(s))
	case !s.Complete:
		fmt.Fprintf(w, "result: no finding, but the prediction is incomplete: %s\n", s.Stopped)
	default:
		fmt.Fprintln(w, "result: no finding")
	}
}

func atLeast(b bool) string {
	if b {
		return "at least "
	}
	return ""
}

func incompleteText(s predict.Stats) string {
	if s.Complete {
		return ""
	}
	return "; incomplete: " + s.Stopped
}

// printWitness prints the described tail of a witness.
func printWitness(w io.Writer, wit predict.Witness, end string) {
	after := ""
	if wit.Start > 0 {
		after = fmt.Sprintf(", after the trace's first %d events", wit.Start)
	}
	fmt.Fprintf(w, "  witness (%d steps%s; %s):\n", len(wit.Events), after, end)
	first := len(wit.Events) // events before the tail; a window's synthetic steps are not in Events
	for _, s := range wit.Tail {
		if s.Event >= 0 {
			first--
		}
	}
	if first > 0 {
		fmt.Fprintf(w, "    ... %d steps\n", first)
	}
	for _, s := range wit.Tail {
		n := "-" // a window's synthetic step, not a trace event
		if s.Event >= 0 {
			first++
			n = fmt.Sprint(first)
		}
		fmt.Fprintf(w, "    %5s  %s\n", n, s)
	}
}

func phaseText(p map[string]float64) string {
	var parts []string
	for _, k := range []string{"read", "sweep", "candidates", "fast", "check"} {
		if v, ok := p[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %.3fs", k, v))
		}
	}
	return strings.Join(parts, ", ")
}

func solverText(m map[string]predict.SolverStats) string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		gave := ""
		if m[n].GaveUp > 0 {
			var why []string
			for _, r := range slices.Sorted(maps.Keys(m[n].Reasons)) {
				why = append(why, fmt.Sprintf("%d %s", m[n].Reasons[r], r))
			}
			gave = fmt.Sprintf(" (%d gave up: %s)", m[n].GaveUp, strings.Join(why, ", "))
		}
		lost := ""
		if m[n].Lost > 0 {
			lost = fmt.Sprintf(", %d lost the race", m[n].Lost)
		}
		parts = append(parts, fmt.Sprintf("%s %d calls (%d answered%s)%s %.3fs", n, m[n].Calls, m[n].Answered, lost, gave, m[n].Seconds))
	}
	return strings.Join(parts, ", ")
}
