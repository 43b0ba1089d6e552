package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"mcr/program"
	"mcr/program/explore"
)

// printReport writes the human-readable report of a check.
func printReport(w io.Writer, p program.Program, file string, defines []string, res *explore.Result) {
	s := res.Stats
	mm := ""
	if s.Model != "" {
		mm = ", memory model " + s.Model
	}
	fmt.Fprintf(w, "mcr check %s %s(algorithm %s%s)\n", file, defineText(defines), s.Algorithm, mm)
	for i, f := range res.Findings {
		fmt.Fprintf(w, "finding %d: %s: %s\n", i+1, f.Kind, f.Message)
		for _, l := range f.Locations {
			fmt.Fprintf(w, "  at %s\n", l)
		}
		printInputs(w, p, &f)
		if x, err := program.Replay(explore.FindingProgram(p, &f), f.Schedule); err == nil {
			fmt.Fprintln(w, "  interleaving:")
			printInterleaving(w, x.Trace(), len(f.Schedule))
		} else {
			fmt.Fprintf(w, "  (schedule does not replay: %v)\n", err)
		}
	}
	fmt.Fprintf(w, "statistics (%s): %d executions, %d reads-from classes, %d outcomes, %d blocked (%d classes), %d bounded, %d events, %.3fs\n",
		s.Algorithm, s.Executions, s.RFClasses, s.Outcomes, s.Blocked, s.BlockedClasses, s.Bounded, s.Events, s.Seconds)
	if len(s.Extra) > 0 {
		var keys []string
		for k := range s.Extra {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %g", k, s.Extra[k]))
		}
		fmt.Fprintf(w, "  %s\n", strings.Join(parts, ", "))
	}
	switch {
	case len(res.Findings) > 0 && !s.Complete && s.Stopped == "finding":
		fmt.Fprintf(w, "result: %d finding(s); stopped at the first (use --keep-going for all)\n", len(res.Findings))
	case len(res.Findings) > 0 && !s.Complete:
		// there may be more: say why, as without a finding
		fmt.Fprintf(w, "result: %d finding(s), but the search is incomplete: %s\n", len(res.Findings), incompleteReason(&s))
	case len(res.Findings) > 0:
		fmt.Fprintf(w, "result: %d finding(s)\n", len(res.Findings))
	case !s.Complete:
		fmt.Fprintf(w, "result: no finding, but the search is incomplete: %s\n", incompleteReason(&s))
	default:
		fmt.Fprintln(w, "result: no finding (search complete)")
	}
}

// incompleteReason says why an incomplete search is incomplete.
func incompleteReason(s *explore.Stats) string {
	why := s.Stopped
	if why == "" && s.Unmodelled != "" {
		why = "not every value explored: " + s.Unmodelled
	}
	if why == "" {
		why = "bounded executions (raise --max-events)"
		if s.BoundedBy != "" && !strings.Contains(s.BoundedBy, "event bound") {
			why = "bounded executions: " + s.BoundedBy // a tool limit: --max-events would not help
		}
	}
	return why
}

func defineText(defines []string) string {
	var b strings.Builder
	for _, d := range defines {
		b.WriteString("-D " + d + " ")
	}
	return b.String()
}

// printInterleaving prints the first n events of tr: step, thread, event,
// source line, value, and for reads the write they read from.
func printInterleaving(w io.Writer, tr *program.Trace, n int) {
	rf := program.RF(tr)
	if n > len(tr.Events) {
		n = len(tr.Events)
	}
	for i := 0; i < n; i++ {
		e := &tr.Events[i]
		line := fmt.Sprintf("    %4d  %-8s %-40s %s", i+1, tr.ThreadName(e.Thread), eventText(tr, i), posText(tr, e.Pos))
		if e.Kind == program.Read {
			if rf[i] < 0 {
				line += "  (reads the initial value)"
			} else {
				we := &tr.Events[rf[i]]
				line += fmt.Sprintf("  (reads from step %d, %s #%d)", rf[i]+1, tr.ThreadName(we.Thread), we.Index)
			}
		}
		fmt.Fprintln(w, line)
	}
}

func eventText(tr *program.Trace, i int) string {
	d := tr.Describe(i)
	// Describe starts with the thread and index; the table has its own columns.
	if k := strings.Index(d, " #"); k >= 0 {
		if j := strings.IndexByte(d[k+2:], ' '); j >= 0 {
			return fmt.Sprintf("#%s %s", d[k+2:k+2+j], d[k+3+j:])
		}
	}
	return d
}

// posText is where an event of tr comes from in a listing: "line 4:3" in
// the checked file, "inc.h:4:3" in a header it includes.
func posText(tr *program.Trace, p program.Pos) string {
	if t := tr.PosText(p); t != p.String() {
		return t
	}
	return "line " + p.String()
}
