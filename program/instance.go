package program

// This file implements consistency instances and witnesses, and
// CheckedDecide, the trusted path of every consistency decider's answer
// (the Decider interface is in decider.go).
// INSTANCES.md beside this file describes the JSON form and the semantics.

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// MemoryModel is the memory model an instance is decided under.
type MemoryModel uint8

const (
	// SC is sequential consistency: a write is visible to all threads at once.
	SC MemoryModel = iota
	// TSO is total store order: each thread has one FIFO store buffer
	// (004_fe58e94b2666f77b.txt Section 2.1).
	TSO
	// PSO is partial store order: each thread has one FIFO store buffer per
	// location.
	PSO
	numModels
)

var modelNames = [numModels]string{"sc", "tso", "pso"}

// Models lists every memory model.
var Models = []MemoryModel{SC, TSO, PSO}

func (m MemoryModel) String() string {
	if m < numModels {
		return modelNames[m]
	}
	return fmt.Sprintf("model(%d)", uint8(m))
}

// ParseMemoryModel is the inverse of MemoryModel.String (case-insensitive).
func ParseMemoryModel(s string) (MemoryModel, bool) {
	for m, n := range modelNames {
		if strings.EqualFold(n, s) {
			return MemoryModel(m), true
		}
	}
	return 0, false
}

// Constraint is the kind of per-read constraint of an instance.
type Constraint uint8

const (
	// ReadsFrom: every read and every acquire has exactly one source
	// (VSC-rf, VTSO-rf, VPSO-rf; 002_29f9f830801bf5b9.txt Section 5,
	// 004_fe58e94b2666f77b.txt Section 4).
	ReadsFrom Constraint = iota
	// GoodWrites: every read has a non-empty set of allowed sources; an
	// acquire has a set of allowed releases or none (unconstrained)
	// (000_1fb260b9b3a323b2.txt Section 4).
	GoodWrites
	numConstraints
)

var constraintNames = [numConstraints]string{"rf", "good"}

// Constraints lists every constraint kind.
var Constraints = []Constraint{ReadsFrom, GoodWrites}

func (c Constraint) String() string {
	if c < numConstraints {
		return constraintNames[c]
	}
	return fmt.Sprintf("constraint(%d)", uint8(c))
}

// ParseConstraint is the inverse of Constraint.String.
func ParseConstraint(s string) (Constraint, bool) {
	for c, n := range constraintNames {
		if n == s {
			return Constraint(c), true
		}
	}
	return 0, false
}

// InitSource stands for the initial value of a location in Instance.Sources
// (as a read's source) and for "no release yet" (as an acquire's source).
const InitSource int32 = -1

// Instance is a consistency instance: an event set given as per-thread
// sequences (so closed under program order by construction), a memory model
// and a constraint per read. Events are numbered densely: thread t's events
// are Events[Start[t]:Start[t+1]], in index order; a dense number is what
// Sources and the deciders use, an EventID what witnesses use.
//
// Semantics (INSTANCES.md has the full statement; ValidateWitness is its
// executable form):
//   - Program order is the order of each thread's sequence. A thread forked
//     by a Fork event (Value = child thread) runs after it; a Join (Value =
//     joined thread) runs after every event of the joined thread. Threads
//     no Fork names start freely.
//   - Acquire takes lock Loc, which must be free; Release frees it. A thread
//     never acquires a lock it holds and only releases locks it holds.
//   - A Read with the RMW flag and the following Write (RMWWrite flag, same
//     location) execute atomically: nothing comes between them.
//   - Under SC a read reads the last write to its location (or the initial
//     value). Under TSO/PSO a Write event is the buffer-write; its
//     memory-write is a separate witness step (Step.Flush) that takes the
//     oldest write of the thread's buffer (TSO) or of the thread's buffer
//     for that location (PSO). A read reads its own thread's latest
//     unflushed write to the location if there is one, else memory. Fence,
//     Acquire, Release, Fork, Join, RMW and CAS reads (Drains) execute only when the
//     thread's buffers are empty; a Join also needs the joined thread's
//     buffers empty; an RMW write is flushed right after it.
//   - The source a read reads (a write, or the initial value) must be one of
//     Sources[i]; an acquire with non-nil Sources[i] must find the lock's
//     last release (InitSource if none) among them.
type Instance struct {
	// Name names the instance in messages ("" allowed).
	Name string
	// Model is the memory model to decide under.
	Model MemoryModel
	// Constraint says whether Sources are reads-from (one per read and
	// acquire) or good-writes sets.
	Constraint Constraint
	// Threads names the threads; ThreadID t is Threads[t]. Names are unique,
	// non-empty and contain no ':' or white space.
	Threads []string
	// Locs names the memory locations and locks; Loc l is Locs[l]. A name is
	// either a location (reads and writes) or a lock, never both.
	Locs []string
	// Init holds the initial value of each location; nil means all 0,
	// otherwise len(Init) == len(Locs).
	Init []int64
	// Events holds every event, grouped by thread and in index order:
	// Events[i].Thread and .Index agree with the position.
	Events []Event
	// Start has len(Threads)+1 entries: thread t's events are
	// Events[Start[t]:Start[t+1]].
	Start []int32
	// Sources gives per event (dense number) the allowed sources: for a
	// read, the writes (dense numbers, or InitSource) it may read from,
	// sorted and without duplicates, exactly one for ReadsFrom instances;
	// for an acquire, the releases (or InitSource) that may be the lock's
	// last release when it executes, nil meaning any (GoodWrites only).
	// Every other event has nil. A read's Value equals the value each of
	// its sources writes (Init for InitSource).
	Sources [][]int32
	// Guide is an optional order of some or all steps (an auxiliary trace,
	// 000_1fb260b9b3a323b2.txt Section 4.2; the guiding execution E of
	// 002_29f9f830801bf5b9.txt Algorithm 2). Deciders may try it first; it
	// is never a constraint and need not be a witness.
	Guide Witness
	// Expect holds the verdicts an instance file states per memory model
	// (nil if none): true means a witness exists.
	Expect map[MemoryModel]bool
}

// Step is one step of a witness: a thread event, or under TSO/PSO the
// memory-write (flush) of the Write event Event.
type Step struct {
	Event EventID
	Flush bool
}

// Witness is a linearisation of an instance: every event once, and under
// TSO/PSO every Write's flush once, after the Write.
type Witness []Step

// Schedule returns the thread-event steps of w (flushes dropped).
func (w Witness) Schedule() Schedule {
	s := make(Schedule, 0, len(w))
	for _, st := range w {
		if !st.Flush {
			s = append(s, st.Event)
		}
	}
	return s
}

// CheckedDecide checks inst, runs d on it and validates a returned witness
// with ValidateWitness (Checked with InstanceKind): the one path every
// instance decider's answer takes before it is trusted. It returns the
// witness and true, nil and false if there is none, or the error of
// inst.Check, of d, or of the validator.
func CheckedDecide(ctx context.Context, d Decider, inst *Instance) (Witness, bool, error) {
	if err := inst.Check(); err != nil {
		return nil, false, err
	}
	a, err := Checked(ctx, InstanceKind, d, inst)
	if err != nil {
		return nil, false, err
	}
	return a.Witness, a.Sat, nil
}

// NumEvents returns the number of events.
func (inst *Instance) NumEvents() int { return len(inst.Events) }

// Thread returns thread t's events (a view).
func (inst *Instance) Thread(t ThreadID) []Event {
	return inst.Events[inst.Start[t]:inst.Start[t+1]]
}

// Dense returns the dense number of event id, or -1 if there is none.
func (inst *Instance) Dense(id EventID) int32 {
	if id.Thread < 0 || int(id.Thread) >= len(inst.Threads) || id.Index < 0 {
		return -1
	}
	i := inst.Start[id.Thread] + id.Index
	if i >= inst.Start[id.Thread+1] {
		return -1
	}
	return i
}

// InitValue is the initial value of location l.
func (inst *Instance) InitValue(l Loc) int64 {
	if inst.Init == nil || int(l) >= len(inst.Init) {
		return 0
	}
	return inst.Init[l]
}

// LocName names location or lock l.
func (inst *Instance) LocName(l Loc) string {
	if int(l) < len(inst.Locs) {
		return inst.Locs[l]
	}
	return fmt.Sprintf("#%d", l)
}

// ThreadName names thread t.
func (inst *Instance) ThreadName(t ThreadID) string {
	if t >= 0 && int(t) < len(inst.Threads) {
		return inst.Threads[t]
	}
	return fmt.Sprintf("T?%d", t)
}

// Ref names event id as "thread:index" (the form instance files use).
func (inst *Instance) Ref(id EventID) string {
	return fmt.Sprintf("%s:%d", inst.ThreadName(id.Thread), id.Index)
}

// SourceRef names source s (a dense number or InitSource).
func (inst *Instance) SourceRef(s int32) string {
	if s == InitSource {
		return "init"
	}
	if s < 0 || int(s) >= len(inst.Events) {
		return fmt.Sprintf("?%d", s)
	}
	return inst.Ref(inst.Events[s].ID())
}

// StepString renders a witness step: "T1:0" or "flush T1:0".
func (inst *Instance) StepString(s Step) string {
	if s.Flush {
		return "flush " + inst.Ref(s.Event)
	}
	return inst.Ref(s.Event)
}

// Describe renders event i (dense) for a human: "T1:0 write x = 1".
func (inst *Instance) Describe(i int32) string {
	e := &inst.Events[i]
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", inst.Ref(e.ID()), e.Kind)
	switch {
	case e.Kind.IsAccess():
		fmt.Fprintf(&b, " %s = %d", inst.LocName(e.Loc), e.Value)
	case e.Kind.IsLock():
		fmt.Fprintf(&b, " %s", inst.LocName(e.Loc))
	case e.Kind == Fork || e.Kind == Join:
		fmt.Fprintf(&b, " %s", inst.ThreadName(ThreadID(e.Value)))
	}
	if e.Is(RMW) || e.Is(RMWWrite) {
		b.WriteString(" (rmw)")
	}
	return b.String()
}

// NewInstance builds an instance from per-thread event sequences. The
// Thread and Index fields of the events are set from their position; sources
// maps a read or acquire to its allowed sources (InitID for the initial
// value). The result is normalised (sources sorted, duplicates dropped) and
// checked.
func NewInstance(model MemoryModel, c Constraint, threads []string, locs []string, events [][]Event, sources map[EventID][]EventID) (*Instance, error) {
	if len(threads) != len(events) {
		return nil, fmt.Errorf("%d thread names for %d threads", len(threads), len(events))
	}
	inst := buildInstance(model, c, threads, locs, events)
	for id, srcs := range sources {
		i := inst.Dense(id)
		if i < 0 {
			return nil, fmt.Errorf("sources given for %s: no such event", id)
		}
		set := []int32{}
		for _, s := range srcs {
			if s == InitID {
				set = append(set, InitSource)
				continue
			}
			j := inst.Dense(s)
			if j < 0 {
				return nil, fmt.Errorf("%s: source %s: no such event", inst.Ref(id), s)
			}
			set = append(set, j)
		}
		inst.Sources[i] = normalizeSources(set)
	}
	if err := inst.Check(); err != nil {
		return nil, err
	}
	return inst, nil
}

// buildInstance lays out per-thread event sequences without checking.
func buildInstance(model MemoryModel, c Constraint, threads []string, locs []string, events [][]Event) *Instance {
	inst := &Instance{Model: model, Constraint: c, Threads: threads, Locs: locs, Start: make([]int32, len(threads)+1)}
	for t, evs := range events {
		for k, e := range evs {
			e.Thread, e.Index = ThreadID(t), int32(k)
			inst.Events = append(inst.Events, e)
		}
		inst.Start[t+1] = int32(len(inst.Events))
	}
	inst.Sources = make([][]int32, len(inst.Events))
	return inst
}

// InitID stands for the initial value among the EventID sources given to
// NewInstance.
var InitID = EventID{Thread: -1, Index: -1}

func normalizeSources(s []int32) []int32 {
	slices.Sort(s)
	return slices.Compact(s)
}

// Clone returns a deep copy of inst (the Guide and Expect are copied too).
func (inst *Instance) Clone() *Instance {
	c := *inst
	c.Threads = slices.Clone(inst.Threads)
	c.Locs = slices.Clone(inst.Locs)
	c.Init = slices.Clone(inst.Init)
	c.Events = slices.Clone(inst.Events)
	c.Start = slices.Clone(inst.Start)
	c.Sources = make([][]int32, len(inst.Sources))
	for i, s := range inst.Sources {
		c.Sources[i] = slices.Clone(s)
	}
	c.Guide = slices.Clone(inst.Guide)
	if inst.Expect != nil {
		c.Expect = make(map[MemoryModel]bool, len(inst.Expect))
		for k, v := range inst.Expect {
			c.Expect[k] = v
		}
	}
	return &c
}

// Check verifies the structural invariants of Instance (see the field
// comments and INSTANCES.md) and returns the first violation. An instance
// that passes may still have no witness.
func (inst *Instance) Check() error {
	name := inst.Name
	if name == "" {
		name = "instance"
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...))
	}
	if inst.Model >= numModels {
		return fail("unknown memory model %d", inst.Model)
	}
	if inst.Constraint >= numConstraints {
		return fail("unknown constraint kind %d", inst.Constraint)
	}
	k := len(inst.Threads)
	if len(inst.Start) != k+1 || inst.Start[0] != 0 || int(inst.Start[k]) != len(inst.Events) {
		return fail("Start does not cover Events (%d threads, %d events)", k, len(inst.Events))
	}
	if len(inst.Sources) != len(inst.Events) {
		return fail("%d source sets for %d events", len(inst.Sources), len(inst.Events))
	}
	if inst.Init != nil && len(inst.Init) != len(inst.Locs) {
		return fail("%d initial values for %d locations", len(inst.Init), len(inst.Locs))
	}
	seen := make(map[string]bool, k)
	for t, n := range inst.Threads {
		if n == "" || strings.ContainsAny(n, ": \t\n") {
			return fail("thread %d: bad name %q (empty, or contains ':' or white space)", t, n)
		}
		if seen[n] {
			return fail("thread name %q used twice", n)
		}
		seen[n] = true
		if inst.Start[t] > inst.Start[t+1] {
			return fail("thread %s: Start not increasing", n)
		}
	}
	isLock := make([]int8, len(inst.Locs)) // 0 unused, 1 location, 2 lock
	forked := make([]bool, k)
	for i := range inst.Events {
		e := &inst.Events[i]
		t := ThreadID(0)
		for int(inst.Start[t+1]) <= i {
			t++
		}
		if e.Thread != t || e.Index != int32(i)-inst.Start[t] {
			return fail("event %d: says %s, position says %s:%d", i, e.ID(), inst.ThreadName(t), int32(i)-inst.Start[t])
		}
		ref := func() string { return inst.Ref(e.ID()) } // only for errors: Check runs on every query
		switch e.Kind {
		case Read, Write, Acquire, Release, LockFail:
			if int(e.Loc) >= len(inst.Locs) {
				return fail("%s: location %d out of range", ref(), e.Loc)
			}
			want := int8(1)
			if e.Kind.IsLock() {
				want = 2
			}
			if isLock[e.Loc] != 0 && isLock[e.Loc] != want {
				return fail("%s: %q is used both as a memory location and as a lock", ref(), inst.Locs[e.Loc])
			}
			isLock[e.Loc] = want
		case Fork, Join:
			if e.Value < 0 || e.Value >= int64(k) || e.Value == int64(t) {
				return fail("%s: %s of bad thread %d", ref(), e.Kind, e.Value)
			}
			if e.Kind == Fork {
				if forked[e.Value] {
					return fail("%s: thread %s is forked twice", ref(), inst.Threads[e.Value])
				}
				forked[e.Value] = true
			}
		case Begin, End, Fence:
		default:
			return fail("%s: kind %s is not supported in instances", ref(), e.Kind)
		}
		if e.Is(RMW) {
			if e.Kind != Read {
				return fail("%s: rmw flag on a %s", ref(), e.Kind)
			}
			if int32(i)+1 >= inst.Start[t+1] {
				return fail("%s: rmw read is the last event of its thread (no write half)", ref())
			}
			n := &inst.Events[i+1]
			if n.Kind != Write || !n.Is(RMWWrite) || n.Loc != e.Loc {
				return fail("%s: rmw read not followed by its write half (a write to %s with the rmw flag)", ref(), inst.LocName(e.Loc))
			}
		}
		if e.Is(RMWWrite) {
			if e.Kind != Write || e.Index == 0 || !inst.Events[i-1].Is(RMW) {
				return fail("%s: rmw write half not preceded by an rmw read", ref())
			}
		}
		if err := inst.checkSources(int32(i)); err != nil {
			return fail("%s: %v", ref(), err)
		}
	}
	// Lock discipline per thread.
	for t := range k {
		held := map[Loc]bool{}
		for _, e := range inst.Thread(ThreadID(t)) {
			switch e.Kind {
			case Acquire:
				if held[e.Loc] {
					return fail("%s: acquires %s, which its thread already holds", inst.Ref(e.ID()), inst.LocName(e.Loc))
				}
				held[e.Loc] = true
			case Release:
				if !held[e.Loc] {
					return fail("%s: releases %s, which its thread does not hold", inst.Ref(e.ID()), inst.LocName(e.Loc))
				}
				held[e.Loc] = false
			}
		}
	}
	for _, s := range inst.Guide {
		if inst.Dense(s.Event) < 0 {
			return fail("guide names %s: no such event", s.Event)
		}
	}
	return nil
}

func (inst *Instance) checkSources(i int32) error {
	e := &inst.Events[i]
	src := inst.Sources[i]
	switch e.Kind {
	case Read:
		if len(src) == 0 {
			return fmt.Errorf("read of %s has no source", inst.LocName(e.Loc))
		}
		if inst.Constraint == ReadsFrom && len(src) != 1 {
			return fmt.Errorf("read of %s has %d sources in a reads-from instance", inst.LocName(e.Loc), len(src))
		}
	case Acquire:
		if src == nil {
			if inst.Constraint == ReadsFrom {
				return fmt.Errorf("acquire of %s has no source (the release it follows, or init) in a reads-from instance", inst.LocName(e.Loc))
			}
			return nil
		}
		if len(src) == 0 {
			return fmt.Errorf("acquire of %s has an empty source set", inst.LocName(e.Loc))
		}
		if inst.Constraint == ReadsFrom && len(src) != 1 {
			return fmt.Errorf("acquire of %s has %d sources in a reads-from instance", inst.LocName(e.Loc), len(src))
		}
	case LockFail:
		// A failed trylock reads the lock held: its sources are acquires
		// (its own thread's too: a normal mutex's trylock by its holder
		// fails with EBUSY) whose section it falls in; nil in a
		// good-writes instance means any holder.
		if src == nil && inst.Constraint == GoodWrites {
			return nil
		}
		if len(src) == 0 {
			return fmt.Errorf("failed trylock of %s has no source (the acquire whose section it falls in)", inst.LocName(e.Loc))
		}
		if inst.Constraint == ReadsFrom && len(src) != 1 {
			return fmt.Errorf("failed trylock of %s has %d sources in a reads-from instance", inst.LocName(e.Loc), len(src))
		}
	default:
		if src != nil {
			return fmt.Errorf("a %s has sources", e.Kind)
		}
		return nil
	}
	want := Write
	switch e.Kind {
	case Acquire:
		want = Release
	case LockFail:
		want = Acquire
	}
	for j, s := range src {
		if j > 0 && s <= src[j-1] {
			return fmt.Errorf("sources not sorted or duplicated")
		}
		if s == InitSource {
			if e.Kind == LockFail {
				return fmt.Errorf("failed trylock of %s reads init: the lock starts free", inst.LocName(e.Loc))
			}
			if e.Kind == Read && e.Value != inst.InitValue(e.Loc) {
				return fmt.Errorf("reads %d but may read the initial value %d of %s", e.Value, inst.InitValue(e.Loc), inst.LocName(e.Loc))
			}
			continue
		}
		if s < 0 || int(s) >= len(inst.Events) {
			return fmt.Errorf("source %d out of range", s)
		}
		w := &inst.Events[s]
		if w.Kind != want || w.Loc != e.Loc {
			return fmt.Errorf("source %s is not a %s of %s", inst.Describe(s), want, inst.LocName(e.Loc))
		}
		if e.Kind == Read && w.Value != e.Value {
			return fmt.Errorf("reads %d but source %s writes %d", e.Value, inst.Ref(w.ID()), w.Value)
		}
	}
	return nil
}

// TraceOf returns the thread events of w, in witness order, as a Trace
// (flush steps are dropped): threads keep their names, a forked thread has
// its forking thread as Parent, locations their names and initial values.
// Steps that name no event are skipped.
func (inst *Instance) TraceOf(w Witness) *Trace {
	tr := &Trace{Threads: make([]Thread, len(inst.Threads))}
	for t, n := range inst.Threads {
		tr.Threads[t] = Thread{Name: n, Parent: -1}
	}
	for i := range inst.Events {
		if e := &inst.Events[i]; e.Kind == Fork {
			tr.Threads[e.Value].Parent = e.Thread
		}
	}
	for _, s := range w {
		if i := inst.Dense(s.Event); i >= 0 && !s.Flush {
			tr.Events = append(tr.Events, inst.Events[i])
		}
	}
	locs, init := slices.Clone(inst.Locs), slices.Clone(inst.Init)
	tr.LocNames = func(l Loc) string {
		if int(l) < len(locs) {
			return locs[l]
		}
		return fmt.Sprintf("#%d", l)
	}
	tr.Init = func(l Loc) int64 {
		if int(l) < len(init) {
			return init[l]
		}
		return 0
	}
	return tr
}

// TraceWitness returns the order of trace t as witness steps of
// InstanceFromTrace(t, ...): a thread event as itself, a Flush event as
// the flush step of its write. Under SC it is t's schedule.
func TraceWitness(t *Trace) Witness {
	w := make(Witness, len(t.Events))
	for i := range t.Events {
		id := t.Events[i].ID()
		if id.IsFlush() {
			w[i] = Step{Event: id.Flushed(), Flush: true}
		} else {
			w[i] = Step{Event: id}
		}
	}
	return w
}

// InstanceFromTrace returns the consistency instance of trace t under SC:
// its events per thread, with fork and join, and as constraint either the
// reads-from of t itself (ReadsFrom: every read reads the last earlier write
// to its location in t, every acquire follows the last earlier release; t is
// then a witness if it is sequentially consistent) or value-based good
// writes (GoodWrites: a read may read any write of its location with the
// value it read, or the initial value if equal; acquires are
// unconstrained), the instances of seed 000 Section 4. Locations are
// renumbered densely and keep their names (made unique). A failed trylock
// (LockFail) reads from the acquire that holds its lock (ReadsFrom; a
// LockFail with the lock free is an error), and
// may fall in any section (GoodWrites). A TSO or PSO trace (t.Model) gives an instance of its
// model, without its Flush events (TraceWitness has them as steps).
func InstanceFromTrace(t *Trace, c Constraint) (*Instance, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	k := len(t.Threads)
	threads := make([]string, k)
	for i, th := range t.Threads {
		threads[i] = th.Name
		if th.Name == "" || strings.ContainsAny(th.Name, ": \t\n") {
			threads[i] = fmt.Sprintf("T%d", i)
		}
	}
	type key struct {
		l    Loc
		lock bool
	}
	locID := map[key]Loc{}
	var locs []string
	var init []int64
	names := map[string]bool{}
	events := make([][]Event, k)
	origin := make([]EventID, len(t.Events)) // instance identity of each trace event
	for i := range t.Events {
		e := t.Events[i]
		if e.Kind == Flush {
			continue // a step of the witness, no event of the instance
		}
		if e.Kind.IsAccess() || e.Kind.IsLock() {
			kk := key{e.Loc, e.Kind.IsLock()}
			l, ok := locID[kk]
			if !ok {
				l = Loc(len(locs))
				locID[kk] = l
				n := t.LocName(e.Loc)
				for names[n] || n == "" {
					n += "'"
				}
				names[n] = true
				locs = append(locs, n)
				init = append(init, t.InitValue(e.Loc))
			}
			e.Loc = l
		}
		e.Pos = Pos{}
		origin[i] = EventID{e.Thread, int32(len(events[e.Thread]))}
		events[e.Thread] = append(events[e.Thread], e)
	}
	sources := map[EventID][]EventID{}
	if c == ReadsFrom {
		rf := RF(t)
		lastRel := map[Loc]EventID{}
		holder := map[Loc]EventID{} // the acquire holding each lock
		for i := range t.Events {
			e := &t.Events[i]
			switch e.Kind {
			case Read:
				if rf[i] < 0 {
					sources[origin[i]] = []EventID{InitID}
				} else {
					sources[origin[i]] = []EventID{origin[rf[i]]}
				}
			case Acquire:
				if r, ok := lastRel[e.Loc]; ok {
					sources[origin[i]] = []EventID{r}
				} else {
					sources[origin[i]] = []EventID{InitID}
				}
			case Release:
				lastRel[e.Loc] = origin[i]
				delete(holder, e.Loc)
			case LockFail:
				h, ok := holder[e.Loc]
				if !ok {
					return nil, fmt.Errorf("%s: a failed trylock of a free lock", t.Describe(i))
				}
				sources[origin[i]] = []EventID{h}
			}
			if e.Kind == Acquire {
				holder[e.Loc] = origin[i]
			}
		}
	}
	inst := buildInstance(t.Model, c, threads, locs, events)
	inst.Init = init
	for id, srcs := range sources {
		set := make([]int32, len(srcs))
		for j, s := range srcs {
			set[j] = InitSource
			if s != InitID {
				set[j] = inst.Dense(s)
			}
		}
		inst.Sources[inst.Dense(id)] = set
	}
	if c == ReadsFrom {
		// Read values follow the sources (t may not be consistent).
		for i := range inst.Events {
			if e := &inst.Events[i]; e.Kind == Read {
				if s := inst.Sources[i][0]; s == InitSource {
					e.Value = inst.InitValue(e.Loc)
				} else {
					e.Value = inst.Events[s].Value
				}
			}
		}
	} else {
		for i := range inst.Events {
			if e := &inst.Events[i]; e.Kind == Read {
				inst.Sources[i] = inst.sameValueWrites(e.Loc, e.Value)
				if len(inst.Sources[i]) == 0 {
					return nil, fmt.Errorf("%s: no write of %s writes %d", inst.Describe(int32(i)), inst.LocName(e.Loc), e.Value)
				}
			}
		}
	}
	inst.Name = t.File
	if err := inst.Check(); err != nil {
		return nil, err
	}
	return inst, nil
}
