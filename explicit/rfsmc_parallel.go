package explicit

// This file holds what the two SMC explorers (rfsmc.go, rvfsmc.go) need to
// run their recursion on several workers with results that do not depend
// on the number of workers.
//
// The recursion trees of ReadsFrom-SMC (002_29f9f830801bf5b9.txt,
// Algorithm 1) and RVF-SMC (000_1fb260b9b3a323b2.txt, Algorithm 2) are not
// made of independent subtrees: in ReadsFrom-SMC a subtree adds schedules
// to positions of its ancestors (lines 10-11), and the first schedule
// proposed for a position (up to ≡) keeps its witness; in RVF-SMC a
// subtree sets the backtrack signals of its ancestors (lines 3-5). Both
// are handled by one scheme, "run in parallel, commit in order":
//
//   - A child call runs either directly (in its parent's context, as the
//     sequential algorithm does) or in a context of its own, on another
//     worker if one is free, else on the same one. A context has its own
//     schedule sets and an ordered log of what its calls did that reaches
//     outside it: finished executions, findings, and (rf) schedules
//     proposed for positions of calls outside the context.
//   - A parent commits the logs of its children in the order the
//     sequential algorithm visits them (depth-first order): a proposal
//     then meets the proposals made before it in that order, exactly as in
//     the sequential search, and so keeps or loses its witness the same
//     way. A child runs directly only when every child before it is
//     committed, so a context's own work and its commits come in that
//     order too.
//   - The root context sees every execution and finding in depth-first
//     order and records them (smcPar): counts, the executions' numbers in
//     findings and the first finding at which the search stops without
//     --keep-going are those of one worker.
//
// A context may look at a schedule set of an outer context only to skip
// a proposal that set already holds (it can only hold proposals made
// before in depth-first order); all schedule sets and the maps that hold
// them are guarded by smcPar.rw when there are several workers. Backtrack
// signals are ORs (rvf), so they need no order. Only the algorithm
// counters of --json's extra (witness queries, replays, ...) may differ
// with the number of workers: a context cannot see proposals or races that
// outer ones will only commit later, and asks again.

import (
	"context"
	"sync"
	"sync/atomic"

	"mcr/program"
	"mcr/program/explore"
)

// smcSink receives what an SMC call finds: the Recorder of a sequential
// search, or the context of a parallel one.
type smcSink interface {
	// Execution records a finished execution; true means stop.
	Execution(x program.Execution) bool
	// Finding records a finding (raceKey names a race's location pair, ""
	// for other findings); true means stop.
	Finding(f explore.Finding, threads []program.Thread, raceKey string) bool
	// RaceSeen reports whether the race of this location pair is found
	// already (by this search, in depth-first order before the caller).
	RaceSeen(key string) bool
	Extra(name string, v float64)
	// Stop marks the search incomplete; ordered reasons (a failed trylock)
	// are recorded in depth-first order, others (timeouts) at once.
	Stop(reason string, ordered bool)
}

// seqSink is the sink of a sequential search.
type seqSink struct {
	rec   *explore.Recorder
	found map[string]bool
}

func newSeqSink(algo string, opts explore.Options) *seqSink {
	return &seqSink{rec: explore.NewRecorder(algo, opts), found: map[string]bool{}}
}

func (s *seqSink) Execution(x program.Execution) bool { return s.rec.Execution(x) }
func (s *seqSink) Finding(f explore.Finding, threads []program.Thread, raceKey string) bool {
	if raceKey != "" {
		s.found[raceKey] = true
	}
	return s.rec.Finding(f, threads)
}
func (s *seqSink) RaceSeen(key string) bool     { return s.found[key] }
func (s *seqSink) Extra(name string, v float64) { s.rec.Extra(name, v) }
func (s *seqSink) Stop(reason string, _ bool)   { s.rec.Stop(reason) }
func (s *seqSink) result() *explore.Result      { return s.rec.Result() }

// smcPar is the state one parallel search shares: worker slots, and the
// root's record of executions and findings (what explore.Recorder does
// for a sequential search, fed in depth-first order).
type smcPar struct {
	ctx    context.Context
	opts   explore.Options
	slots  chan struct{} // a running goroutine of the search holds one
	wg     sync.WaitGroup
	halted atomic.Bool                     // the root committed a finding without KeepGoing
	rw     sync.RWMutex                    // rf: schedule sets and the maps holding them
	mu     sync.Mutex                      // rec, Observe
	rec    *explore.Recorder               // the record, fed in depth-first order
	raced  atomic.Pointer[map[string]bool] // race keys committed by the root (copied on write)
}

func newSMCPar(ctx context.Context, algo string, opts explore.Options, workers int) *smcPar {
	return &smcPar{ctx: ctx, opts: opts, slots: make(chan struct{}, workers), rec: explore.NewRecorder(algo, opts)}
}

// trySlot takes a free worker slot, if there is one.
func (p *smcPar) trySlot() bool {
	select {
	case p.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

func (p *smcPar) slot()    { p.slots <- struct{}{} }
func (p *smcPar) release() { <-p.slots }

// flush adds the counters a context kept to the search's.
func (p *smcPar) flush(c *smcCtx) {
	if len(c.extra) == 0 {
		return
	}
	p.mu.Lock()
	for _, x := range c.extra {
		p.rec.Extra(x.name, x.v)
	}
	p.mu.Unlock()
	c.extra = c.extra[:0]
}

func (p *smcPar) stop(reason string) {
	p.mu.Lock()
	p.rec.Stop(reason)
	p.mu.Unlock()
}

// smcEntry is one entry of a context's log: an execution, a finding, an
// ordered stop reason, or (rf) a proposal for an outer position.
type smcEntry struct {
	exec    *explore.Summary
	finding *explore.Finding
	raceKey string
	stop    string
	prop    *rfOut
}

// smcCtx is one context of a parallel search (see the file comment).
type smcCtx struct {
	par    *smcPar
	parent *smcCtx
	root   bool
	log    []smcEntry
	found  map[string]bool // race keys in log
	keys   map[string]bool // finding keys in log
	dead   atomic.Bool     // abandoned by its parent
	extra  []smcCounter    // counters of Extra, added to the search's when the context ends
}

// smcCounter is one counter of Extra (a context has a handful: a slice
// is cheaper than a map).
type smcCounter struct {
	name string
	v    float64
}

func newRootCtx(par *smcPar) *smcCtx { return &smcCtx{par: par, root: true} }

func (c *smcCtx) child() *smcCtx { return &smcCtx{par: c.par, parent: c} }

// done reports whether the context's work is no longer wanted: the search
// stopped, or an enclosing context was abandoned.
func (c *smcCtx) done() bool {
	if c.par.halted.Load() || c.par.ctx.Err() != nil {
		return true
	}
	for k := c; k != nil; k = k.parent {
		if k.dead.Load() {
			return true
		}
	}
	return false
}

func (c *smcCtx) Execution(x program.Execution) bool {
	p := c.par
	e := explore.Summarize(x)
	if p.opts.Observe != nil {
		p.mu.Lock()
		p.opts.Observe(x)
		p.mu.Unlock()
	}
	if c.put(smcEntry{exec: &e}) {
		return true
	}
	if f, ok := explore.ExecutionFinding(x); ok {
		return c.Finding(f, x.Trace().Threads, "")
	}
	return false
}

func (c *smcCtx) Finding(f explore.Finding, threads []program.Thread, raceKey string) bool {
	f.Steps = f.Schedule.Names(threads)
	if raceKey != "" && !c.root {
		if c.found == nil {
			c.found = map[string]bool{}
		}
		c.found[raceKey] = true
	}
	if !c.root {
		if c.keys == nil {
			c.keys = map[string]bool{}
		}
		if k := f.Key(); !c.keys[k] {
			c.keys[k] = true
		} else if c.par.opts.KeepGoing {
			return false // a finding before it in this context has the key
		}
	}
	stop := c.put(smcEntry{finding: &f, raceKey: raceKey})
	return stop || !c.par.opts.KeepGoing
}

func (c *smcCtx) RaceSeen(key string) bool {
	if c.found[key] {
		return true
	}
	m := c.par.raced.Load()
	return m != nil && (*m)[key]
}

func (c *smcCtx) Extra(name string, v float64) {
	for i := range c.extra {
		if c.extra[i].name == name {
			c.extra[i].v += v
			return
		}
	}
	c.extra = append(c.extra, smcCounter{name, v})
}

func (c *smcCtx) Stop(reason string, ordered bool) {
	if ordered {
		c.put(smcEntry{stop: reason})
		return
	}
	c.par.stop(reason)
}

// put appends e to the log, or records it if c is the root; it returns
// true if the search must stop (a finding without KeepGoing).
func (c *smcCtx) put(e smcEntry) bool {
	if !c.root {
		c.log = append(c.log, e)
		return false
	}
	return c.par.record(e)
}

// commit takes over the log of the finished child context k, whose work
// comes next in depth-first order; prop handles (rf) proposals, returning
// false for one that is not for a position of c, which then goes on to
// c's own log. It returns true if the search must stop.
func (c *smcCtx) commit(k *smcCtx, prop func(*rfOut) bool) bool {
	for _, e := range k.log {
		if e.prop != nil {
			if prop(e.prop) {
				continue
			}
			c.log = append(c.log, e)
			continue
		}
		if e.finding != nil {
			if !c.root {
				if e.raceKey != "" {
					if c.found == nil {
						c.found = map[string]bool{}
					}
					c.found[e.raceKey] = true
				}
				if c.keys == nil {
					c.keys = map[string]bool{}
				}
				if k := e.finding.Key(); c.keys[k] && c.par.opts.KeepGoing {
					continue
				} else {
					c.keys[k] = true
				}
			}
			if c.put(e) || !c.par.opts.KeepGoing {
				return true
			}
			continue
		}
		if c.put(e) {
			return true
		}
	}
	return false
}

// record is the root's recording of one entry, in depth-first order.
func (p *smcPar) record(e smcEntry) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case e.exec != nil:
		p.rec.Record(*e.exec)
	case e.finding != nil:
		if old := p.raced.Load(); e.raceKey != "" && (old == nil || !(*old)[e.raceKey]) {
			m := make(map[string]bool, 1)
			if old != nil {
				m = make(map[string]bool, len(*old)+1)
				for k := range *old {
					m[k] = true
				}
			}
			m[e.raceKey] = true
			p.raced.Store(&m)
		}
		if p.rec.Finding(*e.finding, nil) {
			p.halted.Store(true)
			return true
		}
	case e.stop != "":
		p.rec.Stop(e.stop)
	}
	return false
}

// result waits for every goroutine of the search and returns the findings
// (sorted as explore.Recorder sorts them) and the statistics.
func (p *smcPar) result(root *smcCtx) *explore.Result {
	p.wg.Wait()
	p.flush(root)
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rec.Result()
}

// smcTask is a child call run in a context of its own, possibly on
// another goroutine.
type smcTask struct {
	ctx  *smcCtx
	done chan struct{} // closed when the call returned
	stop bool          // what the call returned
}

// goHeld runs fn on a new goroutine that takes over the worker slot the
// caller just took (trySlot).
func (p *smcPar) goHeld(t *smcTask, fn func() bool) {
	t.done = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer p.release()
		defer close(t.done)
		t.stop = fn()
		p.flush(t.ctx)
	}()
}

// dispatch runs a child's call fn: on a new goroutine when spawned (the
// caller holds a worker slot for it, see goHeld), else at once (inline),
// counting which in sink's statistics.
func (p *smcPar) dispatch(sink smcSink, t *smcTask, spawned bool, fn func() bool) {
	if spawned {
		sink.Extra("spawned_children", 1)
		p.goHeld(t, fn)
	} else {
		sink.Extra("buffered_children", 1)
		p.inline(t, fn)
	}
}

// inline runs fn at once on the caller's goroutine.
func (p *smcPar) inline(t *smcTask, fn func() bool) {
	t.done = make(chan struct{})
	t.stop = fn()
	p.flush(t.ctx)
	close(t.done)
}

// wait waits for t, giving the caller's worker slot to others meanwhile.
func (p *smcPar) wait(t *smcTask) {
	select {
	case <-t.done:
		return
	default:
	}
	p.release()
	<-t.done
	p.slot()
}

func (t *smcTask) finished() bool {
	select {
	case <-t.done:
		return true
	default:
		return false
	}
}
