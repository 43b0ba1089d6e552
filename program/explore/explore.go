// Package explore holds what every exploration algorithm shares: findings,
// statistics, options, the result type with its Merge, and the bookkeeping
// of explored executions (reads-from classes, outcomes, deduplicated
// findings). It also implements the reference algorithm, dfs: every
// interleaving, no reduction, the ground truth the other explorers are
// tested against (DESIGN.md, "Exploration algorithms").
package explore

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"mcr/program"
)

// Finding kinds, as they appear in reports and JSON.
const (
	KindAssertion       = "assertion"
	KindRace            = "race"
	KindNullDereference = "null-dereference"
	KindDeadlock        = "deadlock"
	KindRuntimeError    = "runtime-error"
)

// TrylocksNotExplored is the reason an SMC explorer's search is incomplete
// when an execution has a trylock (rvf, mcr-seeds, vc, and mcr under SC;
// not dfs, and not rf, which reads a failed trylock from the holding
// acquire under every model): its instances model a lock as acquired only
// after a release, so they have no place for a trylock that fails (it
// reads a held lock), and the other outcome of a trylock, failing where it
// succeeded or succeeding where it failed, is never asked for. --algo rf
// and --algo dfs explore both (plain `mcr check` reruns with rf itself).
const TrylocksNotExplored = "trylocks: their other outcome (fail or succeed) is not explored; use --algo rf"

// IsTrylock reports whether e is a trylock, successful or failed.
func IsTrylock(e *program.Event) bool {
	return e.Kind == program.LockFail || e.Kind == program.Acquire && e.Is(program.Try)
}

// HasTrylock reports whether tr has a trylock, successful or failed.
func HasTrylock(tr *program.Trace) bool {
	for i := range tr.Events {
		if IsTrylock(&tr.Events[i]) {
			return true
		}
	}
	return false
}

// Location is a source position of a finding.
type Location struct {
	File string `json:"file"`
	Line int32  `json:"line"`
	Col  int32  `json:"col"`
}

func (l Location) String() string { return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Col) }

// LocationOf is position p of tr's program as a Location: in its own file
// (a header) or tr.File.
func LocationOf(tr *program.Trace, p program.Pos) Location {
	return Location{File: tr.FileOf(p), Line: p.Line, Col: p.Col}
}

// Finding is one reported problem with a schedule that reproduces it: for
// violations the whole execution, for a race the prefix that ends with the
// two racing accesses adjacent.
type Finding struct {
	Kind      string           `json:"kind"`
	Message   string           `json:"message"`
	Locations []Location       `json:"locations"`
	Schedule  program.Schedule `json:"-"`
	// Steps is Schedule with thread names, for JSON and schedule files.
	Steps []program.ScheduleStep `json:"schedule"`
	// Execution is the number of the execution that found it (1-based).
	Execution int `json:"execution"`
	// Inputs is the input vector the schedule runs with (programs that
	// read __VERIFIER_nondet_* inputs; absent inputs read 0).
	Inputs []program.InputValue `json:"inputs,omitempty"`
}

// Key identifies a finding for deduplication: kind plus source locations
// (DESIGN.md: reported once per distinct source-location pair).
func (f *Finding) Key() string {
	var b strings.Builder
	b.WriteString(f.Kind)
	for _, l := range f.Locations {
		fmt.Fprintf(&b, "|%d:%d", l.Line, l.Col)
	}
	return b.String()
}

// Stats are the statistics of one exploration.
type Stats struct {
	Algorithm string `json:"algorithm"`
	// Model is the memory model explored under, "" for SC (set by the
	// caller that set the program's model).
	Model      string `json:"mm,omitempty"`
	Executions int    `json:"executions"`
	// RFClasses is the number of distinct reads-from functions among the
	// explored executions (blocked ones excluded).
	RFClasses int `json:"rf_classes"`
	// Outcomes is the number of distinct (event set, value function) pairs
	// of maximal executions (program.OutcomeKind.Maximal: violations and
	// blocked executions excluded).
	Outcomes int `json:"outcomes"`
	// Blocked counts the executions that ended with a thread stuck at a
	// failed __VERIFIER_assume (program.Blocked), BlockedClasses their
	// distinct reads-from functions: rf explores exactly one execution per
	// class, blocked or not (testdata/c/README.md, "Conventions").
	Blocked        int `json:"blocked"`
	BlockedClasses int `json:"blocked_classes"`
	Bounded        int `json:"bounded"` // executions cut by the event bound or a tool limit
	// BoundedBy says what cut the first bounded execution (the event bound,
	// or a tool limit: threads, allocations, object size, heap).
	BoundedBy string `json:"bounded_by,omitempty"`
	// Unmodelled names the first thing an execution assumed that the
	// program leaves open (a read of an uninitialised local, taken as 0):
	// the search is then incomplete.
	Unmodelled string `json:"unmodelled,omitempty"`
	Events     int    `json:"events"` // events executed, over all executions
	// Complete is false when a bound, a timeout, an interruption or
	// stopping at the first finding cut the search.
	Complete bool          `json:"complete"`
	Stopped  string        `json:"stopped,omitempty"` // why the search ended early
	Elapsed  time.Duration `json:"-"`
	Seconds  float64       `json:"seconds"`
	// Extra holds algorithm-specific counters (seeds, queries, ...).
	Extra map[string]float64 `json:"extra,omitempty"`
}

// Result is the result of an exploration.
type Result struct {
	Findings []Finding `json:"findings"`
	Stats    Stats     `json:"stats"`
}

// Options control an exploration.
type Options struct {
	// KeepGoing reports every finding instead of stopping at the first.
	KeepGoing bool
	// Kinds, if not empty, are the finding kinds to report (KindAssertion,
	// KindRace, ...): a finding of another kind is dropped where it is
	// found, so that it neither counts nor stops the search, and explorers
	// may skip looking for it (races: no race queries). An SV-COMP property
	// asks for one kind: unreach-call for assertions, no-data-race for
	// races. Empty means every kind. A violation stops only its thread
	// (program.Failer), so a dropped one hides nothing the other threads
	// do after it.
	Kinds []string
	// Progress, if set, is called now and then with the statistics so far
	// (from the exploring goroutine; keep it cheap).
	Progress func(Stats)
	// ProgressEvery is the minimum time between Progress calls (default 1s).
	ProgressEvery time.Duration
	// Observe, if set, sees every finished execution (tests use it to
	// compare the outcomes of two explorers exactly).
	Observe func(program.Execution)
	// Validate checks invariants as the search goes, at some cost: every
	// witness an explorer computes passes program.ValidateWitness, and a
	// witness taken by a shortcut (an auxiliary or guided trace) is also
	// asked of the full decider, which must agree ("decider_errors"
	// otherwise). The search explores the same executions either way. Tests
	// and `mcr check --validate` set it.
	Validate bool
}

// UnreportedKey names the Stats.Extra counter of the executions whose
// failure of kind was not reported because Options.Kinds left it out:
// runtime errors and null dereferences, after which C's behaviour is
// undefined, so a search for another property saw only a part of what the
// program can do ("" for the other kinds, after which nothing is lost).
func UnreportedKey(kind string) string {
	if kind == KindRuntimeError || kind == KindNullDereference {
		return "unreported_" + kind
	}
	return ""
}

// Reports reports whether findings of kind are wanted (Kinds).
func (o *Options) Reports(kind string) bool {
	return len(o.Kinds) == 0 || slices.Contains(o.Kinds, kind)
}

// Recorder accumulates what explored executions show: classes, outcomes
// and findings. It is not safe for concurrent use; parallel explorers keep
// one per worker and merge.
type Recorder struct {
	stats    Stats
	rf       map[[16]byte]struct{}
	blocked  map[[16]byte]struct{} // reads-from functions of blocked executions
	outcomes map[[16]byte]struct{}
	findings map[string]*Finding
	order    []string
	opts     Options
	start    time.Time
	lastProg time.Time
}

// NewRecorder starts recording an exploration by algorithm algo.
func NewRecorder(algo string, opts Options) *Recorder {
	if opts.ProgressEvery == 0 {
		opts.ProgressEvery = time.Second
	}
	now := time.Now()
	return &Recorder{stats: Stats{Algorithm: algo, Complete: true}, rf: map[[16]byte]struct{}{},
		blocked: map[[16]byte]struct{}{}, outcomes: map[[16]byte]struct{}{}, findings: map[string]*Finding{}, opts: opts, start: now, lastProg: now}
}

func digest(s []byte) [16]byte {
	h := sha256.Sum256(s)
	var k [16]byte
	copy(k[:], h[:16])
	return k
}

// Summary is what a Recorder keeps of one finished execution: its size,
// how it ended and digests of its reads-from function and outcome.
// Parallel explorers summarise an execution where it ran and record the
// summary later, in the order of the sequential search.
type Summary struct {
	Events      int
	Kind        program.OutcomeKind
	RF, Outcome [16]byte // Outcome only for maximal executions
	Message     string   // for a bounded execution: what cut it
	// Unmodelled says what the execution assumed that the program leaves
	// open (program.Unmodelled), or "".
	Unmodelled string
}

// Summarize returns the summary of the finished execution x.
func Summarize(x program.Execution) Summary { return SummarizeIndexed(x, nil) }

// SummarizeIndexed is Summarize for an explorer that has indexed x's trace
// already (ix, program.NewTraceIndex(x.Trace())); nil: Summarize indexes it.
func SummarizeIndexed(x program.Execution, ix *program.TraceIndex) Summary {
	tr := x.Trace()
	_, out := x.Done()
	// One index and one buffer for both keys, digested as bytes: the
	// strings and a second index were a tenth of ReadsFrom-SMC's time
	// per execution (issue 17).
	x0 := ix
	if x0 == nil || x0.T != tr || len(x0.T.Events) != len(tr.Events) {
		x0 = program.NewTraceIndex(tr)
	}
	b := program.AppendRFKey(make([]byte, 0, 16*len(tr.Events)), x0)
	s := Summary{Events: len(tr.Events), Kind: out.Kind, RF: digest(b)}
	if out.Kind == program.Bounded {
		s.Message = out.Message
	}
	if out.Kind.Maximal() {
		s.Outcome = digest(program.AppendOutcomeKey(b[:0], tr, x0.At))
	}
	if u, ok := x.(program.Unmodelled); ok {
		s.Unmodelled = u.Unmodelled()
	}
	return s
}

// Execution records one finished execution: its classes, and its outcome as
// a finding when it is a violation. It returns true if the exploration
// should stop (a finding and not KeepGoing).
func (r *Recorder) Execution(x program.Execution) bool {
	if r.opts.Observe != nil {
		r.opts.Observe(x)
	}
	r.Record(Summarize(x))
	for _, f := range ExecutionFindings(x) {
		if r.Finding(f, x.Trace().Threads) {
			return true
		}
	}
	return false
}

// Record counts one execution by its summary (Execution does it for a
// sequential search; parallel ones call it in order, then Finding).
func (r *Recorder) Record(s Summary) {
	r.stats.Executions++
	r.stats.Events += s.Events
	switch s.Kind {
	case program.Blocked:
		r.stats.Blocked++
		r.blocked[s.RF] = struct{}{}
	case program.Bounded:
		r.stats.Bounded++
		r.stats.Complete = false
		if r.stats.BoundedBy == "" {
			r.stats.BoundedBy = s.Message
		}
	}
	if s.Unmodelled != "" {
		r.stats.Complete = false
		if r.stats.Unmodelled == "" {
			r.stats.Unmodelled = s.Unmodelled
		}
	}
	if s.Kind != program.Blocked {
		r.rf[s.RF] = struct{}{}
	}
	if s.Kind.Maximal() {
		r.outcomes[s.Outcome] = struct{}{}
	}
	r.progress()
}

// Finding records a finding (deduplicated by Key: the first one is kept,
// numbered with the executions so far; dropped if its kind is not among
// Options.Kinds) and returns true if the exploration should stop. threads name the threads of its schedule, unless f.Steps
// is set already.
func (r *Recorder) Finding(f Finding, threads []program.Thread) bool {
	if !r.opts.Reports(f.Kind) {
		if k := UnreportedKey(f.Kind); k != "" {
			r.Extra(k, 1)
		}
		return false
	}
	k := f.Key()
	if _, dup := r.findings[k]; !dup {
		f.Execution = r.stats.Executions
		if f.Steps == nil {
			f.Steps = f.Schedule.Names(threads)
		}
		r.findings[k] = &f
		r.order = append(r.order, k)
	}
	if !r.opts.KeepGoing {
		r.Stop("finding")
		return true
	}
	return false
}

// Stop marks the search as cut short for the given reason.
func (r *Recorder) Stop(reason string) {
	r.stats.Complete = false
	if r.stats.Stopped == "" {
		r.stats.Stopped = reason
	}
}

// Extra adds to an algorithm-specific counter.
func (r *Recorder) Extra(name string, v float64) {
	if r.stats.Extra == nil {
		r.stats.Extra = map[string]float64{}
	}
	r.stats.Extra[name] += v
}

func (r *Recorder) progress() {
	if r.opts.Progress == nil {
		return
	}
	if now := time.Now(); now.Sub(r.lastProg) >= r.opts.ProgressEvery {
		r.lastProg = now
		r.opts.Progress(r.snapshot())
	}
}

func (r *Recorder) snapshot() Stats {
	s := r.stats
	if s.Extra != nil { // a copy: the caller may keep it while the search goes on
		s.Extra = make(map[string]float64, len(r.stats.Extra))
		for k, v := range r.stats.Extra {
			s.Extra[k] = v
		}
	}
	s.RFClasses, s.Outcomes, s.BlockedClasses = len(r.rf), len(r.outcomes), len(r.blocked)
	s.Elapsed = time.Since(r.start)
	s.Seconds = s.Elapsed.Seconds()
	return s
}

// Result returns the findings in a deterministic order (kind, location)
// and the statistics.
func (r *Recorder) Result() *Result {
	res := &Result{Stats: r.snapshot()}
	for _, k := range r.order {
		res.Findings = append(res.Findings, *r.findings[k])
	}
	sort.SliceStable(res.Findings, func(i, j int) bool { return res.Findings[i].Key() < res.Findings[j].Key() })
	return res
}

// FindingKeys returns the keys (Finding.Key: kind and source locations)
// of the findings, sorted: what two explorers must agree on.
func (res *Result) FindingKeys() []string {
	out := make([]string, 0, len(res.Findings))
	for i := range res.Findings {
		out = append(out, res.Findings[i].Key())
	}
	sort.Strings(out)
	return out
}

// FindingKinds returns the sorted distinct kinds of the findings.
func (res *Result) FindingKinds() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range res.Findings {
		if !seen[f.Kind] {
			seen[f.Kind] = true
			out = append(out, f.Kind)
		}
	}
	sort.Strings(out)
	return out
}
