package explicit

// This file connects the two SMC explorers (rfsmc.go, rvfsmc.go) to
// parallel.Tree, which runs their recursion on any number of workers
// ("run in parallel, commit in order", parallel/ordered.go; one worker is
// the sequential search, on the same code path). What the calls of a node
// do that reaches outside it is a log of smcEntry: finished executions,
// findings, ordered stop reasons and (rf) schedules proposed for positions
// of calls outside the node (rfsmc_parallel_rf.go). The root hands them,
// in depth-first order, to explore.Recorder (smcRec): counts, the
// executions' numbers in findings and the first finding at which the
// search stops without --keep-going are those of one worker.
//
// A node may look at a schedule set of an outer node only to skip a
// proposal that set already holds (it can only hold proposals made before
// in depth-first order); all schedule sets and the maps that hold them are
// guarded by the tree's lock (parallel.Tree.Lock). Backtrack signals are
// ORs (rvf), so they need no order. Only the algorithm counters of --json's
// extra (witness queries, replays, ...) may differ with the number of
// workers: a node cannot see proposals or races that outer ones will only
// commit later, and asks again.

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"mcr/parallel"
	"mcr/program"
	"mcr/program/explore"
)

// smcSink receives what an SMC call finds (smcCtx).
type smcSink interface {
	// Execution records a finished execution; true means stop.
	Execution(x program.Execution) bool
	// Finding records a finding (raceKey names a race's location pair, ""
	// for other findings); true means stop.
	Finding(f explore.Finding, threads []program.Thread, raceKey string) bool
	// Reports reports whether findings of kind are wanted
	// (explore.Options.Kinds); races that are not need no race queries.
	Reports(kind string) bool
	// RaceSeen reports whether the race of this location pair is found
	// already (by this search, in depth-first order before the caller).
	RaceSeen(key string) bool
	Extra(name string, v float64)
	// Stop marks the search incomplete; ordered reasons (a failed trylock)
	// are recorded in depth-first order, others (timeouts) at once.
	Stop(reason string, ordered bool)
}

// smcEntry is one entry of a node's log: an execution, a finding, an
// ordered stop reason, or (rf) a proposal for an outer position.
type smcEntry struct {
	exec    *explore.Summary
	finding *explore.Finding
	threads []program.Thread // name the steps of finding, if the Recorder keeps it
	raceKey string
	stop    string
	prop    *rfOut
}

// smcRec is the root's record of one search: explore.Recorder, fed in
// depth-first order by the tree (record), and told at once what is
// unordered (counters, unordered stops, Observe).
type smcRec struct {
	opts  explore.Options
	tree  *parallel.Tree[smcEntry]
	mu    sync.Mutex                      // rec and Observe: other workers flush counters and stop
	rec   *explore.Recorder               // the record
	raced atomic.Pointer[map[string]bool] // race keys recorded (copied on write: read by every worker)
}

// runSMC runs the search whose root call is root on the given number of
// workers and returns its findings (sorted as explore.Recorder sorts them)
// and statistics. With the environment variable MCR_WORKER_STATS set, it
// prints what the workers did to stderr (parallel.Stats; "offer-all":
// with every child worth a task offered, which shows the parallelism the
// recursion has): a tool for tuning --workers, which measures CPU time
// and so works on a loaded machine too.
func runSMC(algo string, opts explore.Options, workers int, root func(c *smcCtx)) *explore.Result {
	r := &smcRec{opts: opts, rec: explore.NewRecorder(algo, opts)}
	r.tree = parallel.NewTree(workers, r.record)
	stats := os.Getenv("MCR_WORKER_STATS")
	if stats != "" {
		r.tree.Measure(stats == "offer-all")
	}
	var c *smcCtx
	r.tree.Run(func(n *parallel.Node[smcEntry]) {
		c = &smcCtx{node: n, rec: r}
		root(c)
	})
	r.flush(c)
	if stats != "" {
		fmt.Fprintf(os.Stderr, "mcr: %s: %v\n", algo, r.tree.Stats())
	}
	return r.rec.Result()
}

// record is the root's recording of one entry, in depth-first order; it
// returns true if the search must stop.
func (r *smcRec) record(e smcEntry) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case e.exec != nil:
		r.rec.Record(*e.exec)
	case e.finding != nil:
		if old := r.raced.Load(); e.raceKey != "" && (old == nil || !(*old)[e.raceKey]) {
			m := make(map[string]bool, 1)
			if old != nil {
				m = make(map[string]bool, len(*old)+1)
				for k := range *old {
					m[k] = true
				}
			}
			m[e.raceKey] = true
			r.raced.Store(&m)
		}
		return r.rec.Finding(*e.finding, e.threads)
	case e.stop != "":
		r.rec.Stop(e.stop)
	}
	return false
}

// flush adds the counters a node kept to the search's.
func (r *smcRec) flush(c *smcCtx) {
	if len(c.extra) == 0 {
		return
	}
	r.mu.Lock()
	for _, x := range c.extra {
		r.rec.Extra(x.name, x.v)
	}
	r.mu.Unlock()
	c.extra = c.extra[:0]
}

// smcCtx is the sink of the calls of one node: it puts what they find into
// the node's log (the root's goes to smcRec at once) and keeps what they
// need to know of it.
type smcCtx struct {
	node  *parallel.Node[smcEntry]
	rec   *smcRec
	found map[string]bool // race keys in the log (not kept by the root: smcRec.raced)
	keys  map[string]bool // finding keys in the log (not kept by the root: the Recorder)
	extra []smcCounter    // counters of Extra, added to the search's when the node's call ends
}

// smcCounter is one counter of Extra (a node has a handful: a slice is
// cheaper than a map).
type smcCounter struct {
	name string
	v    float64
}

// child returns the sink of a new child node, for a child call run as a
// task (start).
func (c *smcCtx) child() *smcCtx { return &smcCtx{node: c.node.Child(), rec: c.rec} }

// done reports whether the node's work is no longer wanted (the search
// stopped, or the node or one around it was abandoned).
func (c *smcCtx) done() bool { return c.node.Done() }

// spawn takes a worker slot for a child task if one is free and worth()
// (asked only then; never with one worker); the child then runs on a
// goroutine of its own (start).
func (c *smcCtx) spawn(worth func() bool) bool { return c.rec.tree.TrySlot(worth) }

// start runs fn, the call of the child node k, as a task: on a goroutine
// of its own if spawned, else at once (buffered in k's log), counting
// which. k's counters are flushed when fn returns.
func (c *smcCtx) start(k *smcCtx, spawned bool, fn func() bool) *parallel.Task[smcEntry] {
	if spawned {
		c.Extra("spawned_children", 1)
	} else {
		c.Extra("buffered_children", 1)
	}
	return c.rec.tree.Go(k.node, spawned, func() bool {
		stop := fn()
		c.rec.flush(k)
		return stop
	})
}

func (c *smcCtx) Execution(x program.Execution) bool { return c.executionIndexed(x, nil) }

// executionIndexed is Execution for a caller that has indexed x's trace
// (explore.SummarizeIndexed).
func (c *smcCtx) executionIndexed(x program.Execution, ix *program.TraceIndex) bool {
	e := explore.SummarizeIndexed(x, ix)
	if obs := c.rec.opts.Observe; obs != nil {
		c.rec.mu.Lock()
		obs(x)
		c.rec.mu.Unlock()
	}
	if c.node.Put(smcEntry{exec: &e}) {
		return true
	}
	for _, f := range explore.ExecutionFindings(x) {
		if c.Finding(f, x.Trace().Threads, "") {
			return true
		}
	}
	return false
}

func (c *smcCtx) Finding(f explore.Finding, threads []program.Thread, raceKey string) bool {
	if !c.Reports(f.Kind) {
		if k := explore.UnreportedKey(f.Kind); k != "" {
			c.Extra(k, 1) // svcomp.Decide: no TRUE after undefined behaviour
		}
		return false // neither counts nor stops the search (explore.Options.Kinds)
	}
	return c.finding(smcEntry{finding: &f, threads: threads, raceKey: raceKey})
}

// finding puts the finding entry e into the node; it returns true if the
// node's work must stop: the search stopped, or this is a finding and
// only the first is wanted (nothing after it in depth-first order
// counts).
func (c *smcCtx) finding(e smcEntry) bool {
	keepGoing := c.rec.opts.KeepGoing
	if !c.node.Root() {
		if e.raceKey != "" {
			if c.found == nil {
				c.found = map[string]bool{}
			}
			c.found[e.raceKey] = true
		}
		if c.keys == nil {
			c.keys = map[string]bool{}
		}
		k := e.finding.Key()
		if c.keys[k] && keepGoing {
			return false // a finding before it in this node has the key
		}
		c.keys[k] = true
	}
	return c.node.Put(e) || !keepGoing
}

func (c *smcCtx) Reports(kind string) bool { return c.rec.opts.Reports(kind) }

func (c *smcCtx) RaceSeen(key string) bool {
	if c.found[key] {
		return true
	}
	m := c.rec.raced.Load()
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
		c.node.Put(smcEntry{stop: reason})
		return
	}
	c.rec.mu.Lock()
	c.rec.rec.Stop(reason)
	c.rec.mu.Unlock()
}

// commit takes over the log of the finished child node k, whose work comes
// next in depth-first order; prop handles (rf) proposals, returning false
// for one that is not for a position of c, which then goes on to c's own
// log. It returns true if the node's work must stop.
func (c *smcCtx) commit(k *smcCtx, prop func(*rfOut) bool) bool {
	return c.node.Commit(k.node, func(e smcEntry) bool {
		switch {
		case e.prop != nil:
			if prop(e.prop) {
				return false
			}
			return c.node.Put(e)
		case e.finding != nil:
			return c.finding(e)
		}
		return c.node.Put(e)
	})
}
