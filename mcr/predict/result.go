package predict

// This file implements the result of a prediction: races per location pair,
// null dereferences per site, disagreements between deciders, statistics.

import (
	"fmt"
	"time"
)

// Result is what a prediction found. Races and NullDerefs are sorted by
// site.
type Result struct {
	Races         []*Race         `json:"races"`
	NullDerefs    []*NullDeref    `json:"null_derefs"`
	Disagreements []*Disagreement `json:"disagreements"`
	Stats         Stats           `json:"stats"`
}

// Site is where an event comes from: a source position when the trace has
// one (Line > 0), else the variable it accesses (Var).
type Site struct {
	Line int32  `json:"line,omitempty"`
	Col  int32  `json:"col,omitempty"`
	Var  string `json:"var,omitempty"`
}

func (s Site) String() string {
	switch {
	case s.Line > 0 && s.Col > 0:
		return fmt.Sprintf("line %d:%d", s.Line, s.Col)
	case s.Line > 0:
		return fmt.Sprintf("line %d", s.Line)
	}
	return s.Var
}

func (s Site) less(t Site) bool {
	if s.Line != t.Line {
		return s.Line < t.Line
	}
	if s.Col != t.Col {
		return s.Col < t.Col
	}
	return s.Var < t.Var
}

// Step is one event of a trace as reports show it.
type Step struct {
	// Event is the event's 0-based number in the trace file (events only,
	// skipped lines not counted); -1 for the synthetic events of a window
	// (window.go).
	Event  int64  `json:"event"`
	Thread string `json:"thread"`
	// Index is the event's position within its thread over the whole
	// trace, as the trace reader numbers them.
	Index int32  `json:"index"`
	Kind  string `json:"kind"`
	// Arg is the variable, lock or other thread of the event.
	Arg string `json:"arg,omitempty"`
	// Value is the traced value of a read or write; nil when the trace has
	// no values.
	Value *int64 `json:"value,omitempty"`
	Line  int32  `json:"line,omitempty"`
	Col   int32  `json:"col,omitempty"`
}

func (s Step) String() string {
	out := fmt.Sprintf("%s #%d %s", s.Thread, s.Index, s.Kind)
	if s.Arg != "" {
		out += " " + s.Arg
	}
	if s.Value != nil {
		out += fmt.Sprintf(" = %d", *s.Value)
	}
	if s.Line > 0 {
		out += fmt.Sprintf(" (%s)", Site{Line: s.Line, Col: s.Col})
	}
	return out
}

// Witness is a schedule exhibiting a finding: after the first Start events
// of the trace, in trace order, execute the events numbered Events, in
// order. For a race the last two are the racing events, both enabled (not
// executed); for a null dereference the last is the read, which then reads
// 0. The window's synthetic events (window.go) are left out: on the whole
// trace the real events they stand for are in the schedule. The checker of
// witness.go replayed it before it was reported.
type Witness struct {
	Start  int64   `json:"start"`
	Events []int64 `json:"events"`
	// Tail describes the last steps (Options.WitnessTail of them).
	Tail []Step `json:"tail"`
}

// Race is a data race between two location sites.
type Race struct {
	// Sites is the location pair, Sites[0] <= Sites[1].
	Sites [2]Site `json:"sites"`
	// Accesses are the two racing events of the witness.
	Accesses [2]Step `json:"accesses"`
	// Threads are the threads of the racy events of this pair.
	Threads []string `json:"threads"`
	Witness Witness  `json:"witness"`
	// RacyEvents counts the events that race with some event of this
	// location pair; LaterEvents those that race with an earlier event.
	RacyEvents  int64 `json:"racy_events"`
	LaterEvents int64 `json:"later_events"`
	// AtLeast reports that some candidate pairs were left undecided (query
	// cap, timeout, unknown answers): the counts are lower bounds.
	AtLeast bool `json:"at_least"`
}

// NullDeref is a dereferenced read that can read null.
type NullDeref struct {
	Site Site `json:"site"`
	// Read is the read of the witness, with its traced (non-null) value.
	Read    Step    `json:"read"`
	Witness Witness `json:"witness"`
	// Reads counts the dereferenced reads of this site shown to read null.
	Reads   int64 `json:"reads"`
	AtLeast bool  `json:"at_least"`
}

// Disagreement is a query on which the deciders of --decider both differ,
// or whose satisfying schedule the witness checker rejected.
type Disagreement struct {
	Query   string            `json:"query"` // "race" or "null-dereference"
	Events  []Step            `json:"events"`
	Answers map[string]string `json:"answers"` // decider -> "sat", "unsat", "unknown: ...", "invalid witness: ..."
}

// Stats are the statistics of a prediction. Counts of pairs are over
// windows; times are summed over workers.
type Stats struct {
	File    string `json:"file"`
	Format  string `json:"format"`
	Mode    string `json:"mode"` // "values" or "reads-from"
	Decider string `json:"decider"`
	Window  int    `json:"window"`

	Events   int64 `json:"events"`
	Threads  int   `json:"threads"`
	Windows  int   `json:"windows"`
	Accesses int64 `json:"accesses"`
	// Reentrant counts nested acquires and their releases, which change
	// nothing and are dropped.
	Reentrant int64 `json:"reentrant,omitempty"`

	// Pairs counts conflicting pairs of different threads within a window;
	// PrunedMHB of them are ordered by must-happen-before, PrunedLockset
	// hold a common lock; the rest are Candidates.
	Pairs         int64 `json:"pairs"`
	PrunedMHB     int64 `json:"pruned_mhb"`
	PrunedLockset int64 `json:"pruned_lockset"`
	Candidates    int64 `json:"candidates"`
	// MustOrder candidates cannot race: every feasible prefix that
	// enables one executes the other (cone.go, forced.go).
	MustOrder int64 `json:"must_order"`
	// How the other candidates were settled: Known were skipped because their
	// events were already known to race; Swept and Fast were shown racy by
	// the shortcuts of sweep.go (co-enabled along a schedule, trace
	// order); the others were queried or left Undecided.
	Known     int64 `json:"known"`
	Swept     int64 `json:"swept"`
	Fast      int64 `json:"fast"`
	Undecided int64 `json:"undecided"`
	// CountCap is the cap on counting queries per location pair and window
	// (Options.CountQueries, -1: none); CountCapped counts the Undecided
	// pairs it left, whose location pairs' counts are lower bounds.
	CountCap    int   `json:"count_cap"`
	CountCapped int64 `json:"count_capped"`

	Queries int64 `json:"queries"`
	Sat     int64 `json:"sat"`
	Unsat   int64 `json:"unsat"`
	Unknown int64 `json:"unknown"`
	// TooBig counts queries not asked because their sub-trace exceeded
	// Options.MaxQueryEvents (their pairs are undecided, not in Queries).
	TooBig int64 `json:"too_big"`
	// MemoryStops counts queries cancelled because the Go heap and Z3's
	// memory together exceeded Options.QueryMemory (they are among the
	// Unknown).
	MemoryStops int64 `json:"memory_stops,omitempty"`
	// Invalid counts satisfying answers whose schedule the checker rejected.
	Invalid       int64 `json:"invalid"`
	Disagreements int64 `json:"disagreements"`
	// NullReads counts dereferenced reads with a non-null traced value.
	NullReads int64 `json:"null_reads"`

	// FarPairs counts, per new access of a window, the sites of old
	// accesses that may race with it but share no window with it
	// (boundary.go); FarOpen counts the location pairs (and null sites)
	// of such pairs that no window found a witness for, which make the
	// result incomplete.
	FarPairs int64 `json:"far_pairs"`
	FarOpen  int64 `json:"far_open"`

	// RacyEvents and LaterEvents count distinct events over all location
	// pairs (see Race).
	RacyEvents  int64 `json:"racy_events"`
	LaterEvents int64 `json:"later_events"`
	// LaterSites counts the distinct sites of the LaterEvents (RAPID's
	// "distinct locations").
	LaterSites int `json:"later_sites"`

	// Complete is false when a timeout, an interruption, an unknown answer
	// or the query cap left a location pair without a witness undecided.
	Complete bool   `json:"complete"`
	Stopped  string `json:"stopped,omitempty"`
	// Seconds is the wall time; Phases the time per phase (read, sweep,
	// candidates, fast, solve, check), summed over workers.
	Seconds float64            `json:"seconds"`
	Phases  map[string]float64 `json:"phases"`
	// Solver is the time and number of calls per decider.
	Solver map[string]SolverStats `json:"solver"`
	// PeakWindow is the largest window's event count, synthetic events included.
	PeakWindow int `json:"peak_window"`
}

// SolverStats are one decider's calls and time (wall seconds, summed over
// workers), the calls whose answer was used (Answered: "unsat", or "sat"
// with a witness the checker replayed), the calls auto cancelled because
// the other decider answered first (Lost, portfolio.go), and the calls in
// which it gave up (unknown), with Reasons counting them by cause:
// "timeout" (--query-timeout), "memory" (--query-memory), "rlimit"
// (--query-rlimit), "states" (auto's state budget), "stopped" (the
// prediction was interrupted), "other".
type SolverStats struct {
	Calls    int64            `json:"calls"`
	Seconds  float64          `json:"seconds"`
	Answered int64            `json:"answered"`
	Lost     int64            `json:"lost,omitempty"`
	GaveUp   int64            `json:"gave_up"`
	Reasons  map[string]int64 `json:"reasons,omitempty"`
}

// phaseTimer accumulates time per phase.
type phaseTimer map[string]time.Duration

func (p phaseTimer) add(phase string, since time.Time) { p[phase] += time.Since(since) }
