package mcr

// This file is ExploreSeeds (`--algo mcr-seeds`): MCR as published,
// 001_aa53da3bf10d3f4e.txt Algorithms 1-3 (execute a seed interleaving,
// take the trace's maximal causal model, check properties on it, and
// generate a seed for every read and every new value it could read), with
// as much of its redundancy removed as the seed-per-read structure allows.
// Explore (explore.go) is the default; this one stays as the published
// algorithm to compare with.
//
// Plain MCR can explore a class many times (seed 000 notes it). Here:
//   - read-value maps only grow along a branch: a node carries the reads of
//     its seed with their values, every child seed must keep them, and only
//     reads outside the map are flipped;
//   - a visited set keyed on the canonical form of that map drops a seed
//     that another branch already produced, before it is solved when the
//     map is known (counted as duplicates avoided), and so is one whose
//     child could only run the class of a finished execution again
//     (classes.covers);
//   - sleep sets over seeds (sleepEntry) make the spaces of siblings
//     disjoint: a seed an elder sibling covers is not asked again below a
//     younger one, and younger siblings' seeds are steered away from the
//     elder ones' values (query.steer). This is sound while no seed needs
//     relaxing (explorer.clean); at the first that does, sleep sets are
//     given up and the seeds they skipped are asked after all.
//
// Every search that stayed clean ran at most one execution per
// reads-from class: on the testdata programs (casrot N=9: 8597 for 8597
// classes, 27109 without sleep sets) and on 912 of 1200 random programs
// (the tests hold clean searches to it). Once relaxed seeds appear (see
// query.relax), a class can still be executed more than once: by nodes
// with different maps, and by relaxed seeds. Reusing an earlier execution that satisfies a node's map instead
// of running its seed removes that, but lost outcomes on 3 of 1000 random
// programs (502, 879, 1065 of randprog.SmallOptions), so it is not done;
// keeping sleep sets with relaxed seeds lost outcomes on 7 to 93 of 1200.
//
// Blocked executions (issue 12): a thread whose __VERIFIER_assume fails is
// stuck and the others run on, so the writes it waited for are in the
// trace and its reads get seeds for their values like any read. Since a
// failed assumption is local, a stuck thread is a thread that ended early,
// and MCR's argument (seed 001 Theorem 1: the seeds cover the whole state
// space of a terminating program) applies to the program in which
// assume(c) stops the thread when c is false. One case has no seed: a thread left waiting for
// a lock that a stuck (or ended, or deadlocked) thread never releases,
// since its acquire is not in the trace. lockSeeds adds a child that runs
// it first (the blocking-lock rule of seed 002 Section 7).
//
// The search is level-synchronous: all seeds of one level are executed in
// parallel, all their queries are solved in parallel, and the results are
// merged in a fixed order. Findings and counts therefore do not depend on
// the number of workers.

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"mcr/encode"
	"mcr/parallel"
	"mcr/program"
	"mcr/program/explore"
)

// SeedOptions configure an ExploreSeeds exploration.
type SeedOptions struct {
	explore.Options
	// Workers is the number of parallel workers (0: number of CPUs).
	Workers int
	// NewDecider creates the decider one worker uses for seed queries.
	NewDecider func() (program.SeedDecider, error)
	// NewFallback, if set, creates the decider that answers when the main
	// one fails (Z3 unknown, timeout, or absent).
	NewFallback func() (program.SeedDecider, error)
	// OnAnswer, if set, sees every satisfiable seed, race and deadlock
	// answer, in a deterministic order (for --dump-instances).
	OnAnswer func(q program.SeedQuery, a program.SeedAnswer)
}

type queryKind uint8

const (
	qSeed queryKind = iota
	qRace
	qDeadlock
)

// node is one seed interleaving and what executing it gave.
type node struct {
	seed  program.Schedule
	fixed map[program.EventID]int64 // reads the seed fixes, with their values
	x     program.Execution         // the seed's execution, until its batch is merged
	// free marks the trace's free reads (freeReads) and pos indexes its
	// events, for classes.covers.
	pos  map[program.EventID]int32
	free []bool
	// sleep lists the seeds that earlier siblings of this node or of its
	// ancestors cover (see sleepEntry); slept counts those skipped.
	sleep []sleepEntry
	slept int
	// requery marks a node kept because sleep sets skipped some of its
	// seeds: when they are given up, its seed is replayed (the same
	// execution: counted as a replay, not again as an execution) and it is
	// queried again (see explorer.clean).
	requery bool
	err     error
	mcm     *encode.MCM
}

// sleepEntry is a seed (read, value) of a node n with map M that an
// earlier sibling s of the seed covers: s's space is S(M, past, read =
// value), past being the reads in read's causal past with their values.
// A descendant d of a later sibling (its map contains M) skips the seed
// when read's causal past has the same values in d's trace: its space is
// within s's. A sleep set over seeds, like the sleep sets of partial-order
// reduction: siblings' spaces become disjoint, and no class is reached
// from two of them (see explorer.clean for when this is sound).
type sleepEntry struct {
	read  program.EventID
	value int64
	past  string
}

type query struct {
	node int
	kind queryKind
	// dup marks a seed not asked because another node has the child's
	// map; past is the key of the read's causal past (see sleepEntry).
	dup   bool
	past  string
	q     program.SeedQuery
	deref bool // a seed that makes a dereferenced pointer read NULL
	// relax: if the seed is unsatisfiable with the node's fixed reads
	// required, ask again without them (Huang's Φ_seed(r, w) only keeps the
	// causal past of r and w: seed 001 Section 3.4), and then with the
	// largest parts of them a seed can keep (deciders.relaxedKids). A fixed
	// read of another thread may only be possible after events that follow
	// r (say, r's thread releasing a lock), which a seed ending at r cannot
	// contain. The relaxed seed is asked whenever the seed with the map is
	// not satisfiable, as seed 001's Algorithm 2 asks Φ_seed for every read
	// and new value (Theorem 1 rests on that). A "probe" used to drop it
	// when the fixed reads stayed out of reach with r's thread continuing
	// as traced, every read of the continuation keeping its traced value;
	// but what r's thread does after r can change with r's new value, so
	// the probe also dropped seeds that had an execution in the node's
	// space: a read-modify-write target (random programs 266, 447 and 803)
	// and, on testdata/c/dispatch_reread.c, a server that reads its
	// counter twice under a lock, whose second read would return the new
	// value, not the traced one (2 of 44 outcomes lost, the search
	// reported complete). While the search is clean (explorer.clean), the
	// relaxed seed is asked even if relaxDone, since whether it exists
	// decides cleanliness.
	relax   bool
	relaxed bool // the answer came from the relaxed query
	// steer, if not empty, is the query's Fixed with reads added that
	// keep their values: a satisfiable seed is asked so again. Reads whose
	// seeds an elder sibling or the sleep set covers keep the values they
	// have here, so the child's execution does not land in a class that
	// sibling explores. The child's map is the same either way (any
	// execution of its space would do), so this only steers.
	steer []int32
	// key is the canonical map of the child a seed gives when the query
	// is answered as asked ("" for race and deadlock queries); asked
	// whether it was (see solveBatch).
	key   string
	asked bool
	// relaxing is set when the query is asked again relaxed; relaxDone
	// when the classes of finished executions cover the fully relaxed
	// child's map (classes.covers), so that no relaxed child is needed
	// (every relaxed child's map contains it): a satisfiable relaxed seed
	// then makes none.
	relaxing  bool
	relaxDone bool
	// cands are the node's fixed reads a relaxed child may keep: those
	// not causally after the read. kids are a satisfiable relaxed seed's
	// children, one per maximal satisfiable subset of cands (see
	// deciders.relaxedKids for why dropping the whole map loses outcomes).
	cands         []int32
	kids          []relaxedKid
	subsetQueries int // queries relaxedKids asked beyond q.cands as a whole
	ans           program.SeedAnswer
	err           error
	by            string
	dur           time.Duration
}

// relaxedKid is one child of a relaxed seed: the query with the fixed
// reads it keeps (keep, positions in the node's trace) and its answer.
type relaxedKid struct {
	keep []int32
	q    program.SeedQuery
	ans  program.SeedAnswer
}

// ExploreSeeds runs MCR as published (Algorithms 1-3) on p.
func ExploreSeeds(ctx context.Context, p program.Program, opts SeedOptions) *explore.Result {
	e := &explorer{p: p, opts: opts, rec: explore.NewRecorder("mcr-seeds", opts.Options),
		workers: parallel.Workers(opts.Workers), visited: map[string][][]sleepEntry{"": {nil}}, clean: true, raced: map[string]bool{}, done: classes{}}
	return e.run(ctx)
}

type explorer struct {
	p       program.Program
	opts    SeedOptions
	rec     *explore.Recorder
	workers int
	visited map[string][][]sleepEntry // map key -> the sleep sets of the nodes with that map
	// clean is true while no relaxed seed exists. Sleep sets are sound
	// then. Take a class E' of a node's space, other than the node's
	// execution E, and the first read r of E' (in E' order) that reads
	// another value v than in E. Before r, E' runs events of E with E's
	// values, so the relaxed seed (r, v) exists; as none does unless it
	// keeps the node's map, the seed (r, v) keeps it, and its child's
	// space holds E' with a larger map. The number of reads of E' outside
	// the map decreases, so by induction the child covers E', unless
	// (r, v) sleeps: then an elder sibling's child covers it, by the same
	// induction. A relaxed seed breaks the measure (its child's map drops
	// the node's), and on random programs sleep sets then lost outcomes.
	// So the first relaxed seed that exists makes the search unclean:
	// sleep sets are given up, and the nodes whose seeds slept (kept) are
	// queried again for them.
	clean, unclean bool            // unclean: given up, kept nodes not yet queried again
	kept           []*node         // nodes with seeds asleep
	raced          map[string]bool // location pairs whose race was found
	done           classes         // the classes of finished executions
	initErr        error
	mu             sync.Mutex
}

func (e *explorer) run(ctx context.Context) *explore.Result {
	level := []*node{{}}
	for len(level) > 0 {
		var next []*node
		for len(level) > 0 {
			batch := level[:min(len(level), batchSize)]
			level = level[len(batch):]
			children, stop := e.step(ctx, batch)
			if stop {
				return e.result()
			}
			if e.unclean { // see explorer.clean
				e.unclean = false
				for _, n := range e.kept {
					n.requery, n.sleep, n.slept = true, nil, 0
				}
				level = append(e.kept, level...)
				e.kept = nil
			}
			next = append(next, children...)
		}
		e.rec.Extra("levels", 1)
		level = next
	}
	return e.result()
}

// batchSize is how many nodes of a level are executed, queried, solved and
// merged together. It bounds the memory a wide level takes (models, queries,
// answers) while leaving enough nodes to solve in parallel. It is a
// constant, so results do not depend on the number of workers.
const batchSize = 256

func (e *explorer) result() *explore.Result {
	if e.initErr != nil {
		e.rec.Stop("decider unavailable: " + e.initErr.Error())
	}
	return e.rec.Result()
}

// step processes one batch of a level's nodes and returns their children;
// stop is true when the exploration must end.
func (e *explorer) step(ctx context.Context, batch []*node) (next []*node, stop bool) {
	if ctx.Err() != nil {
		e.rec.Stop(explore.StopReason(ctx))
		return nil, true
	}
	// 1. execute the seeds
	parallel.ForEach(ctx, e.workers, len(batch), func(_, i int) {
		n := batch[i]
		n.x, n.err = program.Replay(e.p, n.seed)
		n.mcm = encode.NewMCM(n.x.Trace())
		n.free = freeReads(ctx, n.mcm)
	})
	if ctx.Err() != nil {
		e.rec.Stop(explore.StopReason(ctx))
		return nil, true
	}
	// Record the classes of finished executions (see classes.covers), in
	// node order.
	for _, n := range batch {
		if !n.requery {
			e.done.add(n.x, n.mcm, n.free)
		}
	}
	// 2. the queries of every node, listed in parallel (queries only reads
	// the explorer's state), kept in node order
	perNode := make([][]*query, len(batch))
	duplicates := make([]int, len(batch))
	parallel.ForEach(ctx, e.workers, len(batch), func(_, i int) {
		perNode[i], duplicates[i] = e.queries(ctx, i, batch[i])
	})
	var qs []*query
	for i := range batch {
		qs = append(qs, perNode[i]...)
		if d := duplicates[i]; d > 0 {
			e.rec.Extra("duplicates_avoided", float64(d))
		}
	}
	// 3. solve them (see solveBatch)
	e.solveBatch(ctx, len(batch), qs)
	if ctx.Err() != nil {
		e.rec.Stop(explore.StopReason(ctx))
		return nil, true
	}
	// 4. merge in order
	next, stop = e.merge(batch, qs)
	// The level keeps the batch until it ends; free what is no longer
	// needed (interpreter states, models) now.
	for _, n := range batch {
		n.pos, n.free = nil, nil
		if n.slept > 0 && !n.requery { // its seeds slept while clean
			e.kept = append(e.kept, n)
		}
		n.x, n.mcm = nil, nil
	}
	return next, stop
}

// gaveKey reports whether q's answer gave the child the map q.key names
// (a relaxed answer gives another map).
func (q *query) gaveKey() bool { return q.err == nil && q.ans.Sat && !q.relaxed }

// merge records the level's executions and answers in order and returns
// the next level; stop is true when the exploration must end.
func (e *explorer) merge(level []*node, qs []*query) (next []*node, stop bool) {
	byNode := make([][]*query, len(level))
	for _, q := range qs {
		byNode[q.node] = append(byNode[q.node], q)
	}
	for i, n := range level {
		if n.err != nil {
			e.rec.Extra("seed_replay_failures", 1)
		}
		tr := n.mcm.T
		if n.requery {
			e.rec.Extra("replays", 1)
		} else {
			e.checkFixed(n)
			if e.rec.Execution(n.x) {
				return nil, true
			}
			// Seed queries read lock events as in the trace; the other
			// outcome of a trylock is never asked for (a successful one
			// that could fail was missed while the search said complete).
			if explore.HasTrylock(tr) {
				e.rec.Extra("trylocks", 1)
				e.rec.Stop(explore.TrylocksNotExplored)
			}
			// Threads left waiting for a lock that is never released:
			// run them first (see lockSeeds).
			// Such a child has no read-value map, so nothing keeps its
			// space apart from its siblings': the search is no longer
			// clean (see explorer.clean).
			for _, s := range lockSeeds(n.x) {
				key := "lock:" + fmt.Sprint(s)
				if e.covers(key, nil) {
					continue
				}
				e.visit(key, nil)
				e.rec.Extra("lock_seeds", 1)
				if e.clean {
					e.clean, e.unclean = false, true
					e.rec.Extra("sleep_sets_given_up", 1)
				}
				next = append(next, &node{seed: s})
			}
		}
		if n.slept > 0 {
			e.rec.Extra("seeds_asleep", float64(n.slept))
		}
		var covered []sleepEntry // n's seeds covered so far (see sleepEntry)
		cover := func(q *query) {
			if e.clean {
				covered = append(covered, sleepEntry{tr.Events[q.q.Read].ID(), q.q.Value, q.past})
			}
		}
		for _, q := range byNode[i] {
			if q.dup {
				cover(q)
				continue
			}
			if !q.asked {
				e.rec.Extra("duplicates_avoided", 1) // another query of its group gave the map
				cover(q)
				continue
			}
			e.count(q)
			if e.clean && q.relaxed && q.err == nil && q.ans.Sat {
				// Given up at once: from here on the merge dedupes as
				// without sleep sets; the nodes whose seeds slept are
				// queried again after this batch (see explorer.clean).
				e.clean, e.unclean = false, true
				e.rec.Extra("sleep_sets_given_up", 1)
			}
			if q.err != nil || !q.ans.Sat {
				continue
			}
			if e.opts.OnAnswer != nil && !q.relaxed {
				e.opts.OnAnswer(q.q, q.ans)
			}
			switch q.kind {
			case qSeed:
				if q.deref && e.report(explore.Finding{Kind: explore.KindNullDereference,
					Message:   "predicted: the dereferenced pointer " + tr.LocName(tr.Events[q.q.Read].Loc) + " can be NULL",
					Locations: []explore.Location{loc(tr, q.q.Read)}, Schedule: q.ans.Schedule}, tr) {
					return nil, true
				}
				if q.subsetQueries > 0 {
					e.rec.Extra("relaxed_subset_queries", float64(q.subsetQueries))
				}
				kids := q.kids
				if !q.relaxed {
					kids = []relaxedKid{{keep: q.q.Fixed, q: q.q, ans: q.ans}}
				}
				var sleep []sleepEntry
				if !q.relaxed && e.clean {
					sleep = append(append([]sleepEntry(nil), n.sleep...), covered...)
				}
				cover(q)
				for _, k := range kids {
					e.rec.Extra("seeds", 1)
					if q.relaxed {
						e.rec.Extra("relaxed_seeds", 1) // not within the parent's map
						if e.opts.OnAnswer != nil {
							e.opts.OnAnswer(k.q, k.ans)
						}
					}
					if child := e.seedChild(n, q, k, sleep); child != nil {
						next = append(next, child)
					}
				}
			case qRace:
				a, b := q.q.Race[0], q.q.Race[1]
				key := raceKey(tr, a, b)
				if e.raced[key] {
					continue
				}
				e.raced[key] = true
				f := explore.RaceFinding(tr, &tr.Events[a], &tr.Events[b], q.ans.Schedule)
				if e.report(f, tr) {
					return nil, true
				}
			case qDeadlock:
				a, b := q.q.Race[0], q.q.Race[1]
				s := q.ans.Schedule
				f := explore.Finding{Kind: explore.KindDeadlock, Schedule: s[:len(s)-2],
					Message: fmt.Sprintf("deadlock: %s waits for %s while holding %s; %s waits for %s while holding %s",
						tr.ThreadName(tr.Events[a].Thread), tr.LocName(tr.Events[a].Loc), tr.LocName(tr.Events[b].Loc),
						tr.ThreadName(tr.Events[b].Thread), tr.LocName(tr.Events[b].Loc), tr.LocName(tr.Events[a].Loc)),
					Locations: sortedLocations(loc(tr, a), loc(tr, b))}
				if e.report(f, tr) {
					return nil, true
				}
				// explore the deadlocked execution too: it is an outcome
				child := &node{seed: f.Schedule, fixed: map[program.EventID]int64{}}
				for _, id := range f.Schedule {
					child.fixed[id] = 0
				}
				if key := "deadlock:" + mapKey(tr, child.fixed); !e.covers(key, nil) {
					e.visit(key, nil)
					child.fixed = nil
					next = append(next, child)
				}
			}
		}
	}
	return next, false
}

func (e *explorer) report(f explore.Finding, tr *program.Trace) bool {
	return e.rec.Finding(f, tr.Threads)
}

func (e *explorer) count(q *query) {
	name := map[queryKind]string{qSeed: "seed", qRace: "race", qDeadlock: "deadlock"}[q.kind]
	e.rec.Extra(name+"_queries", 1)
	e.rec.Extra("solver_seconds_"+strings.Fields(q.by + " ")[0], q.dur.Seconds())
	switch {
	case q.err != nil:
		e.rec.Extra("unknown", 1)
		e.rec.Stop("solver failed: " + q.err.Error())
	case q.ans.Sat:
		e.rec.Extra("sat", 1)
	default:
		e.rec.Extra("unsat", 1)
	}
	if strings.HasSuffix(q.by, "(fallback)") {
		e.rec.Extra("fallback_answers", 1)
	}
}

// checkFixed counts executions whose seed did not give the fixed reads
// their values: a sign of an encoding or replay bug (tests require zero).
func (e *explorer) checkFixed(n *node) {
	if len(n.fixed) == 0 {
		return
	}
	tr := n.x.Trace()
	got := map[program.EventID]int64{}
	for i := range tr.Events {
		if tr.Events[i].Kind == program.Read {
			got[tr.Events[i].ID()] = tr.Events[i].Value
		}
	}
	for id, v := range n.fixed {
		if g, ok := got[id]; !ok || g != v {
			e.rec.Extra("seed_mismatches", 1)
			return
		}
	}
}

func loc(tr *program.Trace, i int32) explore.Location {
	p := tr.Events[i].Pos
	return explore.LocationOf(tr, p)
}

func sortedLocations(a, b explore.Location) []explore.Location {
	ls := []explore.Location{a, b}
	explore.SortLocations(ls)
	return ls
}

// seedChild returns the child node that the answer k of the seed query q
// of node n gives, with the sleep set sleep, or nil when another node or a
// finished execution covers its map (counted as a duplicate avoided).
func (e *explorer) seedChild(n *node, q *query, k relaxedKid, sleep []sleepEntry) *node {
	tr := n.mcm.T
	var keep func(program.EventID) bool // nil: the whole parent map
	if q.relaxed {
		ids := map[program.EventID]bool{}
		for _, p := range k.keep {
			ids[tr.Events[p].ID()] = true
		}
		keep = func(id program.EventID) bool { return ids[id] }
	}
	child := &node{seed: k.ans.Schedule, fixed: childMap(n.fixed, n.mcm, q.q.Read, q.q.Value, keep), sleep: sleep}
	key := mapKey(tr, child.fixed)
	if e.covers(key, child.sleep) || e.done.covers(child.fixed, n.freeFor(q.q.Read)) {
		e.rec.Extra("duplicates_avoided", 1)
		return nil
	}
	e.visit(key, child.sleep)
	return child
}

// childMap returns the read-value map of the child that the seed (r, v)
// of a node with map parent gives: the target with its new value, the
// reads in the target's causal past (its existence depends on them) and
// the parent's map, or, for a relaxed seed, the part of it that keep
// names (see deciders.relaxedKids). Reads that only the chosen source
// write depends on stay free: another write of the same value could
// serve, so they may still be flipped below.
func childMap(parent map[program.EventID]int64, m *encode.MCM, r int32, v int64, keep func(program.EventID) bool) map[program.EventID]int64 {
	fixed := pastReads(m, r)
	fixed[m.T.Events[r].ID()] = v
	for id, val := range parent {
		if keep == nil || keep(id) {
			fixed[id] = val
		}
	}
	return fixed
}

// dropAll is childMap's keep for a fully relaxed seed: none of the
// parent's map.
func dropAll(program.EventID) bool { return false }

// mapKey is the canonical form of a read-value map. Thread ids are
// interned per program, so the key is stable across executions.
func mapKey(_ *program.Trace, fixed map[program.EventID]int64) string {
	type entry struct {
		id program.EventID
		v  int64
	}
	es := make([]entry, 0, len(fixed))
	for id, v := range fixed {
		es = append(es, entry{id, v})
	}
	sort.Slice(es, func(a, b int) bool {
		x, y := es[a].id, es[b].id
		return x.Thread < y.Thread || x.Thread == y.Thread && x.Index < y.Index
	})
	buf := make([]byte, 0, 8*len(es))
	for _, e := range es {
		buf = binary.AppendUvarint(buf, uint64(e.id.Thread))
		buf = binary.AppendUvarint(buf, uint64(e.id.Index))
		buf = binary.AppendVarint(buf, e.v)
	}
	return string(buf)
}

// pastReads returns the reads in r's causal past (without r), with their
// values.
func pastReads(m *encode.MCM, r int32) map[program.EventID]int64 {
	tr := m.T
	past := map[program.EventID]int64{}
	for i, in := range m.Closure(r) {
		if in && int32(i) != r && tr.Events[i].Kind == program.Read {
			past[tr.Events[i].ID()] = tr.Events[i].Value
		}
	}
	return past
}

// asleep reports whether the seed (read, v) with the given causal past is
// in the sleep set.
func asleep(sleep []sleepEntry, read program.EventID, v int64, past string) bool {
	for _, s := range sleep {
		if s.read == read && s.value == v && s.past == past {
			return true
		}
	}
	return false
}

// covers reports whether a node with the map key exists whose sleep set is
// within sleep: it explores all that a node with key and sleep would.
func (e *explorer) covers(key string, sleep []sleepEntry) bool {
	if !e.clean { // sleep sets given up: every node explores all its seeds
		return len(e.visited[key]) > 0
	}
	for _, z := range e.visited[key] {
		if subset(z, sleep) {
			return true
		}
	}
	return false
}

// visit records a node with the map key and the sleep set.
func (e *explorer) visit(key string, sleep []sleepEntry) {
	e.visited[key] = append(e.visited[key], sleep)
}

func subset(a, b []sleepEntry) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// steered returns need with the reads of steer added that a seed for r can
// keep (not r, not causally after it), sorted; nil if there are none.
func steered(m *encode.MCM, need, steer []int32, r int32) []int32 {
	var out []int32
	for _, p := range steer {
		if p != r && !m.Before(r, p) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil
	}
	out = append(out, need...)
	slices.Sort(out)
	return slices.Compact(out)
}

// freeFor returns which reads of a child's map, a seed for the read at
// position target of n's trace gives, key a classes lookup: the free reads
// of n's trace, and the target.
func (n *node) freeFor(target int32) func(program.EventID) bool {
	return func(id program.EventID) bool {
		p, ok := n.pos[id]
		return ok && (p == target || n.free[p])
	}
}
