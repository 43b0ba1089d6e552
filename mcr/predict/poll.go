package predict

// This file implements the cheap context check of long loops: reading a
// window, its tables, the sweep, candidate enumeration, schedules and
// witness checks can each run for seconds on a window of a million events,
// and --timeout or Ctrl-C must stop them within a fraction of a second.

import "context"

// pollEvery is how many iterations a loop runs between two looks at its
// context: a look costs a lock, an iteration tens of nanoseconds.
const pollEvery = 4096

// poll looks at a context every pollEvery calls of stop.
type poll struct {
	ctx  context.Context
	n    int
	done bool
}

// stop reports whether the context is done, looking at it every
// pollEvery calls; once true it stays true.
func (p *poll) stop() bool {
	if p.done {
		return true
	}
	if p.n++; p.n < pollEvery {
		return false
	}
	p.n = 0
	p.done = p.ctx.Err() != nil
	return p.done
}

// stopped reports whether err is the cancellation of ctx (a loop that gave
// up), not a finding of its own.
func stopped(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil && err == ctx.Err()
}
