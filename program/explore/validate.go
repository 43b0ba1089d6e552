package explore

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"mcr/program"
)

// This file implements the self-check behind `mcr check --validate`: an
// exploration is repeated with dfs, every interleaving, and whatever the
// algorithm missed is reported (issue 12: a reduction that loses an
// outcome must fail loudly instead of answering "search complete").

// Reached collects what an exploration reaches, through Options.Observe:
// the outcomes of its maximal executions and the reads-from classes of its
// complete and of its blocked executions. It is safe for concurrent use.
type Reached struct {
	mu       sync.Mutex
	outcomes map[[16]byte]bool
	classes  map[[16]byte]bool
	blocked  map[[16]byte]bool
}

// NewReached returns an empty collection.
func NewReached() *Reached {
	return &Reached{outcomes: map[[16]byte]bool{}, classes: map[[16]byte]bool{}, blocked: map[[16]byte]bool{}}
}

// Observe returns an Options.Observe function that records every execution
// in r and then calls next (if not nil).
func (r *Reached) Observe(next func(program.Execution)) func(program.Execution) {
	return func(x program.Execution) {
		r.add(Summarize(x))
		if next != nil {
			next(x)
		}
	}
}

// add records s with the classification Recorder.Record uses.
func (r *Reached) add(s Summary) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.Kind == program.Blocked {
		r.blocked[s.RF] = true
	} else {
		r.classes[s.RF] = true
	}
	if s.Kind.Maximal() {
		r.outcomes[s.Outcome] = true
	}
}

// Validation is the comparison of an exploration with dfs.
type Validation struct {
	// Interleavings is the number of executions dfs ran; Complete is false
	// when dfs was cut (the limit, a timeout): then only what dfs reached
	// was compared and a missing outcome may still exist.
	Interleavings int  `json:"interleavings"`
	Complete      bool `json:"complete"`
	// Outcomes, RFClasses and BlockedClasses are dfs's counts; the Missed
	// fields count what dfs reached and the algorithm did not.
	Outcomes             int `json:"outcomes"`
	RFClasses            int `json:"rf_classes"`
	BlockedClasses       int `json:"blocked_classes"`
	MissedOutcomes       int `json:"missed_outcomes"`
	MissedRFClasses      int `json:"missed_rf_classes"`
	MissedBlockedClasses int `json:"missed_blocked_classes"`
	// MissedFindings lists the findings dfs reports and the algorithm does
	// not: by kind and location (races by kind only, since a race may be
	// witnessed at another pair of its locations). Only compared when the
	// algorithm ran with KeepGoing (else: whether both found something).
	MissedFindings []string `json:"missed_findings"`
	// Extra lists finding kinds the algorithm reports and a complete dfs
	// does not (a wrong finding).
	Extra []string `json:"extra_findings"`
	// Broken sums the algorithm's own invariant counters (InvariantCounters
	// in Stats.Extra), which are 0 unless something is wrong.
	Broken int `json:"broken_invariants"`
}

// InvariantCounters name the Stats.Extra counters that explorers keep at 0
// unless an invariant broke: a witness the decider would not confirm or
// that did not validate, an execution whose reads did not get the values
// or sources its seed gave them, a seed that did not replay.
var InvariantCounters = []string{"decider_errors", "rf_mismatches", "replay_errors", "seed_mismatches", "seed_replay_failures"}

// OK reports whether the algorithm reached everything dfs did that makes
// a difference to a user: every outcome and every finding. Missing
// reads-from classes alone are no failure for value-based algorithms
// (mcr, rvf explore coarser classes); the caller decides for rf.
func (v *Validation) OK() bool {
	return v.MissedOutcomes == 0 && len(v.MissedFindings) == 0 && len(v.Extra) == 0 && v.Broken == 0
}

// Validate runs dfs on p, at most limit executions (0: no limit) within
// ctx, and compares it with the result res of an exploration that reached
// what got holds. keepGoing says whether that exploration reported every
// finding.
func Validate(ctx context.Context, p program.Program, res *Result, got *Reached, keepGoing bool, limit int) *Validation {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	dfs := NewReached()
	n := 0
	d := DFS(ctx, p, Options{KeepGoing: true, Observe: dfs.Observe(func(program.Execution) {
		if n++; limit > 0 && n >= limit {
			cancel()
		}
	})})
	v := &Validation{Interleavings: d.Stats.Executions, Complete: d.Stats.Complete,
		Outcomes: d.Stats.Outcomes, RFClasses: d.Stats.RFClasses, BlockedClasses: d.Stats.BlockedClasses}
	for _, k := range InvariantCounters {
		v.Broken += int(res.Stats.Extra[k])
	}
	got.mu.Lock()
	defer got.mu.Unlock()
	v.MissedOutcomes = missing(dfs.outcomes, got.outcomes)
	v.MissedRFClasses = missing(dfs.classes, got.classes)
	v.MissedBlockedClasses = missing(dfs.blocked, got.blocked)
	v.compareFindings(d, res, keepGoing)
	return v
}

// compareFindings records in v the findings of dfs's result d that res
// misses (with keepGoing; without, only if res has none) and, if d is
// complete, the kinds res reports that d does not.
func (v *Validation) compareFindings(d, res *Result, keepGoing bool) {
	want, have := findingSet(d, keepGoing), findingSet(res, keepGoing)
	for k := range want {
		if !have[k] && (keepGoing || len(res.Findings) == 0) {
			v.MissedFindings = append(v.MissedFindings, k)
		}
	}
	if d.Stats.Complete {
		// by kind: a predicted finding (mcr's null dereference of a read)
		// is located where dfs's crash is not
		dk := d.FindingKinds()
		for _, k := range res.FindingKinds() {
			if !slices.Contains(dk, k) {
				v.Extra = append(v.Extra, k)
			}
		}
	}
	sort.Strings(v.MissedFindings)
	sort.Strings(v.Extra)
}

func missing(want, have map[[16]byte]bool) int {
	n := 0
	for k := range want {
		if !have[k] {
			n++
		}
	}
	return n
}

// findingSet names the findings of res: kind and locations, races by kind
// only; without keepGoing only whether there is one.
func findingSet(res *Result, keepGoing bool) map[string]bool {
	out := map[string]bool{}
	for _, f := range res.Findings {
		switch {
		case !keepGoing:
			out["a finding"] = true
		case f.Kind == KindRace:
			out[KindRace] = true
		default:
			k := f.Kind
			for _, l := range f.Locations {
				k += fmt.Sprintf(" %d:%d", l.Line, l.Col)
			}
			out[k] = true
		}
	}
	return out
}
