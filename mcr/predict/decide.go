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

// newWorkers creates n workers with the named deciders each; states > 0
// bounds the explicit search's states when another decider follows it
// (auto), rlimit > 0 bounds each Z3 query's resource units. Errors: a
// decider cannot be created (Z3 not built in).
func newWorkers(n int, names []string, timeout time.Duration, states int, rlimit uint32) ([]*worker, error) {
	ws := make([]*worker, n)
	for i := range ws {
		ws[i] = &worker{}
		for j, name := range names {
			d, err := Deciders[name].New(timeout)
			if err != nil {
				closeWorkers(ws)
				return nil, fmt.Errorf("decider %s: %w", name, err)
			}
			if name == "explicit" && states > 0 && j < len(names)-1 {
				d = explicit.Seeder{MaxStates: states}
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
	reasonStopped = "stopped" // the prediction was interrupted or timed out
	reasonOther   = "other"   // anything else (see the disagreements)
)

// gaveUpReason classifies the error of a query that gave up; qctx is the
// query's context (its deadline is the query timeout).
func gaveUpReason(err error, qctx context.Context) string {
	switch {
	case errors.Is(err, errMemory):
		return reasonMemory
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
// one decider's answer over the other's "unknown".
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
	answers := map[string]string{}
	var sched []int32
	sawUnsat, disagree := false, false
	for _, dec := range wk.deciders {
		if d.opts.auto() && (sched != nil || sawUnsat) {
			break // auto asks the next decider only when one gave up
		}
		gctx, release := d.guard.query(ctx)
		qctx, cancel := context.WithTimeout(gctx, d.opts.queryTimeout())
		start := time.Now()
		ans, err := dec.Decide(qctx, q)
		cancel()
		if err != nil && errors.Is(context.Cause(gctx), errMemory) {
			err = errMemory
		}
		release()
		d.tally.mu.Lock()
		s := d.tally.solver[dec.Name()]
		s.Calls++
		s.Seconds += time.Since(start).Seconds()
		if err != nil {
			s.GaveUp++
			if s.Reasons == nil {
				s.Reasons = map[string]int64{}
			}
			s.Reasons[gaveUpReason(err, qctx)]++
		}
		d.tally.mu.Unlock()
		switch {
		case err != nil:
			answers[dec.Name()] = "unknown: " + err.Error()
			if !errors.Is(err, program.ErrUnknown) && ctx.Err() == nil && qctx.Err() == nil {
				disagree = true // a failing decider is worth a report
			}
		case !ans.Sat:
			answers[dec.Name()] = "unsat"
			sawUnsat = true
		default:
			start := time.Now()
			got, err := checkWitness(ctx, w.t, ans.Schedule, g)
			d.tally.phase("check", start)
			if stopped(ctx, err) {
				answers[dec.Name()] = "unknown: " + err.Error() // not checked: no answer
				continue
			}
			if err != nil {
				answers[dec.Name()] = "invalid witness: " + err.Error()
				disagree = true
				d.tally.do(func(s *Stats) { s.Invalid++ })
				continue
			}
			answers[dec.Name()] = "sat"
			if sched == nil {
				sched = got
			}
		}
	}
	if sched != nil && sawUnsat {
		disagree = true
	}
	v := unknown
	switch {
	case sched != nil:
		v = sat
	case sawUnsat:
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
		if disagree {
			s.Disagreements++
		}
	})
	if disagree {
		kind := "race"
		if !g.isRace() {
			kind = "null-dereference"
		}
		dis := &Disagreement{Query: kind, Answers: answers}
		for _, p := range g.targets() {
			dis.Events = append(dis.Events, w.step(p))
		}
		d.tally.mu.Lock()
		d.tally.dis = append(d.tally.dis, dis)
		d.tally.mu.Unlock()
	}
	return v, sched
}
