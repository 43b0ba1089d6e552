package predict

// This file implements auto, the portfolio decider of --decider auto
// (issue 18): after the shortcuts, each query goes
//
//  1. to the explicit search under a state budget proportional to the
//     work Z3 is expected to need (firstStates), alone;
//  2. if that budget runs out, to z3, alone, under a resource limit
//     (rlimit: Z3's deterministic count of solver steps) of about four
//     times what it is expected to need (z3Budget);
//  3. if z3 reaches that too, to both at once: z3 without the limit and
//     the explicit search again (budget raceStates); the first answer wins
//     and the other search is cancelled (Z3 through its interrupt, the
//     explicit search through its context).
//
// The budgets of stages 1 and 2 are counts, not times, so which backend
// answers, and so the witness, depends on the query alone (not on the
// machine's load) unless stage 3 starts; then the witness of a
// satisfiable query is the winner's. The verdict never depends on it:
// both backends are exact, and every witness is replayed by the checker
// (witness.go) before it counts.
//
// The budget. Z3's time grows with the sub-trace's events n (measured on
// the queries of shared/data/traces and sunflow: 0.05 to 0.15 ms an
// event), the explicit search's time with its states times the size of a
// state's key, about threads k plus locations d (0.09 µs per state and key
// entry on bubblesort.vals.txt and clean.vals.txt alike). So a budget of
// autoStatesPerEvent*n/(k+d) states spends on the explicit search about
// half what z3 is expected to need. Measured as states*(k+d)/n, the
// explicit search answered every query of clean.vals.txt within 46..433,
// of lang, sunflow and account within 130, and 10 of bubblesort's 69 within
// 346, while its other 59 needed 880..48,700 (up to 1.46 million states,
// 15 s, where z3 needs under a second): 500 keeps the first explicit and
// sends the others to z3 after a few milliseconds.

import (
	"context"
	"errors"
	"time"

	"mcr/explicit"
	"mcr/program"
)

// Constants of the portfolio (see the file comment).
const (
	// autoStatesPerEvent is the explicit search's first budget in states
	// per sub-trace event, times 1/(threads + locations).
	autoStatesPerEvent = 500
	// autoMinStates is the least first budget.
	autoMinStates = 2000
	// autoZ3Units is z3's resource limit (rlimit, per check) per
	// sub-trace event in stage 2: about 4 times what the queries of the
	// traces needed (Z3's rlimit-count on their final formulas: 260 to
	// 390 units per order variable on average, at most 1,136).
	autoZ3Units = 1500
	// raceStates bounds the explicit search that races z3 (its memory:
	// the search keeps 16-byte hashes of its states in a map).
	raceStates = 4_000_000
)

// errRaceWon is the cause with which the portfolio cancels the search that
// lost the race.
var errRaceWon = errors.New("the other decider answered first")

// reply is one decider call's outcome.
type reply struct {
	name    string
	ans     program.SeedAnswer
	err     error
	reason  string // why it gave up, if err != nil (gaveUpReason)
	stopped bool   // the query's context ended (deadline, cancellation)
	seconds float64
}

// lost reports whether the call was cancelled because the other decider
// of the portfolio answered first.
func (r reply) lost() bool { return r.err != nil && r.reason == reasonLost }

// call asks dec query q under the memory guard and the query timeout.
func (d *driver) call(ctx context.Context, dec program.SeedDecider, q program.SeedQuery) reply {
	gctx, release := d.guard.query(ctx)
	defer release()
	qctx, cancel := context.WithTimeout(gctx, d.opts.queryTimeout())
	defer cancel()
	start := time.Now()
	ans, err := dec.Decide(qctx, q)
	r := reply{name: dec.Name(), ans: ans, err: err, seconds: time.Since(start).Seconds(), stopped: qctx.Err() != nil}
	if err != nil {
		if errors.Is(context.Cause(gctx), errMemory) {
			r.err = errMemory
		}
		r.reason = gaveUpReason(r.err, qctx)
	}
	return r
}

// shape is what the portfolio's estimates need of a sub-trace: its
// events, threads with events, and distinct locations and locks.
type shape struct{ n, k, d int }

func shapeOf(t *program.Trace) shape {
	threads := map[program.ThreadID]bool{}
	locs := map[program.Loc]bool{}
	for i := range t.Events {
		e := &t.Events[i]
		threads[e.Thread] = true
		if e.Kind.IsAccess() || e.Kind.IsLock() {
			locs[e.Loc] = true
		}
	}
	return shape{n: len(t.Events), k: len(threads), d: len(locs)}
}

// firstStates is the explicit search's budget in stage 1: Options.States
// if set, else the estimate of the file comment.
func (d *driver) firstStates(s shape) int {
	if d.opts.States > 0 {
		return d.opts.States
	}
	return max(autoMinStates, autoStatesPerEvent*s.n/max(1, s.k+s.d))
}

// z3Budget is z3's resource limit (per check) in stage 2.
func (d *driver) z3Budget(s shape) uint32 {
	units := int64(autoZ3Units)
	switch {
	case d.opts.z3Units > 0:
		units = int64(d.opts.z3Units)
	case d.opts.z3Units < 0:
		return 1
	}
	return uint32(min(units*int64(s.n), 1<<32-1))
}

// rlimiter is a decider with a resource limit per query (encode.Z3Seeder).
type rlimiter interface{ SetRlimit(uint32) error }

// portfolio answers q in the stages of the file comment with the worker's
// z3 decider and returns the calls' replies in the order they ended; a
// stage-1 or stage-2 reply that gave up at its budget is among them
// (reason "states" or "budget"), and so is the loser of a race (reason
// "lost").
func (d *driver) portfolio(ctx context.Context, z3 program.SeedDecider, q program.SeedQuery) []reply {
	s := shapeOf(q.Trace)
	first := d.call(ctx, explicit.Seeder{MaxStates: d.firstStates(s)}, q)
	if first.err == nil || !errors.Is(first.err, explicit.ErrStates) {
		return []reply{first}
	}
	out := []reply{first}
	// Stage 2: z3 alone within z3Budget, or the user's limit if lower.
	user := d.opts.queryRlimit()
	if rl, ok := z3.(rlimiter); ok && (user == 0 || d.z3Budget(s) < user) {
		if err := rl.SetRlimit(d.z3Budget(s)); err == nil {
			second := d.call(ctx, z3, q)
			if err := rl.SetRlimit(user); err != nil {
				second = reply{name: second.name, err: err, reason: reasonOther, seconds: second.seconds}
			}
			if second.err == nil || second.reason != reasonRlimit {
				return append(out, second)
			}
			second.reason = reasonBudget
			out = append(out, second)
		}
	}
	// Stage 3: z3 and the explicit search race.
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ch := make(chan reply, 2)
	go func() { ch <- d.call(rctx, z3, q) }()
	go func() { ch <- d.call(rctx, explicit.Seeder{MaxStates: raceStates}, q) }()
	r := <-ch
	if r.err == nil {
		cancel(errRaceWon)
	}
	return append(out, r, <-ch)
}
