package explicit

// This file implements RVF-SMC, Algorithm 2 of seed 000
// (000_1fb260b9b3a323b2.txt, Section 5): stateless model checking under
// the reads-value-from equivalence, which explores at most one maximal
// trace per class of (event set, value each read reads, causal order of
// the reads). A call RVF-SMC(X, GoodW, σ, C) runs the witness σ of
// (X, GoodW), extends it by every enabled event that is not a read
// (line 1), and then gives each enabled read, in turn, each value some
// visible write offers (lines 13-28), asking VerifySC (verifysc.go, with
// closure and the auxiliary trace σ̃∘r as guide, Section 4.2) for a witness
// of the larger instance. The causal map C forbids a read the sources an
// earlier sibling already covered (lines 29-30); backtrack signals stop a
// call early when no descendant found a new source for the read it
// mutated (lines 2-5, 12-16, Lemma 1).
//
// Appendix A: an RMW or CAS read is mutated together with its write half;
// a CAS has one iff the value it reads equals its expected value, which
// the executor only tells once the CAS runs, so each pending CAS is run
// once on the spent execution to learn it. A pending RMW or CAS read is a
// potential source for an ancestor's read of its location (line 4). A
// lock acquire is a read of its mutex and a release a write: each release
// is a value of its own, and init (the lock never released) is one too.
// Spawn and join extend program order. Backtrack signals cover acquires
// too, with the signal of signal's comment: a pending acquire of the
// same mutex by another thread (without them, 13 threads on disjoint
// mutexes made 2^13 calls for one execution: issue 17).
//
// Blocked executions (issue 12): a thread whose __VERIFIER_assume fails is
// stuck (program.Stuck) and the executor runs the others on, so the trace
// holds the writes the stuck thread waited for, and lines 2-5 offer them
// to its reads like any other visible write. A failed assumption is local,
// so a stuck thread is, for the exploration, a thread that ended early;
// the maximal traces are those of the program in which assume(c) stops the
// thread when c is false, and RVF-SMC's completeness (seed 000 Theorem 2)
// carries over. A lock held by a stuck thread leaves its waiters at a
// pending acquire, which lines 6-11 mutate as any enabled-or-waiting read
// of the mutex (Appendix A).
//
// Three shortcuts, none changing what is explored: the value group that
// holds the active write of σ̃ needs no VerifySC, σ̃∘r is its witness (the
// auxiliary trace of Section 4.2); a child whose witness is σ̃∘r goes
// on from the parent's execution instead of running σ' again; and a read
// with one possible source runs in place, its call's level resumed only
// if a signal asks for it (rvfsmc_steps.go).
//
// Executions are counted at the leaves, the calls whose extension ends the
// execution (every thread finished, blocked or failed): one per explored
// class. The runs of inner calls, which stop at the first reads, are
// counted as "replays". Races are read off the leaves: hb-unordered pairs
// at once, hb-ordered ones by an explicit MCR race query (Seeder) on the
// values of the trace, since a class fixes values, not sources. The other
// outcome of a trylock is not explored (noteTrylocks: incomplete).
//
// With several workers, the children of the mutated reads (one per value
// group) run in parallel and are committed in order (parallel.Tree, see
// rfsmc_parallel.go; with one worker each runs directly, in order);
// the loop of line 13 goes on to the next read while a read's children
// run only once its backtrack signal is set (rfsmc_parallel_rvf.go).

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	"mcr/parallel"
	"mcr/program"
	"mcr/program/explore"
)

// RVFSMC explores p with RVF-SMC and returns the findings and statistics
// (Extra: "replays", "verifysc_queries", "guided_witnesses",
// "pruned_by_backtrack", "duplicates_avoided" (mutations the causal map
// forbids), "race_queries", and
// "rf_mismatches", "replay_errors", "decider_errors", which are 0 unless
// something is wrong). The search stops at the first finding unless
// opts.KeepGoing, and when ctx is done (the result is then incomplete).
func RVFSMC(ctx context.Context, p program.Program, opts explore.Options) *explore.Result {
	return RVFSMCWith(ctx, p, opts, RVFConfig{})
}

// RVFSMCWorkers is RVFSMC on the given number of workers (below 1: one).
// Everything but the algorithm counters of Extra is the same for every
// number of workers.
func RVFSMCWorkers(ctx context.Context, p program.Program, opts explore.Options, workers int) *explore.Result {
	return RVFSMCWith(ctx, p, opts, RVFConfig{Workers: workers})
}

// RVFConfig says which deciders RVF-SMC asks and what else it reports; the
// MCR explorer (package mcr) runs RVF-SMC's exploration order with its own
// deciders through it. The zero value is RVFSMC.
type RVFConfig struct {
	// Workers is the number of workers (below 1: one).
	Workers int
	// Name is the algorithm name of the result ("" : "rvf").
	Name string
	// Decider decides the good-writes instances of the mutations (lines
	// 19-22); nil means VerifySC. It must be safe for concurrent use. An
	// error from it stops the search (incomplete), so wrap a decider that
	// may give up (Z3) with a fallback.
	Decider program.Decider
	// Races decides the race queries of Section 3.3 of seed 001 on the
	// maximal traces (hb-ordered candidate pairs); nil means Seeder. It
	// must be safe for concurrent use.
	Races program.SeedDecider
	// PredictNull reports a predicted null dereference (seed 001, Section
	// 3.3, the null-read property) whenever a read whose value is
	// dereferenced is given the value 0 and the instance has a witness,
	// before that child runs.
	PredictNull bool
	// Queries names the counter of decided instances ("" :
	// "verifysc_queries").
	Queries string
	// OnWitness, if set, sees every instance that VerifySC or Decider
	// answered with a witness, and the witness; inst is reused after it
	// returns. With several workers it is called concurrently.
	OnWitness func(inst *program.Instance, w program.Witness)

	validate bool // explore.Options.Validate
}

// RVFSMCWith is RVF-SMC with the deciders and reports of cfg.
func RVFSMCWith(ctx context.Context, p program.Program, opts explore.Options, cfg RVFConfig) *explore.Result {
	if cfg.Name == "" {
		cfg.Name = "rvf"
	}
	if cfg.Decider == nil {
		cfg.Decider = &VerifySC{}
	}
	if cfg.Races == nil {
		cfg.Races = Seeder{}
	}
	if cfg.Queries == "" {
		cfg.Queries = "verifysc_queries"
	}
	cfg.validate = opts.Validate
	return runSMC(cfg.Name, opts, cfg.Workers, func(root *smcCtx) {
		s := &rvfSMC{ctx: ctx, p: startCopies(p), cfg: &cfg, good: map[program.EventID][]program.EventID{}, sink: root, slab: &viewSlab{},
			conts: &rvfConts{m: map[string][]program.Event{}}}
		s.races = raceReporter{sink: root}
		s.replay, s.spares = &replayCache{p: s.p}, &spareStats{}
		s.call(nil, rvfCausal{}, nil, nil, nil, nil)
	})
}

// rvfCausal is a causal map C: for a read, per thread the number of
// events of that thread whose writes it may no longer read.
type rvfCausal map[program.EventID][]int32

// rvfAncestor is a read mutated by a call on the recursion path, with its
// backtrack signal (set by any of its descendants, on any worker), and the
// ancestor above it.
type rvfAncestor struct {
	thread program.ThreadID
	loc    locKey
	signal atomic.Bool
	up     *rvfAncestor
}

type rvfSMC struct {
	ctx   context.Context
	p     program.Program
	sink  *smcCtx // the node this call runs in
	races raceReporter
	cfg   *RVFConfig // shared by every call, read only
	// good is GoodW of the current call: the allowed sources of every read
	// (and acquire) of X.
	good map[program.EventID][]program.EventID
	// anc is the innermost read mutated on the recursion path.
	anc *rvfAncestor
	// conts are the extensions learned so far (rvfsmc_dead.go), shared;
	// learn is the key the next call records its extension under.
	conts *rvfConts
	learn contLearn
	slab  *viewSlab // the views of this node's calls (rvfsmc_view.go)
	// cundo logs the entries of C the calls on the recursion path set,
	// with what they replaced (setC, restoreC): a call hands its C to the
	// children it runs itself and undoes its own entries before it
	// returns, where copying C for every child cost a twentieth of rvf's
	// time on lastzero (issue 17). A child in a node of its own gets a
	// copy (its C may be read while this node goes on).
	cundo []causalEntry
	// replay runs the σ of the calls that cannot go on from their
	// parent's execution (rvfsmc_replay.go); one per node.
	replay *replayCache
	spares *spareStats // one per node
}

// spareStats counts the copies of a call's execution kept for a later
// read's σ̃∘r (auxLater), made or not (made), and how many of them a
// child went on from, or would have (used). A copy costs as much as
// running a few dozen events, and whether it serves depends on the
// backtrack signals of the subtree before it: on casrot N=9 and sigma N=7
// 61% and 79% of them were never used, where running σ̃∘r again from the
// replay cache's copy is cheaper; on lastzero N=11 63% were used (issue
// 17). Which one is chosen changes no result, only the work.
type spareStats struct{ made, used int }

// worth reports whether copies have served often enough to make one: half
// of them, or too few were counted to tell.
func (st *spareStats) worth() bool { return st.made < 32 || 2*st.used >= st.made }

type causalEntry struct {
	r   program.EventID
	old []int32
	had bool // r had an entry (old)
}

// setC sets C(r) := counts, logged in s.cundo.
func (s *rvfSMC) setC(C rvfCausal, r program.EventID, counts []int32) {
	old, had := C[r]
	s.cundo = append(s.cundo, causalEntry{r, old, had})
	C[r] = counts
}

// restoreC undoes the entries of s.cundo from mark on, last first.
func (s *rvfSMC) restoreC(C rvfCausal, mark int) {
	for i := len(s.cundo) - 1; i >= mark; i-- {
		if e := s.cundo[i]; !e.had {
			delete(C, e.r)
		} else {
			C[e.r] = e.old
		}
	}
	s.cundo = s.cundo[:mark]
}

// call is RVF-SMC(X, GoodW, σ, C), X and GoodW being the events of σ and
// s.good. If live is not nil, it is an execution that has run σ already
// (the parent's, when σ is σ̃∘r), else σ is run from the start; sw, if
// not nil, has followed live's trace so far (steps); v, if not nil, is
// the parent's view of its σ̃ when σ is σ̃∘r (rvfsmc_view.go). pred, if
// not nil, is the parent's finding about σ (RVFConfig.PredictNull),
// reported here so that findings come in depth-first order on any number
// of workers. It returns true if the exploration must stop.
func (s *rvfSMC) call(sigma program.Schedule, C rvfCausal, live program.Execution, sw *singleWriters, v *rvfTrace, pred *rvfPred) bool {
	if s.ctx.Err() != nil {
		s.learn = contLearn{}
		s.sink.Stop(explore.StopReason(s.ctx), false)
		return true
	}
	learn := s.learn
	s.learn = contLearn{}
	if s.sink.done() {
		return true
	}
	// Line 1: σ̃ := σ∘σ̂, σ̂ a maximal extension without reads.
	x := live
	if x == nil {
		sw = nil
		var err error
		if x, err = s.replay.run(sigma); err != nil {
			s.sink.Extra("replay_errors", 1)
			return false
		}
		s.sink.Extra("replays", 1)
		if v != nil && !extends(x.Trace(), v.guide) {
			v = nil // not run as planned (counted by checkValues under Validate)
		}
	}
	// A predicted null dereference is reported only when this run of σ
	// shows it: the read returned 0 (a finding is reported after its
	// witness replays).
	if pred != nil {
		if !pred.shown(x.Trace()) {
			s.sink.Extra("null_predictions_not_shown", 1)
		} else if s.sink.Finding(pred.f, pred.threads, "") {
			return true
		}
	}
	return s.steps(x, C, sw, v, learn)
}

// extends reports whether tr begins with the events of sched.
func extends(tr *program.Trace, sched program.Schedule) bool {
	if len(tr.Events) < len(sched) {
		return false
	}
	for i, id := range sched {
		if tr.Events[i].ID() != id {
			return false
		}
	}
	return true
}

// mutateAll is lines 12-30 of the call whose σ̃ is tr (lines 1-11 are
// steps'), mutate being the reads of lines 6-11 still to mutate; v is its
// view of tr, or a view tr extends (from scratch if nil), built only if
// tr is not a leaf. x, if not
// nil, is an execution that has run σ̃ (else a resumed level, whose
// children run their witnesses from the start), and sw, if not nil, has
// followed it (for the child that goes on from x). If tail, nothing of the
// caller is used after the last child, which may then run as a tail
// call. It returns true if the exploration must stop.
func (s *rvfSMC) mutateAll(tr *program.Trace, v *rvfTrace, x program.Execution, sw *singleWriters, mutate []program.Event, call *rvfCall, C rvfCausal, tail bool) (stop bool) {
	if x != nil {
		if over, _ := x.Done(); over || len(mutate) == 0 {
			// A maximal trace: the leaf of its class. Only accesses that
			// are not atomic race; without one, the report would build
			// its orders for nothing (lastzero N=11: a tenth of rvf's time).
			if c, ok := s.p.(*copyStart); ok {
				c.Observe(len(tr.Events)) // for the copied starts' Reserve
			}
			return s.sink.Execution(x) || hasPlainAccess(tr) && s.races.report(s.ctx, tr, newHBOrder(tr, true), s.predictRace(tr))
		}
	}
	v = traceView(v, tr, s.slab)
	// C is the caller's again after lines 29-30 below; not when the search
	// stops: nothing reads C after a stop.
	mark := len(s.cundo)
	defer func() {
		if !stop {
			s.restoreC(C, mark)
		}
	}()
	guide := sched(v.guide)
	if x != nil && s.learnCASArgs(x, guide, mutate) {
		x, sw = nil, nil // it ran on
	}
	plain := sched(v.plain) // σ̃ without RMW write halves, as witnesses are
	mhb := v.h
	var spare program.Execution // a copy of x for a later read's σ̃∘r, once x is gone
	unmade := false             // a copy not made (spareStats) is owed
	var base *rvfBase           // P0 (rvfsmc_closure.go), on the first query
	// Lines 12-28.
	var pending rvfPending // children in nodes of their own, in order, of this read and earlier ones
	defer pending.abandon()
	backtrack := true
	for backtrack && len(mutate) > 0 {
		r := mutate[0]
		mutate = mutate[1:]
		if _, ok := C[r.ID()]; !ok {
			// Lines 15-16 (for an acquire too: see signal).
			backtrack = false
		}
		// Lines 17-18: the visible sources C allows, grouped by value.
		q := &rvfQuery{tr: tr, h: mhb, r: r, guide: guide, plain: plain, active: activeOf(tr, &r)}
		anc := &rvfAncestor{thread: r.Thread, loc: locKey{r.Loc, r.Kind == program.Acquire}, up: s.anc}
		anc.signal.Store(backtrack)
		groups, avoided := s.sources(tr, mhb, r, C[r.ID()])
		if avoided > 0 {
			s.sink.Extra("duplicates_avoided", float64(avoided))
		}
		for gi, group := range groups {
			if pending.commitFinished(s) {
				return true
			}
			// Lines 20-22: X' = X ∪ E(σ̃) ∪ {r}, GoodW' = GoodW ∪ {(r, group)}.
			if !slices.Contains(group, q.active) {
				if base == nil {
					base = v.baseOf(s.good)
				}
				if q.writes == nil {
					q.writes = writesOf(tr, &r)
				}
				if base.unrealizable(tr, mhb, q.writes, &r, group) {
					s.checkNegative(q, group)
					s.sink.Extra("closure_negatives", 1)
					continue
				}
			}
			s.good[r.ID()] = group
			w, aux, err := s.witness(q, group)
			delete(s.good, r.ID())
			if err != nil {
				if s.ctx.Err() != nil {
					s.sink.Stop(explore.StopReason(s.ctx), false)
					return true
				}
				// A dropped child would leave the search incomplete
				// without saying so.
				s.sink.Extra("decider_errors", 1)
				s.sink.Stop("decider failed: "+err.Error(), false)
				return true
			}
			if w == nil && !aux {
				continue
			}
			aux = aux || len(w) == len(plain)+1 && w[len(plain)] == r.ID() && slices.Equal(w[:len(plain)], plain)
			var pred *rvfPred
			if s.cfg.PredictNull && r.Kind == program.Read && r.Is(program.Deref) && q.value(group) == 0 {
				if w == nil {
					w = append(slices.Clone(plain), r.ID())
				}
				pred = &rvfPred{threads: tr.Threads, read: r.ID(), f: explore.Finding{Kind: explore.KindNullDereference, Schedule: w,
					Message:   "predicted: the dereferenced pointer " + tr.LocName(r.Loc) + " can be NULL",
					Locations: []explore.Location{explore.LocationOf(tr, r.Pos)}}}
			}
			var learn contLearn
			if pred == nil {
				dead, key := s.dead(q, call, C, group, anc)
				if dead {
					continue
				}
				learn = contLearn{key, r.Thread}
			}
			// Lines 23-28.
			var live program.Execution
			var liveSW *singleWriters
			if aux && x == nil && spare == nil && unmade {
				// The copy not made would have served this child: it runs
				// σ' instead, and a copy would have been made of it.
				s.spares.used++
				unmade = auxLater(tr, mutate, C)
				s.spares.made += b2i(unmade)
			}
			if (x != nil || spare != nil) && aux {
				// σ' = σ̃∘r: the child goes on from x instead of running σ'
				// again, or from a copy of x kept for the later reads.
				if x == nil {
					x, spare = spare, nil
					s.spares.used++
				}
				if spare == nil && auxLater(tr, mutate, C) {
					s.spares.made++
					if !s.spares.worth() {
						unmade = true
					} else if spare = cloneOf(x); spare != nil {
						s.sink.Extra("copies", 1)
					}
				}
				x.Step(r.Thread)
				live, x, liveSW, sw = x, nil, sw, nil
			}
			if w == nil && live == nil {
				w = append(slices.Clone(plain), r.ID()) // σ̃∘r, run from the start
			}
			var childView *rvfTrace // σ' extends σ̃: the child extends v
			if aux {
				childView = v
			}
			// Another worker takes the child only if this one has another
			// child to run meanwhile (else it would only wait for it).
			spawned := s.sink.spawn(func() bool { return gi+1 < len(groups) || len(mutate) > 0 && anc.signal.Load() })
			if !spawned && len(pending) == 0 {
				if tail && gi == len(groups)-1 && len(mutate) == 0 {
					// The last child of the last read, as a tail call:
					// nothing of this call is used after it, so its trace,
					// clocks and schedules are dead and can be collected
					// while the child runs. A long run extends by one read
					// per level, and keeping them alive made memory grow
					// with the square of its length (issue 13: a spinning
					// thread took 8 GB in 10 s, now 240 MB).
					s.learn = learn
					return s.descend(w, C, live, liveSW, childView, pred, anc, r.ID(), group)
				}
				s.learn = learn
				if s.descend(w, C, live, liveSW, childView, pred, anc, r.ID(), group) {
					return true
				}
				continue
			}
			c := &rvfChild{k: s.fork(r.ID(), group, anc)}
			c.k.learn = learn
			if spawned {
				kC := C.clone() // now: C changes when the loop goes on (lines 29-30)
				c.t = s.sink.start(c.k.sink, true, func() bool { return c.k.call(w, kC, live, nil, nil, pred) })
			} else {
				// It runs at once on this goroutine, as descend's child
				// does, so it may use C and the view as that one does
				// (not sw, which follows this call's good writes).
				c.t = s.sink.start(c.k.sink, false, func() bool { return c.k.call(w, C, live, nil, childView, pred) })
			}
			pending = append(pending, c)
		}
		if pending.waitSignal(s, anc) {
			return true
		}
		backtrack = anc.signal.Load()
		s.setC(C, r.ID(), v.threadCounts()) // lines 29-30: C(r)(thr) := |E(σ̃)_thr|
	}
	if pending.waitAll(s) {
		return true
	}
	if len(mutate) > 0 {
		s.sink.Extra("pruned_by_backtrack", float64(len(mutate)))
	}
	return false
}

// descend runs the child call σ' = w of read r (GoodW(r) = group, anc its
// ancestor entry; v the parent's view if σ' = σ̃∘r) in this goroutine and
// restores this call's state after it. It returns true if the exploration
// must stop.
func (s *rvfSMC) descend(w program.Schedule, C rvfCausal, live program.Execution, sw *singleWriters, v *rvfTrace, pred *rvfPred, anc *rvfAncestor, r program.EventID, group []program.EventID) bool {
	s.good[r] = group
	s.anc = anc
	stop := s.call(w, C, live, sw, v, pred) // C comes back as it was
	s.anc = anc.up
	delete(s.good, r)
	return stop
}

// hasPlainAccess reports whether tr has an access that is not atomic:
// the accesses raceReporter.report looks at.
func hasPlainAccess(tr *program.Trace) bool {
	for i := range tr.Events {
		if e := &tr.Events[i]; e.Kind.IsAccess() && !e.Is(program.RMWWrite) && !e.Is(program.Atomic) {
			return true
		}
	}
	return false
}

// rvfPred is a finding a call reports about its child's seed before the
// child runs (RVFConfig.PredictNull), with the threads that name its steps.
type rvfPred struct {
	f       explore.Finding
	threads []program.Thread
	read    program.EventID // the dereferenced read predicted to return 0
}

// shown reports whether tr executed the predicted read and it returned 0.
func (p *rvfPred) shown(tr *program.Trace) bool {
	for i := len(tr.Events) - 1; i >= 0; i-- {
		if e := &tr.Events[i]; e.ID() == p.read {
			return e.Value == 0
		}
	}
	return false
}

// signal sets the backtrack signal of every ancestor read of loc in
// another thread than t (lines 3-5). For a read, t's event is a write
// (or a pending RMW or CAS, Appendix A); for an acquire of mutex l, a
// release of l or a pending acquire of l, enabled or waiting.
//
// Why acquires need the pending acquires (Lemma 1 of seed 000 for an
// acquire r of l, enabled after σ̃, r not in dom(C)): the loop of line 13
// may stop after r only if no trace σ' satisfying GoodW and C lacks r
// (r waits forever: a deadlock, or l held by a thread that ended) or has
// r follow a release not in σ̃. In either case some acquire of l by
// another thread is in σ' and not in E(σ̃) (l is free after σ̃); let a be
// the first. σ1, the prefix of σ' before a, followed by the events of
// E(σ̃) that come after a in σ', is a trace satisfying GoodW and C: the
// events removed are not in E(σ̃), every read and acquire of E(σ̃) keeps
// its source, and none of the events moved touches l (the first acquire
// of l after a's release reads a release not in σ̃, and so on). After it
// l is free and both r and a are the next events of their threads, so r
// can run reading a release of σ̃ (or init), and a stays pending in every
// maximal extension, run or waiting forever. The child of that value
// group explores such an extension (completeness, by induction), and on
// its path some call sees a pending: acquires never run in the
// extensions of line 1, so every acquire of a trace is pending in some
// call on its path, or at its leaf. So the signal is set. With releases
// alone, or without the waiting acquires, rvf lost outcomes of random
// programs over several mutexes (TestRVFLocksRandom, program 20).
func (s *rvfSMC) signal(t program.ThreadID, loc locKey) { s.signalUpTo(t, loc, nil) }

// signalUpTo is signal for the ancestors above stop (the innermost first),
// stop excluded.
func (s *rvfSMC) signalUpTo(t program.ThreadID, loc locKey, stop *rvfAncestor) {
	for a := s.anc; a != nil && a != stop; a = a.up {
		if a.loc == loc && a.thread != t {
			a.signal.Store(true)
		}
	}
}

// rvfQuery is what the queries of one read r share: σ̃ (tr, its schedule
// with and without RMW write halves, plain being how witnesses come), the
// active write of r's location at its end, and the instances of X' with
// and without a write half for r, built on first use (the value groups
// only change r's sources and value).
type rvfQuery struct {
	tr     *program.Trace
	h      *syncOrder // must-happen-before of tr
	r      program.Event
	guide  program.Schedule
	plain  program.Schedule
	active program.EventID
	inst   [2]*program.Instance
	writes []int32 // trace positions of the writes of r's location (writesOf), on first use
}

// witness asks for a witness of (X', GoodW') with GoodW'(r) = group: r has
// a write half if it is an RMW, or a CAS that succeeds on the value of
// group. If group holds the active write, σ̃∘r is one (Section 4.2, the
// auxiliary trace); otherwise VerifySC decides, guided by σ̃∘r. It returns
// the witness as a schedule, nil if there is none; or aux, when the
// witness is σ̃∘r, which the caller builds only if a run needs it (a child
// that goes on from the parent's execution does not).
func (s *rvfSMC) witness(q *rvfQuery, group []program.EventID) (w program.Schedule, aux bool, err error) {
	if slices.Contains(group, q.active) {
		s.sink.Extra("guided_witnesses", 1)
		if s.cfg.validate {
			// Validate: the decider must agree that a witness exists; the
			// auxiliary trace is still the one explored.
			if sched, err := s.decideGroup(q, group); err != nil || sched == nil {
				s.sink.Extra("decider_errors", 1)
			}
		}
		return nil, true, nil
	}
	if s.cfg.OnWitness == nil {
		half := q.half(group) == 1
		w = q.inserted(group, half)
		if w == nil {
			w = q.moved(group, half, s.good)
		}
		if w != nil {
			// r put into σ̃ (rvfsmc_insert.go).
			s.sink.Extra("inserted_witnesses", 1)
			if s.cfg.validate {
				if sched, err := s.decideGroup(q, group); err != nil || sched == nil {
					s.sink.Extra("decider_errors", 1)
				}
			}
			return w, false, nil
		}
	}
	w, err = s.decideGroup(q, group)
	return w, false, err
}

// half is 1 if r has a write half when it reads a write of group: it is
// an RMW, or a CAS that succeeds on group's value; else 0.
func (q *rvfQuery) half(group []program.EventID) int {
	r := q.r
	if r.Kind == program.Read && (r.Is(program.RMW) && !r.Is(program.CAS) || r.Is(program.CAS) && q.value(group) == r.Arg) {
		return 1
	}
	return 0
}

// decideGroup asks the decider for a witness of r reading a write of
// group (see witness).
func (s *rvfSMC) decideGroup(q *rvfQuery, group []program.EventID) (program.Schedule, error) {
	r := q.r
	v := q.value(group)
	half := q.half(group)
	inst := q.inst[half]
	if inst == nil {
		evs := append(slices.Clone(q.tr.Events), r)
		if half == 1 {
			evs[len(evs)-1].Flags |= program.RMW
			evs = append(evs, program.Event{Thread: r.Thread, Index: r.Index + 1, Kind: program.Write,
				Flags: program.Atomic | program.RMWWrite, Loc: r.Loc, Pos: r.Pos})
		} else {
			evs[len(evs)-1].Flags &^= program.RMW
		}
		srcs := make([][]program.EventID, len(evs))
		for i := range evs {
			if readLike(&evs[i]) {
				if srcs[i] = s.good[evs[i].ID()]; srcs[i] == nil {
					return nil, fmt.Errorf("rvf: %s has no good writes", evs[i].ID())
				}
			}
		}
		var err error
		if inst, err = smcInstance(program.GoodWrites, q.tr, evs, srcs, append(slices.Clone(q.guide), r.ID())); err != nil {
			return nil, err
		}
		q.inst[half] = inst
	}
	// r's sources and value for this group.
	d := inst.Dense(r.ID())
	set := make([]int32, len(group))
	for i, g := range group {
		set[i] = program.InitSource
		if g != program.InitID {
			set[i] = inst.Dense(g)
		}
	}
	slices.Sort(set)
	inst.Sources[d] = set
	if r.Kind == program.Read {
		inst.Events[d].Value = v
	}
	s.sink.Extra(s.cfg.Queries, 1)
	ans, err := s.cfg.Decider.Decide(s.ctx, inst)
	w, ok := ans.Witness, ans.Sat
	if err != nil || !ok {
		return nil, err
	}
	if s.cfg.OnWitness != nil {
		s.cfg.OnWitness(inst, w)
	}
	if w, err = sinkLast(inst, w, r.ID(), s.cfg.validate); err != nil {
		return nil, err
	}
	return scheduleOf(inst, w), nil
}

// value is the value the writes of group write.
func (q *rvfQuery) value(group []program.EventID) int64 {
	if g := group[0]; g != program.InitID {
		return q.tr.Events[q.h.At[g.Thread][g.Index]].Value
	}
	return q.tr.InitValue(q.r.Loc)
}

// activeOf returns the last write to r's location (the last release of
// its lock) in tr, program.InitID if there is none.
func activeOf(tr *program.Trace, r *program.Event) program.EventID {
	want := program.Write
	if r.Kind == program.Acquire {
		want = program.Release
	}
	for i := len(tr.Events) - 1; i >= 0; i-- {
		if e := &tr.Events[i]; e.Kind == want && e.Loc == r.Loc {
			return e.ID()
		}
	}
	return program.InitID
}

// checkValues counts the reads of tr that did not read a value their good
// writes write (a witness that did not replay as planned).
func (s *rvfSMC) checkValues(tr *program.Trace) {
	rf := program.RF(tr)
	for i := range tr.Events {
		e := &tr.Events[i]
		g, ok := s.good[e.ID()]
		if e.Kind != program.Read || !ok {
			continue
		}
		src := program.InitID
		if rf[i] >= 0 {
			src = tr.Events[rf[i]].ID()
		}
		if !slices.Contains(g, src) {
			s.sink.Extra("rf_mismatches", 1)
		}
	}
}

// predictRace returns the race query of Section 3.3 of seed 001 over the
// values of tr (seedRaces).
func (s *rvfSMC) predictRace(tr *program.Trace) func(a, b int32) (program.Schedule, bool) {
	return seedRaces(s.ctx, s.sink, s.cfg.Races, tr)
}

// seedRaces returns the race query of Section 3.3 of seed 001 over the
// values of tr, asked of d: can the two events end up enabled together,
// every read before them returning its traced value? rvf and vc use it
// for the hb-ordered pairs of a leaf, since their classes fix values, not
// sources. A failed query stops the search (incomplete).
func seedRaces(ctx context.Context, sink smcSink, d program.SeedDecider, tr *program.Trace) func(a, b int32) (program.Schedule, bool) {
	return func(a, b int32) (program.Schedule, bool) {
		q := program.NewSeedQuery(tr, nil)
		q.Race = [2]int32{a, b}
		sink.Extra("race_queries", 1)
		ans, err := d.Decide(ctx, q)
		if err != nil && ctx.Err() == nil {
			sink.Extra("decider_errors", 1)
			sink.Stop("race query failed: "+err.Error(), false)
		}
		if err != nil || !ans.Sat {
			return nil, false
		}
		return ans.Schedule, true
	}
}

// rvfChild is a child call that runs in a node of its own.
type rvfChild struct {
	k *rvfSMC
	t *parallel.Task[smcEntry]
}

// fork returns a node for the child call that gives read r the sources
// group, under the ancestor anc.
func (s *rvfSMC) fork(r program.EventID, group []program.EventID, anc *rvfAncestor) *rvfSMC {
	k := &rvfSMC{ctx: s.ctx, p: s.p, cfg: s.cfg, sink: s.sink.child(), anc: anc, conts: s.conts, slab: &viewSlab{},
		good: make(map[program.EventID][]program.EventID, len(s.good)+1)}
	for id, g := range s.good {
		k.good[id] = g
	}
	k.good[r] = group
	k.races = raceReporter{sink: k.sink}
	k.replay, k.spares = &replayCache{p: k.p}, &spareStats{}
	return k
}

func (c rvfCausal) clone() rvfCausal {
	out := make(rvfCausal, len(c))
	for k, v := range c {
		out[k] = v // never modified in place
	}
	return out
}
