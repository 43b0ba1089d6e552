package explicit

// This file implements what the two SMC explorers (rfsmc.go, rvfsmc.go)
// share about an executed trace: its happens-before order as vector clocks,
// the data races it shows, dense location numbers for consistency
// instances, and the stop conditions of an exploration.
//
// Happens-before here is [≤τ ∪ rf]+ of 002_29f9f830801bf5b9.txt Section 3:
// program order, fork before the child's first event, the child's last
// event before the join, every read after the write it reads from, and,
// locks being read-modify-writes of their mutex (Section 7; seed 000
// Appendix A), every acquire after the release it follows.

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"sync"

	"mcr/program"
	"mcr/program/explore"
)

// hbOrder is a trace's program.TraceIndex with the clocks of one of its
// orders: row(i)[t] is the number of events of thread t that happen
// before trace event i or are it.
type hbOrder struct {
	*program.TraceIndex
	clocks *program.Clocks
	zero   []int32
}

// newHBOrder computes the clocks of tr, whose order is an execution. With
// rf false, reads-from edges are left out: the order is must-happen-before
// (program order, fork and join), but Src is still filled in.
func newHBOrder(tr *program.Trace, rf bool) *hbOrder {
	x := program.NewTraceIndex(tr)
	var o program.Orders
	if rf {
		o = program.LockOrder | program.ReadsFromOrder
	}
	return &hbOrder{TraceIndex: x, clocks: x.Clocks(o), zero: make([]int32, x.K)}
}

// newRFOrderIn is newHBOrder(tr, true) with each failed trylock after the
// acquire it reads (program.TrylockOrder): ReadsFrom-SMC's order, whose
// races are dfs's (a failed trylock's thread runs on only after the
// holder's acquire).
//
// The clocks go into buf's storage if it has room
// (program.TraceIndex.ClocksIn).
func newRFOrderIn(tr *program.Trace, buf []int32) *hbOrder {
	x := program.NewTraceIndex(tr)
	return &hbOrder{TraceIndex: x, clocks: x.ClocksIn(program.LockOrder|program.ReadsFromOrder|program.TrylockOrder, buf), zero: make([]int32, x.K)}
}

// row returns the clock of trace event i.
func (h *hbOrder) row(i int32) []int32 { return h.clocks.Of(int(i)) }

// rowOr returns the clock of trace event i, or the zero clock if i < 0.
func (h *hbOrder) rowOr(i int32) []int32 {
	if i < 0 {
		return h.zero
	}
	return h.row(i)
}

// prevRow returns the clock of what precedes event i in its thread (its
// program-order predecessor, or the fork of its thread): the causal past
// of i without i's own source.
func (h *hbOrder) prevRow(i int32) []int32 { return h.rowOr(h.Prev(i)) }

// nextRow is prevRow for the next event of thread t, which is not in the
// trace: the clock of t's last event, or of its fork if it has none.
func (h *hbOrder) nextRow(t program.ThreadID) []int32 {
	p := h.Last(t)
	if p < 0 && int(t) < len(h.Fork) {
		p = h.Fork[t]
	}
	return h.rowOr(p)
}

// before reports whether event i happens before (or is) the event whose
// clock is row.
func (h *hbOrder) before(i int32, row []int32) bool {
	e := &h.T.Events[i]
	return row[e.Thread] > e.Index
}

// locKey names a memory location or a lock (they never share a number in
// an instance).
type locKey struct {
	loc  program.Loc
	lock bool
}

// instanceLocs numbers the locations and locks of an event set densely,
// in the order of (location, lock) so that the numbering is a function of
// the set alone (explorations on several workers build the same instances
// as on one): the keys in that order (a key's number is its index, found
// by locNumber), their names and initial values. Sorting a slice instead
// of filling two maps, and names shared by every instance, made it a
// third as costly (it was a tenth of mcr's time on indexer.c, issue 17).
func instanceLocs(tr *program.Trace, events []program.Event) ([]locKey, []string, []int64) {
	var keys []locKey
	for i := range events {
		e := &events[i]
		if e.Kind == program.LockFail || !e.Kind.IsAccess() && !e.Kind.IsLock() {
			continue // a placed failed trylock's lock comes with its source
		}
		keys = append(keys, locKey{e.Loc, e.Kind.IsLock()})
	}
	slices.SortFunc(keys, cmpLocKey)
	keys = slices.Compact(keys)
	names := make([]string, len(keys))
	init := make([]int64, len(keys))
	table := locNameTable(len(keys))
	for i, k := range keys {
		names[i] = table[btoi(k.lock)][i]
		init[i] = tr.InitValue(k.loc)
	}
	return keys, names, init
}

// cmpLocKey orders location keys by location, a memory location before a
// lock of the same number.
func cmpLocKey(a, b locKey) int {
	switch {
	case a.loc != b.loc:
		return cmp.Compare(a.loc, b.loc)
	case a.lock == b.lock:
		return 0
	case b.lock:
		return -1
	}
	return 1
}

// locNumber returns the number of k among keys (instanceLocs' order).
func locNumber(keys []locKey, k locKey) program.Loc {
	i, _ := slices.BinarySearchFunc(keys, k, cmpLocKey)
	return program.Loc(i)
}

// locNames caches the names of instance locations: x0, x1, ... (index
// 0) and m0, m1, ... (index 1), grown under the mutex; an entry is never
// changed, so slices handed out stay valid.
var locNames struct {
	sync.Mutex
	names [2][]string
}

// locNameTable returns the name tables with at least n names each.
func locNameTable(n int) [2][]string {
	locNames.Lock()
	defer locNames.Unlock()
	for k, prefix := range [2]string{"x", "m"} {
		for len(locNames.names[k]) < n {
			locNames.names[k] = append(locNames.names[k], prefix+strconv.Itoa(len(locNames.names[k])))
		}
	}
	return locNames.names
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// smcInstance builds the SC consistency instance of an event set. events
// lists the set in any order; it must be closed under program order
// (thread t's events have indices 0..m-1). sources[i] gives the allowed
// sources of events[i] if it is a read or an acquire, as event identities
// (program.InitID for the initial value); a read takes the value of its
// first source. The guide, restricted to
// the set, becomes Instance.Guide. A failed trylock (LockFail) with
// sources reads the acquire that holds its lock (rf); one without becomes
// a fence (callers that do not place failed trylocks).
func smcInstance(c program.Constraint, tr *program.Trace, events []program.Event,
	sources [][]program.EventID, guide program.Schedule) (*program.Instance, error) {
	k := len(tr.Threads)
	count := make([]int32, k)
	for i := range events {
		t := events[i].Thread
		if int(t) >= k {
			return nil, fmt.Errorf("smc instance: thread %d out of range", t)
		}
		count[t]++
	}
	inst := &program.Instance{Name: tr.File, Model: program.SC, Constraint: c, Threads: make([]string, k),
		Start: make([]int32, k+1)}
	for t := range k {
		inst.Threads[t] = tr.Threads[t].Name
		inst.Start[t+1] = inst.Start[t] + count[t]
	}
	locKeys, names, locInit := instanceLocs(tr, events)
	inst.Events = make([]program.Event, len(events))
	placed := make([]bool, len(events))
	srcOf := make([][]program.EventID, len(events))
	for i := range events {
		e := events[i]
		if e.Index < 0 || e.Index >= count[e.Thread] {
			return nil, fmt.Errorf("smc instance: %s is not in a program-order prefix", e.ID())
		}
		d := inst.Start[e.Thread] + e.Index
		if placed[d] {
			return nil, fmt.Errorf("smc instance: %s twice", e.ID())
		}
		placed[d] = true
		if e.Kind == program.LockFail && sources[i] == nil {
			e.Kind, e.Loc = program.Fence, 0 // a caller that does not place it
		}
		if e.Kind.IsAccess() || e.Kind.IsLock() {
			e.Loc = locNumber(locKeys, locKey{e.Loc, e.Kind.IsLock()})
		}
		e.Pos = program.Pos{}
		inst.Events[d] = e
		srcOf[d] = sources[i]
	}
	inst.Locs, inst.Init = names, locInit
	inst.Sources = make([][]int32, len(events))
	for d := range inst.Events {
		e := &inst.Events[d]
		if e.Kind != program.Read && e.Kind != program.Acquire && e.Kind != program.LockFail {
			continue
		}
		srcs := srcOf[d]
		set := make([]int32, 0, len(srcs))
		for _, s := range srcs {
			if s == program.InitID {
				set = append(set, program.InitSource)
				continue
			}
			j := inst.Dense(s)
			if j < 0 {
				return nil, fmt.Errorf("smc instance: source %s of %s is not in the set", s, e.ID())
			}
			set = append(set, j)
		}
		sort.Slice(set, func(a, b int) bool { return set[a] < set[b] })
		inst.Sources[d] = set
		if e.Kind == program.Read && len(set) > 0 {
			if s := set[0]; s == program.InitSource {
				e.Value = inst.InitValue(e.Loc)
			} else {
				e.Value = inst.Events[s].Value
			}
		}
	}
	for _, id := range guide {
		if inst.Dense(id) >= 0 {
			inst.Guide = append(inst.Guide, program.Step{Event: id})
		}
	}
	return inst, nil
}

// scheduleOf turns a witness into a schedule for program.Replay: the write
// half of a read-modify-write executes with its read, so it is left out
// (the read may also fail, as a compare-and-swap, and then has none).
func scheduleOf(inst *program.Instance, w program.Witness) program.Schedule {
	s := make(program.Schedule, 0, len(w))
	for _, st := range w {
		if d := inst.Dense(st.Event); !st.Flush && d >= 0 && !inst.Events[d].Is(program.RMWWrite) {
			s = append(s, st.Event)
		}
	}
	return s
}

// sinkLast moves the event head of witness w (with its write half) as late
// as it can go (with validate, w and the result pass
// program.ValidateWitness; without, the explorers check a witness by
// running it and comparing every read with the source or value the
// instance gave it, "rf_mismatches"): past every later step of another thread that touches
// neither its location nor its lock. head is the last event of its thread
// and no read reads it, so the result is again a witness. Executing head
// may end the execution (an assertion on the value it read, a failed
// assume), and then whatever comes after it in the schedule does not run;
// sinking it leaves as little as possible there.
func sinkLast(inst *program.Instance, w program.Witness, head program.EventID, validate bool) (program.Witness, error) {
	if validate {
		if err := program.ValidateWitness(inst, w); err != nil {
			return nil, err
		}
	}
	i := slices.IndexFunc(w, func(s program.Step) bool { return s.Event == head && !s.Flush })
	if i < 0 {
		return w, nil
	}
	h := &inst.Events[inst.Dense(head)]
	n := 1
	if i+1 < len(w) && w[i+1].Event.Thread == head.Thread {
		n = 2 // its write half
	}
	out := slices.Clone(w)
	j := i + n // first step after the head
	for j < len(out) {
		e := &inst.Events[inst.Dense(out[j].Event)]
		if e.Thread == h.Thread || (e.Kind.IsAccess() || e.Kind.IsLock()) && e.Loc == h.Loc && e.Kind.IsLock() == h.Kind.IsLock() {
			break
		}
		j++
	}
	if j == i+n {
		return w, nil
	}
	moved := slices.Clone(out[i : i+n])
	copy(out[i:], out[i+n:j])
	copy(out[j-n:], moved)
	if validate {
		if err := program.ValidateWitness(inst, out); err != nil {
			return nil, fmt.Errorf("sinking %s: %w", head, err)
		}
	}
	return out, nil
}

// raceReporter finds the data races of explored traces.
type raceReporter struct {
	sink smcSink // knows the source-location pairs already reported
}

// report reports every pair of conflicting accesses of tr (not both
// atomic; the write half of an RMW never runs alone, so its read stands
// for it) that hb leaves unordered apart from the second reading the
// first: after the causal past of their predecessors, both are the next
// events of their threads, so they can run back to back (dfs's check,
// 001_aa53da3bf10d3f4e.txt Section 3.3). Where hb orders a pair and
// predict is set, predict decides (for rvf, whose traces fix values, not
// sources). It returns true if the exploration must stop; when ctx is done
// it returns false at once, the caller sees ctx.
//
// Pairs are visited by location, then by first event, then by second, in
// trace order. Without predict only the unordered pairs are visited
// (unorderedAfter): a spinning thread makes hundreds of thousands of
// accesses to one location, almost all pairs of which hb orders.
func (r *raceReporter) report(ctx context.Context, tr *program.Trace, h *hbOrder,
	predict func(a, b int32) (program.Schedule, bool)) bool {
	if !r.sink.Reports(explore.KindRace) {
		return false // races are not asked for (explore.Options.Kinds)
	}
	if !slices.ContainsFunc(tr.Events, func(e program.Event) bool { return e.Kind.IsAccess() && !e.Is(program.Atomic) }) {
		return false // a race needs a plain access (the loop below visits none)
	}
	byLoc := map[program.Loc][]int32{}
	plain := map[program.Loc]bool{}
	for i := range tr.Events {
		e := &tr.Events[i]
		if !e.Kind.IsAccess() || e.Is(program.RMWWrite) {
			continue
		}
		byLoc[e.Loc] = append(byLoc[e.Loc], int32(i))
		if !e.Is(program.Atomic) {
			plain[e.Loc] = true
		}
	}
	locs := make([]program.Loc, 0, len(plain))
	for l := range plain {
		locs = append(locs, l)
	}
	sort.Slice(locs, func(a, b int) bool { return locs[a] < locs[b] })
	seen := map[[2]program.Pos]bool{} // position pairs reported (here or before)
	var sets *lockSets
	var mhb *syncOrder
	if predict != nil {
		sets = newLockSets(tr)
		mhb = newSyncOrder(tr)
	}
	polls := 0
	for _, l := range locs {
		as := byLoc[l]
		var perThread map[program.ThreadID][]int32
		if predict == nil {
			perThread = map[program.ThreadID][]int32{}
			for _, a := range as {
				t := tr.Events[a].Thread
				perThread[t] = append(perThread[t], a)
			}
		}
		var cands []int32
		var lb *lockBuckets
		if predict != nil {
			lb = newLockBuckets(as, sets)
		}
		for _, a := range as {
			if predict == nil {
				cands = h.unorderedAfter(a, perThread, cands[:0])
			} else {
				cands = lb.after(a, cands[:0]) // no pair sharing a mutex
			}
			for _, b := range cands {
				if polls++; (predict != nil || polls%4096 == 0) && ctx.Err() != nil {
					return false // with predict, every pair may ask a query
				}
				ea, eb := &tr.Events[a], &tr.Events[b]
				if !program.Conflicts(ea, eb) {
					continue
				}
				unordered := !h.before(a, h.prevRow(b)) && !h.before(b, h.prevRow(a))
				if !unordered && (predict == nil || mhb.atMost(a, b) || mhb.atMost(b, a)) {
					// Checked before the key, which costs a string per pair.
					// A pair that must-happen-before (program order, fork,
					// join) orders is never enabled together: its query is
					// unsatisfiable (main's write of a thread's argument and
					// the thread's read of it: 14 queries per execution of
					// indexer.c, 30% of mcr's time, issue 17).
					continue
				}
				pk := posPair(ea.Pos, eb.Pos)
				if seen[pk] {
					continue
				}
				key := raceKeyOf(ea.Pos, eb.Pos)
				if r.sink.RaceSeen(key) {
					seen[pk] = true
					continue
				}
				var sched program.Schedule
				if unordered {
					pa, pb := h.prevRow(a), h.prevRow(b)
					for j := range tr.Events {
						if h.before(int32(j), pa) || h.before(int32(j), pb) {
							sched = append(sched, tr.Events[j].ID())
						}
					}
					sched = append(sched, ea.ID(), eb.ID())
				} else {
					s, ok := predict(a, b)
					if !ok {
						continue
					}
					sched = s
				}
				seen[pk] = true
				f := explore.RaceFinding(tr, ea, eb, sched)
				if r.sink.Finding(f, tr.Threads, key) {
					return true
				}
			}
		}
	}
	return false
}

// afterLockEvent returns the mutexes a thread holds after its event e,
// given those it held before: an acquire adds one, a release removes it.
// held is not modified (callers share the lists).
func afterLockEvent(held []program.Loc, e *program.Event) []program.Loc {
	switch e.Kind {
	case program.Acquire:
		return append(slices.Clone(held), e.Loc)
	case program.Release:
		return slices.DeleteFunc(slices.Clone(held), func(l program.Loc) bool { return l == e.Loc })
	}
	return held
}

// unorderedAfter appends to out, in trace order, the accesses b of other
// threads after a in the trace (from perThread: each thread's accesses to
// a's location in trace order) that a does not happen before b's
// predecessor. For each thread those form one run of its list: the ones
// after a, up to the first whose predecessor's clock covers a (clocks grow
// along program order). b never happens before a's predecessor: it comes
// later in the trace.
func (h *hbOrder) unorderedAfter(a int32, perThread map[program.ThreadID][]int32, out []int32) []int32 {
	ea := &h.T.Events[a]
	for t, bs := range perThread {
		if t == ea.Thread {
			continue
		}
		lo := sort.Search(len(bs), func(i int) bool { return bs[i] > a })
		n := sort.Search(len(bs)-lo, func(i int) bool { return h.before(a, h.prevRow(bs[lo+i])) })
		out = append(out, bs[lo:lo+n]...)
	}
	slices.Sort(out)
	return out
}

// posPair is the unordered pair of two source positions (raceKeyOf's order).
func posPair(a, b program.Pos) [2]program.Pos {
	if b.Line < a.Line || b.Line == a.Line && b.Col < a.Col {
		a, b = b, a
	}
	return [2]program.Pos{a, b}
}

func raceKeyOf(a, b program.Pos) string {
	p := posPair(a, b)
	return p[0].String() + "|" + p[1].String()
}

// noteTrylocks reports whether tr has a trylock, successful or failed,
// and then marks the search incomplete (explore.TrylocksNotExplored): neither explorer
// tries the other outcome of a trylock. A successful one counts too: the
// failure it could have met inside another thread's critical section is
// never asked for, and an assertion behind it was missed while the search
// said complete (found in session 10).
func noteTrylocks(rec smcSink, tr *program.Trace) bool {
	if explore.HasTrylock(tr) {
		rec.Extra("trylocks", 1)
		rec.Stop(explore.TrylocksNotExplored, true)
		return true
	}
	return false
}
