package explicit

// This file implements ReadsFrom-SMC, Algorithm 1 of seed 002
// (002_29f9f830801bf5b9.txt, Section 4): stateless model checking that
// explores exactly one execution per reads-from class under SC. A call
// ReadsFrom-SMC(τ, E) extends the witness E of the trace τ to a complete
// execution E·Ê (line 2), looks for every way to give a read of τ' = τ·Ê
// another source (lines 4-11; each candidate trace τ″·σ is checked by
// GetWitness, getwitness.go) and recurses into the schedules found, reads
// of Ê from the last (lines 12-15).
//
// A trace is kept as a sequence of nodes (events with their source and
// mark) in trace order; schedules(τ″) is attached to the position of τ″
// in that sequence. Only an unmarked read (the head of a schedule, or an
// event of Ê) can be such a position, and it belongs to the one call
// whose Ê or schedule head it is, so schedules added by descendants are
// always found by the loop of lines 12-15 that owns the position.
//
// Section 7 extensions:
//   - RMW and CAS: a read-modify-write is a read and its write half (a
//     node of two events); a read whose source changes keeps a write half
//     unless it is a CAS that now fails. If eR is an RMW whose write is read
//     by an RMW (or a CAS that reading eR.src succeeds) eW of another
//     thread, the pair is reversed: σ = eR[src := eW[src := eR.src]]·π.
//     A written value that only executing can tell stays unknown in the
//     instance: GetWitness looks at sources, never at values.
//   - Mutexes: an acquire reads from the release it follows (or init) and
//     writes the lock, as in GetWitness (saturation.go). An acquire eL that
//     follows an unlock cannot be reversed with it; instead the acquire e'L
//     that opened the unlocked section is replaced by eL[src := e'L.src].
//     An execution that ends with threads blocked on a lock replaces the
//     last acquire of each such lock by each blocked acquire.
//
// Blocked executions (issue 12): the executor makes a thread whose
// __VERIFIER_assume fails stuck and runs the other threads on (program.
// Blocked). A failed assumption is a local step no other thread observes,
// so for the exploration a stuck thread is a thread that ended early: the
// trace is a maximal trace of the program in which assume(c) means "if
// (!c) stop this thread", and the algorithm explores every reads-from
// class of that program, among them those in which the assumption passes
// (their sources are writes the other threads made after it failed). The
// one new shape is a lock that a stuck thread holds: its waiters never
// run, so the blocking-lock rule above applies to blocked executions too,
// as to deadlocked and bounded ones. Blocked executions are classes of
// their own, each explored once (explore.Stats.BlockedClasses).
//
// Classes are therefore counted with acquires: two executions whose reads
// agree but whose critical sections come in another order are two classes
// (as in Nidhugg's rfsc and seed 004), while program.RFKey looks at reads
// only.
//
// Beyond the paper, for our executor: a head (the read of a schedule that
// changes its source) may end the execution at once (an assertion on the
// value read, a failed assume), so witnesses put it as late as they can
// (sinkLast), and an execution that still ends before the rest of τ is a
// leaf ("cut_schedules"). "fresh" events (rfNode) extend line 6's "eR or
// eW in Ê" to the events a schedule creates. A witness query first tries
// the guided order of E·Ê (rfsmc_guide.go) and asks GetWitness only if
// that fails.
//
// Findings: violations and deadlocks are those of the explored executions;
// data races are read off each explored trace's happens-before order
// (rfsmc_trace.go), which is complete because every class is explored.
// Schedules found in one subtree are added to positions an ancestor
// explores later, so subtrees are not independent; with several workers
// they still run in parallel, their proposals committed in the order of
// the sequential search (parallel.Tree, rfsmc_parallel_rf.go), so that
// counts and findings do not depend on the number of workers.
//
// Trylocks (rfsmc_trylock.go): a failed one reads the acquire holding its
// lock, as an RMW of the lock that reads a held value; both outcomes are
// explored. Known limits: with trylocks the search is not optimal (a class
// can be explored twice: the blocking-lock rule and a trylock's failure
// can both lead to the trylock succeeding before a section); and an
// execution cut short by a failure while other
// threads could still read counts, for dfs, once per set of reads done
// before the failure, while here the failing trace stands for its class
// of complete traces: counts and outcomes differ there (the violation is
// found all the same).

import (
	"cmp"
	"context"
	"encoding/binary"
	"slices"
	"strings"

	"mcr/program"
	"mcr/program/explore"
)

// ReadsFromSMC explores p with ReadsFrom-SMC and returns the findings and
// statistics (Extra: "schedules", "guided_witnesses", "witness_queries"
// (GetWitness), "cas_probes", "cut_schedules", and "rf_mismatches",
// "replay_errors", "decider_errors", which are 0 unless something is
// wrong). The search stops at the first finding unless opts.KeepGoing, and
// when ctx is done (the result is then incomplete).
func ReadsFromSMC(ctx context.Context, p program.Program, opts explore.Options) *explore.Result {
	return ReadsFromSMCWorkers(ctx, p, opts, 1)
}

// ReadsFromSMCWorkers is ReadsFromSMC on the given number of workers
// (below 1: one). Everything but the algorithm counters of Extra is the
// same for every number of workers.
func ReadsFromSMCWorkers(ctx context.Context, p program.Program, opts explore.Options, workers int) *explore.Result {
	return runSMC("rf", opts, workers, func(root *smcCtx) {
		s := &rfSMC{ctx: ctx, p: startCopies(p), sched: map[int]*rfSchedules{}, validate: opts.Validate, sink: root}
		s.races = raceReporter{sink: root}
		s.call(0, nil)
	})
}

// rfNode is one event of a trace with its source (for reads and acquires:
// the write or release it reads from, program.InitID for init) and mark.
type rfNode struct {
	ev     program.Event
	src    program.EventID
	marked bool
	// fresh marks an event of a schedule that no earlier trace had: its
	// head (a read with a new source), the head's write half, and the read
	// of a reversed RMW. Like the events of Ê, such a write is a new source
	// for every read (line 6) and such a read is new for the Section 7
	// rules, in the call that explores the schedule.
	fresh bool
}

func readLike(e *program.Event) bool { return e.Kind == program.Read || e.Kind == program.Acquire }

// rfReadLike is readLike with failed trylocks: ReadsFrom-SMC treats a
// trylock as an RMW of its lock (002_29f9f830801bf5b9.txt Section 7), so a
// failed one reads the acquire whose section it falls in (rfTrylock).
func rfReadLike(e *program.Event) bool { return readLike(e) || e.Kind == program.LockFail }

// rfSchedules is schedules(τ″) for one position: the schedules in the
// order found, how many have been explored, and the keys of every σ
// proposed so far (consistent or not), so that none is checked twice.
type rfSchedules struct {
	list []rfSchedule
	next int
	keys map[string]bool
	orig rfNode // the event at the position in the trace that created it
}

// rfSchedule is a pair ⟨σ, E″⟩: the nodes that follow τ″ and a witness
// of τ″·σ as a schedule.
type rfSchedule struct {
	sigma   []rfNode
	witness program.Schedule
}

type rfSMC struct {
	ctx      context.Context
	p        program.Program
	validate bool    // explore.Options.Validate
	sink     *smcCtx // the node this context's calls run in
	races    raceReporter
	gw       GetWitness
	sched    map[int]*rfSchedules // schedules(seq[:p]) by p, for the calls of this context

	// The context whose calls (with its outer ones) own the positions
	// before this one's (nil at the root), and the keys this context's log
	// proposes per outer position (rfsmc_parallel_rf.go).
	up      *rfSMC
	outKeys map[int]map[string]bool

	// The current trace τ' and what the current call computed about it.
	seq   []rfNode
	tr    *program.Trace
	h     *hbOrder  // happens-before of the current execution
	trPos []int32   // per seq position: trace position
	pos   [][]int32 // per thread: seq position of each of its events
	// spare is the buffer of a trace before seq (extend), posBuf pos's
	spare  []rfNode
	posBuf []int32
	guide  program.Schedule
	// scratch for instances and guided witnesses
	evBuf  []program.Event
	srcBuf [][]program.EventID
	order  []rfNode
	rest   []rfNode
	sorted []rfNode // inExecutionOrder's result
	// sigma, past: the σ a rule builds and π (tryReverse), which propose
	// copies if it keeps them (σ grown a node at a time was a quarter of
	// rf's allocation on fib_bench)
	sigma, past []rfNode
	// rankBuf: inExecutionOrder's keys; visBuf: visible's result
	rankBuf []uint64
	visBuf  []int32
	sim     struct { // simulate's
		count  []int32
		last   [2]map[program.Loc]program.EventID // by location [0] and lock [1]
		held   map[program.Loc]bool
		holder map[program.Loc]program.EventID
	}
}

// call is ReadsFrom-SMC(τ, E) with τ = seq[:base]. It returns true if the
// exploration must stop.
func (s *rfSMC) call(base int, E program.Schedule) bool {
	if s.ctx.Err() != nil {
		s.sink.Stop(explore.StopReason(s.ctx), false)
		return true
	}
	if s.sink.done() {
		return true
	}
	// Line 2: extend E to a complete execution E·Ê.
	x, _, err := runSchedule(s.p, E)
	if err != nil {
		s.sink.Extra("replay_errors", 1)
		return false
	}
	program.RunDefault(x)
	if c, ok := s.p.(*copyStart); ok {
		c.Observe(len(x.Trace().Events))
	}
	if s.ctx.Err() != nil {
		// The run reached the deadline (the interpreter polls it): record
		// it, and stop before indexing its trace, which costs as much as
		// the run on a long one (pthread-lit/fk2012: 3.1M events; extend,
		// line 4 and detect's maps each took seconds past --timeout).
		s.sink.Execution(x)
		s.sink.Stop(explore.StopReason(s.ctx), false)
		return true
	}
	// Line 3: τ' := τ·Ê.
	base, whole := s.extend(base, x.Trace())
	if explore.HasTrylock(s.tr) {
		s.sink.Extra("trylocks", 1) // both outcomes explored (rfTrylock)
	}
	if s.sink.executionIndexed(x, s.h.TraceIndex) || s.races.report(s.ctx, s.tr, s.h, nil) {
		return true
	}
	if !whole {
		// The schedule's head ended the execution (a violation or a
		// failed assume in its thread) before events of τ that its
		// witness had to place after it: a complete execution, but no
		// extension of τ to explore further.
		s.sink.Extra("cut_schedules", 1)
		return false
	}
	// Line 4: schedules(pre(τ', eR)) := ∅ for the reads eR of Ê. The
	// set remembers eR: a schedule whose head is eR itself (the
	// blocking-lock rule can propose it) continues τ' and is explored
	// already.
	var reads []int
	s.lock()
	for p := base; p < len(s.seq); p++ {
		if (p-base)%4096 == 0 && s.ctx.Err() != nil {
			// cut (fk2012 above): the sets made so far stay, as nothing
			// explores after a stop
			s.unlock()
			s.sink.Stop(explore.StopReason(s.ctx), false)
			return true
		}
		if rfReadLike(&s.seq[p].ev) {
			reads = append(reads, p)
			s.sched[p] = &rfSchedules{keys: map[string]bool{}, orig: s.seq[p]}
		}
	}
	s.unlock()
	// Lines 5-11.
	s.detect(base, x)
	if s.ctx.Err() != nil {
		// detect was cut: children would only scan and delete the sets
		s.sink.Stop(explore.StopReason(s.ctx), false)
		return true
	}
	for p := range base {
		s.seq[p].fresh = false
	}
	// Lines 12-15: reads of Ê from the end.
	return s.children(reads)
}

// extend makes seq the trace τ·Ê of the execution tr: the nodes of τ take
// the values the execution gave them (a schedule's read may now write, or
// no longer write, as a CAS), then the events of Ê follow in execution
// order, unmarked. Every source in τ is checked against the execution. It
// returns the new length of τ and sets tr, h, trPos and pos; if the
// execution ended before some event of τ, it only sets tr and h, leaves
// seq alone and returns false.
func (s *rfSMC) extend(base int, tr *program.Trace) (int, bool) {
	// The clocks of the last trace are dead by now (every use of s.h
	// ends within its call): the new ones take their storage.
	var buf []int32
	if s.h != nil {
		buf = s.h.clocks.Flat()
	}
	h := newRFOrderIn(tr, buf)
	s.tr, s.h, s.guide = tr, h, nil // guide: made when GetWitness needs it (decide)
	for _, n := range s.seq[:base] {
		if id := n.ev.ID(); int(id.Index) >= len(h.At[id.Thread]) && !n.ev.Is(program.RMWWrite) {
			return base, false
		}
	}
	var holds []int32 // lockHolders, made at the first failed trylock
	srcID := func(i int32) program.EventID {
		if tr.Events[i].Kind == program.LockFail {
			if holds == nil {
				holds = lockHolders(tr)
			}
			if holds[i] >= 0 {
				return tr.Events[holds[i]].ID()
			}
		}
		if j := h.Src[i]; j >= 0 {
			return tr.Events[j].ID()
		}
		return program.InitID
	}
	tau := s.seq[:base]
	// out goes into the spare buffer unless that is τ's: τ's is garbage
	// once out is made (the callers up the recursion go on from seq,
	// which out replaces), and becomes the spare.
	out := s.spare[:0]
	if cap(out) == 0 || cap(tau) > 0 && &out[:1][0] == &tau[:1][0] {
		out = make([]rfNode, 0, len(tr.Events)+len(tr.Events)/4)
	}
	nt := make([]int32, h.K) // events of τ per thread
	for i := 0; i < len(tau); i++ {
		n := tau[i]
		id := n.ev.ID()
		if int(id.Index) >= len(h.At[id.Thread]) {
			continue // a phantom write half
		}
		a := tr.Events[h.At[id.Thread][id.Index]]
		if n.ev.Is(program.RMWWrite) && !a.Is(program.RMWWrite) {
			continue // a CAS that failed: no write half
		}
		if a.Kind != n.ev.Kind {
			s.sink.Extra("rf_mismatches", 1)
			continue
		}
		n.ev = a
		if rfReadLike(&a) {
			if got := srcID(h.At[id.Thread][id.Index]); got != n.src {
				s.sink.Extra("rf_mismatches", 1)
				n.src = got
			}
		}
		out = append(out, n)
		nt[id.Thread] = max(nt[id.Thread], id.Index+1)
		if a.Is(program.RMW) && (i+1 >= len(tau) || tau[i+1].ev.ID() != program.EventID{Thread: id.Thread, Index: id.Index + 1}) {
			// a read that now succeeds: its write half ran with it
			out = append(out, rfNode{ev: tr.Events[h.At[id.Thread][id.Index+1]], marked: n.marked})
			nt[id.Thread] = max(nt[id.Thread], id.Index+2)
		}
	}
	base = len(out)
	for i := range tr.Events {
		if e := &tr.Events[i]; e.Index >= nt[e.Thread] {
			n := rfNode{ev: *e}
			if rfReadLike(e) {
				n.src = srcID(int32(i))
			}
			out = append(out, n)
		}
	}
	s.spare, s.seq = s.seq, out
	s.trPos = slices.Grow(s.trPos[:0], len(out))[:len(out)]
	flat := slices.Grow(s.posBuf[:0], len(tr.Events))[:len(tr.Events)]
	clear(flat)
	s.posBuf = flat
	s.pos = slices.Grow(s.pos[:0], h.K)[:h.K]
	for t := range s.pos {
		s.pos[t], flat = flat[:len(h.At[t]):len(h.At[t])], flat[len(h.At[t]):]
	}
	for p := range out {
		id := out[p].ev.ID()
		s.trPos[p] = h.At[id.Thread][id.Index]
		s.pos[id.Thread][id.Index] = int32(p)
	}
	return base, true
}

// detect is lines 5-11 with the Section 7 extensions: every alternative
// source of an unmarked read (or acquire) eR where eR or eW is new.
func (s *rfSMC) detect(base int, x program.Execution) {
	n := len(s.seq)
	// Write-like nodes per location [0] or lock [1], and grouped by thread
	// (built on first use): maps with integer keys (a struct key's
	// generic hash was 2% of rf's time, issue 17).
	var writes [2]map[program.Loc][]int32
	var index [2]map[program.Loc]*program.WriteIndex
	for k := range writes {
		writes[k], index[k] = map[program.Loc][]int32{}, map[program.Loc]*program.WriteIndex{}
	}
	var readers map[program.EventID][]int32 // reads per source, made for the first RMW
	for p := range s.seq {
		if p%4096 == 0 && s.ctx.Err() != nil {
			return // cut, as below
		}
		e := &s.seq[p].ev
		switch e.Kind {
		case program.Write:
			writes[0][e.Loc] = append(writes[0][e.Loc], int32(p))
		case program.Release:
			writes[1][e.Loc] = append(writes[1][e.Loc], int32(p))
		}
	}
	readersOf := func(w program.EventID) []int32 {
		if readers == nil {
			readers = map[program.EventID][]int32{}
			for p := range s.seq {
				if s.seq[p].ev.Kind == program.Read {
					readers[s.seq[p].src] = append(readers[s.seq[p].src], int32(p))
				}
			}
		}
		return readers[w]
	}
	polls := 0 // read-like events seen: the context is polled every 64 (and in tryRead)
	for r := 0; r < n; r++ {
		nr := &s.seq[r]
		if !rfReadLike(&nr.ev) {
			continue
		}
		if polls++; polls%64 == 0 && s.ctx.Err() != nil {
			return // cut: the caller sees ctx
		}
		rNew := r >= base
		isNew := func(p int32) bool { return rNew || int(p) >= base || int(p) < n && s.seq[p].fresh }
		if !nr.marked {
			// Lines 5-6: eW may be init or any write of the location.
			k, l := btoi(nr.ev.Kind.IsLock()), nr.ev.Loc
			ix := index[k][l]
			if ix == nil {
				ix = program.NewWriteIndex(writes[k][l], func(w int32) program.ThreadID { return s.seq[w].ev.Thread })
				index[k][l] = ix
			}
			vis, initVisible := s.visible(r, ix)
			if rNew && initVisible {
				s.tryRead(base, r, -1)
			}
			for _, w := range vis {
				if isNew(w) {
					s.tryRead(base, r, int(w))
				}
			}
			if explore.IsTrylock(&nr.ev) {
				s.tryFail(r, isNew)
			}
			if nr.ev.Is(program.RMW) {
				w1 := program.EventID{Thread: nr.ev.Thread, Index: nr.ev.Index + 1}
				for _, r2 := range readersOf(w1) {
					if isNew(r2) || isNew(r2+1) || isNew(int32(s.pos[w1.Thread][w1.Index])) {
						s.tryReverse(r, int(r2))
					}
				}
			}
		}
		if nr.ev.Kind == program.Acquire && nr.src != program.InitID {
			// The blocking-lock rule: replace the acquire that opened the
			// section eR's release closes.
			if a1 := s.opener(nr.src); a1 >= 0 && (rNew || nr.fresh || a1 >= base) {
				s.tryReplace(a1, nr.ev, s.h.prevRow(s.trPos[r]))
			}
		}
		if nr.ev.Kind == program.LockFail && nr.src != program.InitID && nr.src.Thread != nr.ev.Thread {
			// The lock rule for a failed trylock (rfsmc_trylock.go):
			// succeeding in the place of the acquire it found holding
			// the lock is no mutation of it (that acquire, before it,
			// would hold the lock in σ).
			if a1 := int(s.pos[nr.src.Thread][nr.src.Index]); rNew || nr.fresh || a1 >= base {
				b := nr.ev
				b.Kind, b.Flags = program.Acquire, b.Flags|program.Try
				s.tryReplace(a1, b, s.h.prevRow(s.trPos[r]))
			}
		}
	}
	// Section 7: threads blocked on a lock at the end. Every execution runs
	// to its end (a violation stops only its thread, program.Failer), so
	// this holds after a violation too.
	for t := 0; t < x.Threads(); t++ {
		b, st := x.Pending(program.ThreadID(t))
		if st != program.Waiting || b.Kind != program.Acquire {
			continue
		}
		b.Thread, b.Index = program.ThreadID(t), int32(len(s.h.At[t]))
		if a1 := s.lastAcquire(b.Loc); a1 >= 0 {
			s.tryReplace(a1, b, s.h.nextRow(b.Thread))
		}
	}
}

// visible returns, in trace order, the write-like nodes of ix that seq[r]
// may read from: not after it in hb, and not hidden by another write
// between them (program.WriteIndex.Visible), and whether init is visible.
// hb here includes reads-from, so "before seq[r]" is its causal past
// without its own source (prevRow).
func (s *rfSMC) visible(r int, ix *program.WriteIndex) (vis []int32, initVisible bool) {
	h := s.h
	prev := h.prevRow(s.trPos[r])
	before := func(a, b int32) bool {
		if int(b) == r {
			return h.before(s.trPos[a], prev)
		}
		return h.before(s.trPos[a], h.row(s.trPos[b]))
	}
	// in s.visBuf: detect is done with one read's writes before it asks
	// for the next read's
	s.visBuf, initVisible = ix.AppendVisible(int32(r), before, s.visBuf[:0])
	return s.visBuf, initVisible
}

// tryRead tries eR = seq[r] reading from eW = seq[w] (init if w < 0), a
// source visible to it (visible).
func (s *rfSMC) tryRead(base, r, w int) {
	if s.ctx.Err() != nil {
		// cut: each proposal is O(n) before decide looks at the context,
		// and a bounded execution has 100,000 events per thread with
		// thousands of sources each (goblint 04-mutex_35: --timeout 15s
		// ran past 40 s, 2.9 GB)
		return
	}
	nr := &s.seq[r]
	wid, val := program.InitID, s.tr.InitValue(nr.ev.Loc)
	if w >= 0 {
		wid, val = s.seq[w].ev.ID(), s.seq[w].ev.Value
	}
	if wid == nr.src {
		return
	}
	h := s.h
	// Lines 7-9: σ := eR[src := eW]·mark(π), π = predecs(eW) ∩ post(eR).
	head := *nr
	head.src, head.marked, head.fresh = wid, false, true
	if head.ev.Kind == program.LockFail {
		// a failed trylock that now succeeds: an acquire of the release
		head.ev.Kind, head.ev.Flags = program.Acquire, head.ev.Flags|program.Try
	}
	sigma, _ := s.withHalf(s.sigma[:0], head, val, true)
	if w > r {
		var ok bool
		if sigma, ok = s.appendPast(sigma, r, h.row(s.trPos[w]), nil); !ok {
			return
		}
	}
	s.sigma = sigma
	s.propose(r, sigma, false)
}

// withHalf appends to dst the head node of a schedule reading val,
// followed by a write half when it is an RMW or a CAS that succeeds on val. known is
// false when val is not the value the head will read (it reads a write
// whose value only executing tells); a CAS head is then planned without a
// write half and unsure is true (propose finds out).
func (s *rfSMC) withHalf(dst []rfNode, head rfNode, val int64, known bool) (sigma []rfNode, unsure bool) {
	e := &head.ev
	if e.Kind == program.Read {
		e.Value = val
	}
	if e.Kind != program.Read || !e.Is(program.RMW) && !e.Is(program.CAS) {
		return append(dst, head), false
	}
	if e.Is(program.CAS) && (!known || val != e.Arg) {
		e.Flags &^= program.RMW
		return append(dst, head), !known
	}
	e.Flags |= program.RMW
	return append(dst, head, s.halfOf(e)), false
}

// halfOf returns the write half of the RMW read e, with the value its
// current write half writes if it has one (a placeholder: instances look
// at sources, not values).
func (s *rfSMC) halfOf(e *program.Event) rfNode {
	half := rfNode{ev: program.Event{Thread: e.Thread, Index: e.Index + 1, Kind: program.Write,
		Flags: program.Atomic | program.RMWWrite, Loc: e.Loc, Pos: e.Pos}, marked: true, fresh: true}
	if p := s.pos[e.Thread]; int(e.Index)+1 < len(p) && s.seq[p[e.Index+1]].ev.Is(program.RMWWrite) {
		half.ev.Value = s.seq[p[e.Index+1]].ev.Value
	}
	return half
}

// appendPast appends, marked and in trace order, the nodes after position
// r that happen before the event with clock row or before the event with
// clock also (if non-nil); an RMW's write half goes with its read. A
// failed trylock orders nothing in hb, so its source (the acquire holding
// the lock) is added with its past when it is after r; false if one's
// source is seq[r] itself, which σ changes (rfsmc_trylock.go).
func (s *rfSMC) appendPast(sigma []rfNode, r int, row, also []int32) ([]rfNode, bool) {
	rows := [][]int32{row}
	if also != nil {
		rows = append(rows, also)
	}
	for {
		out, need, ok := s.appendPastRows(sigma, r, rows)
		if !ok || need == nil {
			return out, ok
		}
		rows = append(rows, need)
	}
}

// appendPastRows is appendPast for the pasts of several clocks; it
// returns also the clock of a failed trylock's source it left out (nil
// if none), and false if such a source is seq[r].
func (s *rfSMC) appendPastRows(sigma []rfNode, r int, rows [][]int32) ([]rfNode, []int32, bool) {
	h := s.h
	taken := false
	var need []int32
	for q := r + 1; q < len(s.seq); q++ {
		n := s.seq[q]
		t := s.trPos[q]
		take := taken && n.ev.Is(program.RMWWrite)
		for _, row := range rows {
			take = take || h.before(t, row)
		}
		if n.ev.Is(program.RMWWrite) && q == r+1 && s.seq[r].ev.ID().Thread == n.ev.Thread {
			take = false // eR's own write half is rebuilt by withHalf
		}
		taken = take
		if !take {
			continue
		}
		if n.ev.Kind == program.LockFail && need == nil && n.src != program.InitID {
			qs := int(s.pos[n.src.Thread][n.src.Index])
			if qs == r {
				return nil, nil, false
			}
			if qs > r && !s.inPast(qs, rows) {
				need = h.row(s.trPos[qs])
			}
		}
		n.marked = true
		sigma = append(sigma, n)
	}
	return sigma, need, true
}

// inPast reports whether seq[q] happens before one of the clocks rows.
func (s *rfSMC) inPast(q int, rows [][]int32) bool {
	for _, row := range rows {
		if s.h.before(s.trPos[q], row) {
			return true
		}
	}
	return false
}

// propose is lines 10-11: unless an equivalent σ was proposed at p before,
// ask GetWitness for a witness of seq[:p]·σ, guided by the current
// execution, and add ⟨σ, E″⟩ to schedules(seq[:p]) if there is one. If
// unsure, σ's head is a CAS planned to fail whose value only executing
// tells: the witness is run, and if the CAS succeeds the head gets its
// write half and is checked again.
func (s *rfSMC) propose(p int, sigma []rfNode, unsure bool) {
	set := s.sched[p]
	local := set != nil
	if !local {
		set = s.outer(p)
	}
	if set == nil {
		if s.sink.done() {
			return // abandoned: the owner may be gone
		}
		panic("rfsmc: schedule at a position no call owns")
	}
	if h := sigma[0]; h.ev.ID() == set.orig.ev.ID() && h.src == set.orig.src {
		return
	}
	k := sigmaKey(sigma)
	if !local {
		// A position of an outer context: the proposal goes to this
		// context's log, unless one before it in depth-first order has
		// the key (rfsmc_parallel_rf.go).
		if s.outKeys[p][k] || s.outerHas(set, k) {
			return
		}
		if s.outKeys == nil {
			s.outKeys = map[int]map[string]bool{}
		}
		if s.outKeys[p] == nil {
			s.outKeys[p] = map[string]bool{}
		}
		s.outKeys[p][k] = true
		out := &rfOut{pos: p, key: k}
		if sched, sigma := s.decideSure(p, sigma, unsure); sched != nil {
			out.sched = &rfSchedule{sigma: slices.Clone(sigma), witness: sched}
		}
		s.sink.node.Put(smcEntry{prop: out})
		return
	}
	if set.keys[k] {
		return
	}
	s.lock()
	set.keys[k] = true
	s.unlock()
	if sc, sigma := s.decideSure(p, sigma, unsure); sc != nil {
		s.sink.Extra("schedules", 1)
		set.list = append(set.list, rfSchedule{sigma: slices.Clone(sigma), witness: sc})
	}
}

// decideSure is decide, and for an unsure σ (see propose) the CAS probe
// and second decision.
// It returns the schedule (nil if none) and σ, which then has a write half
// if the CAS succeeded.
func (s *rfSMC) decideSure(p int, sigma []rfNode, unsure bool) (program.Schedule, []rfNode) {
	sched := s.decide(p, sigma)
	if sched != nil && unsure && s.casSucceeds(sched, sigma[0].ev.ID()) {
		head := sigma[0]
		head.ev.Flags |= program.RMW
		sigma = append([]rfNode{head, s.halfOf(&head.ev)}, sigma[1:]...)
		sched = s.decide(p, sigma)
	}
	return sched, sigma
}

// decide asks GetWitness for a witness of seq[:p]·σ and returns it as a
// schedule with σ's head as late as it can go, or nil.
func (s *rfSMC) decide(p int, sigma []rfNode) program.Schedule {
	if s.ctx.Err() != nil {
		return nil // cut: building the instance alone is O(p)
	}
	fast := s.guided(p, sigma)
	if fast != nil && !s.validate {
		s.sink.Extra("guided_witnesses", 1)
		sched := make(program.Schedule, 0, len(s.order))
		for j := range s.order { // the nodes of fast
			if !s.order[j].ev.Is(program.RMWWrite) {
				sched = append(sched, s.order[j].ev.ID())
			}
		}
		return sched
	}
	evs, srcs := s.evBuf[:0], s.srcBuf[:0]
	for _, part := range [][]rfNode{s.seq[:p], sigma} {
		for i := range part {
			evs = append(evs, part[i].ev)
			var src []program.EventID
			if rfReadLike(&part[i].ev) {
				src = []program.EventID{part[i].src}
			}
			srcs = append(srcs, src)
		}
	}
	s.evBuf, s.srcBuf = evs, srcs
	if s.guide == nil {
		s.guide = s.tr.Schedule()
	}
	inst, err := smcInstance(program.ReadsFrom, s.tr, evs, srcs, s.guide)
	if err != nil {
		s.sink.Extra("decider_errors", 1)
		return nil
	}
	if fast != nil {
		if err := program.ValidateWitness(inst, fast); err != nil {
			s.sink.Extra("decider_errors", 1)
			return nil
		}
		return scheduleOf(inst, fast)
	}
	s.sink.Extra("witness_queries", 1)
	w, ok, err := s.gw.decide(s.ctx, inst)
	if err == nil && ok {
		w, err = sinkLast(inst, w, sigma[0].ev.ID(), s.validate)
	}
	if err != nil {
		if s.ctx.Err() == nil {
			s.sink.Extra("decider_errors", 1)
		}
		return nil
	}
	if !ok {
		return nil
	}
	return scheduleOf(inst, w)
}

// casSucceeds runs sched and reports whether the CAS head succeeded.
func (s *rfSMC) casSucceeds(sched program.Schedule, head program.EventID) bool {
	s.sink.Extra("cas_probes", 1)
	x, _, _ := runSchedule(s.p, sched)
	for _, e := range x.Trace().Events {
		if e.ID() == head {
			return e.Is(program.RMW)
		}
	}
	return false
}

// sigmaKey identifies σ up to ≡: its events with their sources, as the
// sorted list of (thread, index, source thread, source index), 16 bytes
// each (the source is (-2, -2) for events that read nothing). Strings per
// event and their sort were 2% of ReadsFrom-SMC's time (issue 17). σ's
// events come in program order per thread (its head, then trace order),
// so a counting sort by thread orders them; sortedSigmaKey is the general
// case (a comparison sort was an eighth of rf's time on fib_bench).
func sigmaKey(sigma []rfNode) string {
	const maxThreads = 64
	var count [maxThreads + 1]int32 // per thread + 1, then where its run starts
	var last [maxThreads]int32      // per thread: the last index placed + 1
	var buf [32]int32
	order := buf[:0] // σ's positions by key
	n, k := 0, 0     // events, threads up to the last one in σ
	for i := range sigma {
		e := &sigma[i].ev
		if e.Is(program.RMWWrite) {
			continue
		}
		if e.Thread < 0 || e.Thread >= maxThreads {
			return sortedSigmaKey(sigma)
		}
		count[e.Thread+1]++
		k = max(k, int(e.Thread)+1)
		n++
	}
	for t := 1; t <= k; t++ {
		count[t] += count[t-1]
	}
	order = slices.Grow(order, n)[:n]
	for i := range sigma {
		e := &sigma[i].ev
		if e.Is(program.RMWWrite) {
			continue
		}
		if e.Index < last[e.Thread] || e.Index < 0 {
			return sortedSigmaKey(sigma) // not in program order per thread
		}
		last[e.Thread] = e.Index + 1
		order[count[e.Thread]] = int32(i)
		count[e.Thread]++
	}
	var b strings.Builder
	b.Grow(16 * n)
	var w [16]byte
	for _, i := range order {
		nd := &sigma[i]
		src := [2]int32{-2, -2}
		if rfReadLike(&nd.ev) {
			src = [2]int32{int32(nd.src.Thread), nd.src.Index}
		}
		binary.LittleEndian.PutUint32(w[0:], uint32(nd.ev.Thread))
		binary.LittleEndian.PutUint32(w[4:], uint32(nd.ev.Index))
		binary.LittleEndian.PutUint32(w[8:], uint32(src[0]))
		binary.LittleEndian.PutUint32(w[12:], uint32(src[1]))
		b.Write(w[:])
	}
	return b.String()
}

// sortedSigmaKey is sigmaKey by a comparison sort.
func sortedSigmaKey(sigma []rfNode) string {
	var buf [16][4]int32
	ids := buf[:0]
	for i := range sigma {
		n := &sigma[i]
		if n.ev.Is(program.RMWWrite) {
			continue
		}
		id := [4]int32{int32(n.ev.Thread), n.ev.Index, -2, -2}
		if rfReadLike(&n.ev) {
			id[2], id[3] = int32(n.src.Thread), n.src.Index
		}
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b [4]int32) int {
		for k := range a {
			if a[k] != b[k] {
				return cmp.Compare(a[k], b[k])
			}
		}
		return 0
	})
	b := make([]byte, 0, 16*len(ids))
	for _, id := range ids {
		for _, v := range id {
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		}
	}
	return string(b)
}
