package predict

// This file implements asking the deciders: one query (race or null read)
// on its sub-trace, to one decider or to both (cross-check), with every
// satisfying schedule replayed by the witness checker (program.CheckSeed,
// the validator of program.SeedKind) before it counts.
//
// ask is not program.Cross: it keeps per-decider calls and seconds, runs
// each decider under the memory guard and its own time limit, records
// every answer of a disagreement, and lets a checked schedule win over the
// other decider's "unsat" or "unknown", where Cross returns the first
// decider's answer and only counts.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"mcr/encode"
	"mcr/explicit"
	"mcr/program"
)

// verdict is the combined answer to a query.
type verdict int

const (
	unsat verdict = iota
	sat
	unknown
)

// worker is one worker's deciders and scratch memory.
type worker struct {
	deciders []program.SeedDecider
	sc       scratch
}

// newWorkers creates n workers with the named deciders each; rlimit > 0
// bounds each Z3 query's resource units. Errors: a decider cannot be
// created (Z3 not built in).
func newWorkers(n int, names []string, timeout time.Duration, rlimit uint32) ([]*worker, error) {
	ws := make([]*worker, n)
	for i := range ws {
		ws[i] = &worker{}
		for _, name := range names {
			d, err := Deciders[name].New(timeout)
			if err != nil {
				closeWorkers(ws)
				return nil, fmt.Errorf("decider %s: %w", name, err)
			}
			if r, ok := d.(interface{ SetRlimit(uint32) error }); ok && rlimit > 0 {
				if err := r.SetRlimit(rlimit); err != nil {
					closeWorkers(ws)
					return nil, fmt.Errorf("decider %s: %w", name, err)
				}
			}
			ws[i].deciders = append(ws[i].deciders, d)
		}
	}
	return ws, nil
}

func closeWorkers(ws []*worker) {
	for _, w := range ws {
		if w == nil {
			continue
		}
		for _, d := range w.deciders {
			if c, ok := d.(interface{ Close() }); ok {
				c.Close()
			}
		}
	}
}

// tally is the statistics the workers share.
type tally struct {
	mu     sync.Mutex
	stats  *Stats
	phases phaseTimer
	solver map[string]*SolverStats
	dis    []*Disagreement
}

func (t *tally) do(fn func(s *Stats)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fn(t.stats)
}

func (t *tally) phase(name string, since time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.phases.add(name, since)
}

// Reasons a decider gives up (SolverStats.Reasons).
const (
	reasonTimeout = "timeout" // Options.QueryTimeout
	reasonMemory  = "memory"  // Options.QueryMemory (memguard.go)
	reasonRlimit  = "rlimit"  // Options.QueryRlimit (Z3's resource limit)
	reasonStates  = "states"  // auto's state budget of the explicit search
	reasonBudget  = "budget"  // auto's resource limit of z3 before the race (portfolio.go)
	reasonLost    = "lost"    // auto cancelled it: the other decider answered first (SolverStats.Lost)
	reasonStopped = "stopped" // the prediction was interrupted or timed out
	reasonOther   = "other"   // anything else (see the disagreements)
)

// gaveUpReason classifies the error of a query that gave up; qctx is the
// query's context (its deadline is the query timeout).
func gaveUpReason(err error, qctx context.Context) string {
	switch {
	case errors.Is(err, errMemory):
		return reasonMemory
	case errors.Is(context.Cause(qctx), errRaceWon):
		return reasonLost
	case errors.Is(err, encode.ErrRlimit):
		return reasonRlimit
	case errors.Is(err, explicit.ErrStates):
		return reasonStates
	case errors.Is(context.Cause(qctx), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		// the query's deadline, or Z3's own timeout (the same duration)
		return reasonTimeout
	case qctx.Err() != nil:
		return reasonStopped
	case strings.Contains(err.Error(), "timeout") || strings.Contains(err.Error(), "abandoned"):
		return reasonTimeout
	}
	return reasonOther
}

// ask decides goal g on window w with worker wk's deciders and returns the
// verdict and, if sat, the checked schedule (window positions, targets
// last). With two deciders a sat/unsat split, and any schedule the checker
// rejects, is a disagreement; a checked schedule wins over "unsat", and
// one decider's answer over the other's "unknown". Under auto the
// portfolio (portfolio.go) picks who answers; if its answer is of no use
// (a rejected schedule), a decider it stopped is asked again alone.
func (d *driver) ask(ctx context.Context, wk *worker, w *window, g goal) (verdict, []int32) {
	sub, keep := w.subtrace(&wk.sc, g, d.opts.maxQueryEvents())
	if sub == nil {
		d.tally.do(func(s *Stats) { s.TooBig++ })
		return unknown, nil
	}
	q := program.NewSeedQuery(sub, nil)
	if g.isRace() {
		q.Race = [2]int32{subPos(keep, g.race[0]), subPos(keep, g.race[1])}
	} else {
		q.Read, q.Value = subPos(keep, g.read), g.value
	}
	j := judgement{answers: map[string]string{}}
	if d.opts.auto() && len(wk.deciders) == 2 {
		rs := d.portfolio(ctx, wk.deciders[1], q)
		d.judge(ctx, w, g, &j, rs)
		// A decider that was cut short (a budget, a lost race) answers
		// alone if the others' answers were of no use.
		full := map[string]bool{}
		for _, r := range rs {
			if r.err == nil || (r.reason != reasonStates && r.reason != reasonBudget && r.reason != reasonLost) {
				full[r.name] = true
			}
		}
		for _, dec := range []program.SeedDecider{explicit.Seeder{MaxStates: raceStates}, wk.deciders[1]} {
			if j.sched != nil || j.sawUnsat || ctx.Err() != nil {
				break
			}
			if !full[dec.Name()] {
				d.judge(ctx, w, g, &j, []reply{d.call(ctx, dec, q)})
			}
		}
	} else {
		for _, dec := range wk.deciders {
			if d.opts.auto() && (j.sched != nil || j.sawUnsat) {
				break // auto without z3: one decider
			}
			d.judge(ctx, w, g, &j, []reply{d.call(ctx, dec, q)})
		}
	}
	if j.sched != nil && j.sawUnsat {
		j.disagree = true
	}
	v := unknown
	switch {
	case j.sched != nil:
		v = sat
	case j.sawUnsat:
		v = unsat
	}
	d.tally.do(func(s *Stats) {
		s.Queries++
		switch v {
		case sat:
			s.Sat++
		case unsat:
			s.Unsat++
		default:
			s.Unknown++
		}
		if j.disagree {
			s.Disagreements++
		}
	})
	if j.disagree {
		kind := "race"
		if !g.isRace() {
			kind = "null-dereference"
		}
		dis := &Disagreement{Query: kind, Answers: j.answers}
		for _, p := range g.targets() {
			dis.Events = append(dis.Events, w.step(p))
		}
		d.tally.mu.Lock()
		d.tally.dis = append(d.tally.dis, dis)
		d.tally.mu.Unlock()
	}
	return v, j.sched
}

// judgement is what the replies to one query showed so far.
type judgement struct {
	answers  map[string]string // per decider, for a disagreement report
	sched    []int32           // the first checked schedule
	sawUnsat bool
	disagree bool
}

// judge counts the replies rs to goal g in the statistics, replays their
// schedules with the checker, and records in j what they showed.
func (d *driver) judge(ctx context.Context, w *window, g goal, j *judgement, rs []reply) {
	for _, r := range rs {
		used := false
		switch {
		case r.err != nil:
			if r.reason != reasonLost {
				j.answers[r.name] = "unknown: " + r.err.Error()
			}
			if !errors.Is(r.err, program.ErrUnknown) && ctx.Err() == nil && !r.stopped {
				j.disagree = true // a failing decider is worth a report
			}
		case !r.ans.Sat:
			j.answers[r.name] = "unsat"
			j.sawUnsat, used = true, true
		default:
			start := time.Now()
			got, err := checkWitness(ctx, w.t, r.ans.Schedule, g)
			d.tally.phase("check", start)
			switch {
			case stopped(ctx, err):
				j.answers[r.name] = "unknown: " + err.Error() // not checked: no answer
			case err != nil:
				j.answers[r.name] = "invalid witness: " + err.Error()
				j.disagree = true
				d.tally.do(func(s *Stats) { s.Invalid++ })
			default:
				j.answers[r.name] = "sat"
				used = true
				if j.sched == nil {
					j.sched = got
				}
			}
		}
		d.tally.mu.Lock()
		s := d.tally.solver[r.name]
		s.Calls++
		s.Seconds += r.seconds
		switch {
		case used:
			s.Answered++
		case r.lost():
			s.Lost++
		case r.err != nil:
			s.GaveUp++
			if s.Reasons == nil {
				s.Reasons = map[string]int64{}
			}
			s.Reasons[r.reason]++
		}
		d.tally.mu.Unlock()
	}
}
