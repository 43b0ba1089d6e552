package explicit

// This file implements RF-SMC under TSO and PSO, Algorithm 3 of seed 004
// (004_fe58e94b2666f77b.txt, Section 5): one execution per reads-from
// class, each mutation decided by VerifyTSO or VerifyPSO (Algorithm 1, 2;
// verifytso.go, verifypso.go) and its witness, flushes included, replayed
// by the executor's store buffers (program.Buffered). Line numbers in the
// comments are the paper's.
//
// The sequences τ are thread events only (lines 2, 13, 14); the event set
// X' of a mutation adds the memory-writes of its buffer-writes (line 15).
// P (lines 6-8) is program order with fork and join plus, for every read
// but r whose source is another thread's write, the edge from that write:
// the causal past of a buffer-write wB is what must come before it.
// Acquires are reads of their lock (the release they follow, or init),
// as seed 004 Section 5 says, so classes count critical-section orders;
// and seed 002 Section 7's lock rule carries over as the paper says: an
// acquire that follows another thread's section takes the place of the
// acquire that opened it (replace; the head of such a schedule counts as
// new for the rule in the call that explores it, like rfsmc.go's fresh
// events).
//
// Read-modify-writes and compare-and-swaps (Remark 1: a read and an
// optional write in an atomic section, handled as seed 002 Section 7 does)
// are in rfsmc_relaxed_mutation.go: write halves that follow the new
// source, the RMW reversal rule, and the events a schedule makes new
// (fresh, as rfsmc.go's).
//
// Blocked executions (a failed assume or await: the thread ends early, as
// under SC, rfsmc.go) are classes of their own, and an execution that ends
// with threads waiting for a lock gets Section 7's rule for them
// (rfsmc_relaxed_wait.go). Trylocks are RMWs of their lock as seed 002
// Section 7 says (a failed one reads the acquire holding it), both
// outcomes explored (rfsmc_relaxed_trylock.go; not optimal there, as
// under SC: a class may come twice). A bounded execution (a
// thread cut at the event bound, or a tool limit) is a class like any
// other, as under SC: counted (explore.Stats.Bounded), its reads mutated,
// and the search goes on to end incomplete. Data races are decided on
// every explored trace (rfsmc_relaxed_race.go).

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"mcr/program"
	"mcr/program/explore"
)

// relaxedSMC is the state of one RF-SMC search under TSO or PSO.
type relaxedSMC struct {
	ctx       context.Context
	p         program.Program
	rec       *explore.Recorder
	opts      explore.Options
	cfg       RelaxedConfig
	raced     map[string]bool // the keys of the races reported (explore.Finding.Key)
	raceCache raceCache
	schedules map[string]*relaxedSet // schedules(pre_τ̃(r)), keyed by the prefix
}

// relaxedSched is one entry of a schedule set: (τ', σ', mrk') (RF' is
// implied by σ').
type relaxedSched struct {
	tau   []program.EventID
	sigma program.Schedule
	mrk   map[program.EventID]bool
	// fresh holds the events the schedule made new: the read (acquire)
	// whose source it changed (its head), the other reads whose source
	// changed (a reversal's eW) and the write halves of the RMW and CAS
	// reads among them. In the call that explores it they count as new
	// for lines 9-11, the reversal and the lock rule, as rfsmc.go's
	// fresh events do (a write half whose value changed is a write no
	// earlier trace had)
	fresh map[program.EventID]bool
}

type relaxedSet struct {
	list []relaxedSched
	seen map[string]bool // (τ', RF') already proposed (line 17)
}

// RelaxedConfig configures RFSMCRelaxedWith.
type RelaxedConfig struct {
	// Name is the algorithm name of the result ("" : "rf").
	Name string
	// Decider decides the reads-from instances of the mutations (line
	// 18) under the search's model; nil means VerifyTSO or VerifyPSO. An
	// error from it stops the search (incomplete), so wrap a decider that
	// may give up (Z3) in a program.Fallback.
	Decider program.Decider
	// Queries names the counter of decided instances ("" :
	// "witness_queries").
	Queries string
	// OnInstance, if set, sees every instance decided (mutations and race
	// queries) with its witness, nil if it has none (for
	// --dump-instances).
	OnInstance func(inst *program.Instance, w program.Witness)
}

// RFSMCRelaxed explores p, whose executions run under TSO or PSO
// (cfront.Program.SetModel), with RF-SMC (seed 004 Algorithm 3), deciding
// the mutations with VerifyTSO or VerifyPSO.
func RFSMCRelaxed(ctx context.Context, p program.Program, opts explore.Options, m program.MemoryModel) *explore.Result {
	return RFSMCRelaxedWith(ctx, p, opts, m, RelaxedConfig{})
}

// RFSMCRelaxedWith is RFSMCRelaxed with the decider, the result's name and
// a witness hook of cfg: the search of `--algo mcr --mm tso|pso`, whose
// mutation instances Z3, the explicit deciders or both (compared) decide.
func RFSMCRelaxedWith(ctx context.Context, p program.Program, opts explore.Options, m program.MemoryModel, cfg RelaxedConfig) *explore.Result {
	if cfg.Name == "" {
		cfg.Name = "rf"
	}
	if cfg.Queries == "" {
		cfg.Queries = "witness_queries"
	}
	if cfg.Decider == nil {
		cfg.Decider = RelaxedDecider(m)
	}
	s := &relaxedSMC{ctx: ctx, p: p, rec: explore.NewRecorder(cfg.Name, opts), opts: opts, cfg: cfg, schedules: map[string]*relaxedSet{},
		raced: map[string]bool{}, raceCache: raceCache{}}
	if b, ok := p.Start().(program.Buffered); !ok || b.Model() != m {
		s.rec.Stop(fmt.Sprintf("the program does not execute under %s (set its memory model first: cfront.Program.SetModel)", m))
		return s.rec.Result()
	}
	s.call(nil, nil, nil, nil)
	return s.rec.Result()
}

// RelaxedDecider returns the explicit decider of reads-from instances
// under m: VerifyTSO (seed 004 Algorithm 1) or VerifyPSO (Algorithm 2).
func RelaxedDecider(m program.MemoryModel) program.Decider {
	if m == program.PSO {
		return &VerifyPSO{}
	}
	return &VerifyTSO{}
}

// relaxedTrace is σ̃ with what the algorithm asks of it.
type relaxedTrace struct {
	tr     *program.Trace
	pos    map[program.EventID]int32 // trace position of each thread event
	src    map[program.EventID]int32 // reads and acquires: source position, -1 init
	fork   map[program.ThreadID]program.EventID
	ended  map[program.ThreadID]program.EventID // the End of each thread
	vis    *visIndex                            // causal clocks for hiddenFilter, built on first use (rfsmc_relaxed_visible.go)
	visOff bool                                 // the trace is too large for them
}

// call is RF-SMC(τ, RF, σ, mrk); it returns true when the search stops.
func (s *relaxedSMC) call(tau []program.EventID, sigma program.Schedule, mrk map[program.EventID]bool, fresh map[program.EventID]bool) bool {
	if err := s.ctx.Err(); err != nil {
		s.rec.Stop(explore.StopReason(s.ctx))
		return true
	}
	// line 1: σ̃ = σ ∘ σ̂, σ̂ the executor's default extension
	x, err := program.Replay(s.p, sigma)
	if err != nil {
		s.rec.Stop(fmt.Sprintf("internal error (a bug in mcr): a VerifyTSO/PSO witness does not replay: %v", err))
		return true
	}
	if i := deviation(x.Trace(), sigma); i >= 0 {
		// Replay skips the steps an RMW took with its read: a write half
		// or flush the witness did not plan (a CAS that succeeded
		// against the plan) would shift the extension
		s.rec.Stop(fmt.Sprintf("internal error (a bug in mcr): the execution of a witness deviates from it at step %d", i))
		return true
	}
	if explore.HasTrylock(x.Trace()) {
		s.rec.Extra("trylocks", 1) // both outcomes explored (rfsmc_relaxed_trylock.go)
	}
	if s.rec.Execution(x) { // a bounded one is counted and makes the result incomplete
		return true
	}
	t := indexRelaxed(x.Trace())
	if s.opts.Reports(explore.KindRace) && s.races(t) { // rfsmc_relaxed_race.go
		return true
	}
	// line 2: τ̃ = τ ∘ thread events of σ̂
	tauT := slices.Clone(tau)
	var ext []program.EventID
	for i := len(sigma); i < len(t.tr.Events); i++ {
		if e := &t.tr.Events[i]; e.Kind != program.Flush {
			ext = append(ext, e.ID())
		}
	}
	tauT = append(tauT, ext...)
	order := make(map[program.EventID]int, len(tauT))
	for i, id := range tauT {
		order[id] = i
	}
	inExt := map[program.EventID]bool{}
	for _, id := range ext {
		inExt[id] = true
	}
	isNew := maps.Clone(fresh) // the extension and the schedule's fresh events
	if isNew == nil {
		isNew = map[program.EventID]bool{}
	}
	maps.Copy(isNew, inExt)
	// lines 3-4
	for _, id := range ext {
		if t.isRead(id) {
			s.schedules[prefixKey(tauT[:order[id]])] = &relaxedSet{seen: map[string]bool{}}
		}
	}
	// line 5
	for _, r := range tauT {
		if !t.isRead(r) || mrk[r] {
			continue
		}
		set := s.schedules[prefixKey(tauT[:order[r]])]
		if set == nil {
			continue // cannot happen: τ's reads were set up by an ancestor
		}
		cands := t.mutations(r, inExt[r], isNew) // lines 9-11
		var hidden func(int32) bool
		if len(cands) > 0 {
			hidden = t.hiddenFilter(r) // rfsmc_relaxed_visible.go
		}
		for _, w := range cands {
			if hidden != nil && hidden(w) {
				s.rec.Extra("hidden_sources", 1)
				continue
			}
			if s.propose(t, tauT, order, r, w, mrk, set) {
				return true
			}
		}
		for _, eW := range t.reversible(r, isNew) { // seed 002 Section 7
			if s.reverse(t, tauT, order, r, eW, mrk, set) {
				return true
			}
		}
	}
	// seed 002 Section 7: an acquire after another thread's section
	for _, b := range tauT {
		if e := &t.tr.Events[t.pos[b]]; e.Kind != program.Acquire || t.src[b] < 0 {
			continue
		}
		a1, ok := t.opener(t.src[b])
		if ok && (isNew[b] || inExt[a1]) && s.replace(t, tauT, order, b, mrk) {
			return true
		}
	}
	// seed 002 Section 7: a failed trylock in another thread's section
	if s.replaceFailed(t, tauT, order, mrk, isNew, inExt) { // rfsmc_relaxed_trylock.go
		return true
	}
	// seed 002 Section 7: threads waiting for a lock at the end
	if s.replaceWaiting(t, x, tauT, order, mrk) {
		return true
	}
	// lines 22-25: the extension's reads, from the last
	for i := len(ext) - 1; i >= 0; i-- {
		r := ext[i]
		if !t.isRead(r) {
			continue
		}
		key := prefixKey(tauT[:order[r]])
		set := s.schedules[key]
		for k := 0; k < len(set.list); k++ { // the list grows while descendants run
			c := set.list[k]
			if s.call(c.tau, c.sigma, c.mrk, c.fresh) {
				return true
			}
		}
		delete(s.schedules, key)
	}
	return false
}

// propose builds the mutation "r reads from w" (lines 12-21; w is a trace
// position, -1 for init) and adds it to set if it is new and realizable.
func (s *relaxedSMC) propose(t *relaxedTrace, tauT []program.EventID, order map[program.EventID]int, r program.EventID, w int32, mrk map[program.EventID]bool, set *relaxedSet) bool {
	// line 13: the causal past of w after r in τ̃ (P without r's own
	// source). Leaving out r's source edge changes the past only below r,
	// and a past holding r ends the proposal, so w's clock serves.
	inPast := func(program.EventID) bool { return false }
	wid, val := program.InitID, t.tr.InitValue(t.tr.Events[t.pos[r]].Loc)
	if w >= 0 {
		wid, val = t.tr.Events[w].ID(), t.tr.Events[w].Value
		if v := t.visibility(); v != nil {
			c := v.vc[w]
			inPast = func(e program.EventID) bool { return c[v.slot[e.Thread]] >= e.Index }
		} else {
			past := map[program.EventID]bool{}
			t.causalPast(wid, r, past)
			inPast = func(e program.EventID) bool { return past[e] }
		}
	}
	if inPast(r) {
		// w needs r (a later write of r's thread, r's own write half, the
		// write of an RMW that reads r's): no witness, nothing to ask;
		// the RMW case is the reversal rule's (reverse)
		return false
	}
	var causesAfter []program.EventID
	for _, e := range tauT[order[r]+1:] {
		if inPast(e) {
			causesAfter = append(causesAfter, e)
		}
	}
	// line 14
	tau2 := append(slices.Clone(tauT[:order[r]]), r)
	m := newMutation(append(tau2, causesAfter...))
	m.src[r] = wid
	t.plan(m, r, val, true) // w keeps its past: its value is known
	return s.offer(t, m, r, causesAfter, mrk, set, false)
}

// replace is seed 002 Section 7's lock rule, as rfsmc.go's tryReplace: an
// acquire b that follows the release of another thread's critical section
// cannot be reversed with that release by a mutation of b; instead the
// acquire a1 that opened the section is replaced by b taking a1's source,
// τ' = pre_τ̃(a1) ∘ (b's causal past after a1) ∘ b, proposed at a1's
// prefix. It returns true when the search stops.
func (s *relaxedSMC) replace(t *relaxedTrace, tauT []program.EventID, order map[program.EventID]int, b program.EventID, mrk map[program.EventID]bool) bool {
	a1, ok := t.opener(t.src[b])
	if !ok {
		return false
	}
	return s.replaceBy(t, tauT, order, a1, b, mrk)
}

// replaceBy proposes, at a1's prefix, acquire b of another thread in the
// place of acquire a1, reading a1's source: τ' = pre_τ̃(a1) ∘ (b's causal
// past after a1) ∘ b. It returns true when the search stops.
func (s *relaxedSMC) replaceBy(t *relaxedTrace, tauT []program.EventID, order map[program.EventID]int, a1, b program.EventID, mrk map[program.EventID]bool) bool {
	if mrk[a1] || a1.Thread == b.Thread {
		return false
	}
	past := map[program.EventID]bool{}
	t.causalPast(b, b, past)
	if past[a1] {
		return false // b needs a1: they cannot change places
	}
	var causes []program.EventID
	for _, e := range tauT[order[a1]+1:] {
		if past[e] && e != b {
			causes = append(causes, e)
		}
	}
	tau2 := append(slices.Clone(tauT[:order[a1]]), causes...)
	tau2 = append(tau2, b)
	set := s.schedules[prefixKey(tauT[:order[a1]])]
	if set == nil {
		return false
	}
	m := newMutation(tau2)
	m.src[b] = program.InitID
	if a := t.src[a1]; a >= 0 {
		m.src[b] = t.tr.Events[a].ID()
	}
	return s.offer(t, m, b, append(causes, b), mrk, set, false)
}

// opener returns the acquire that opened the critical section the release
// at trace position rel closes.
func (t *relaxedTrace) opener(rel int32) (program.EventID, bool) {
	if rel < 0 {
		return program.EventID{}, false
	}
	e := &t.tr.Events[rel]
	for i := e.Index - 1; i >= 0; i-- {
		id := program.EventID{Thread: e.Thread, Index: i}
		if a := &t.tr.Events[t.pos[id]]; a.Kind == program.Acquire && a.Loc == e.Loc {
			return id, true
		}
	}
	return program.EventID{}, false
}

// offer decides mutation m, whose schedule changes the source of head,
// and adds it to set if it is new and realizable (lines 15-21); the reads
// of causes get marked. unsure says that head is a CAS planned to fail
// whose value only executing tells (rfsmc_relaxed_mutation.go). It
// returns true when the search stops.
func (s *relaxedSMC) offer(t *relaxedTrace, m *mutation, head program.EventID, causes []program.EventID, mrk map[program.EventID]bool, set *relaxedSet, unsure bool) bool {
	// lines 15-17
	key := mutationKey(t, m)
	if set.seen[key] {
		return false
	}
	set.seen[key] = true
	// line 18
	wit, stop := s.decide(t, m)
	if stop || wit == nil {
		return stop
	}
	if unsure {
		writes, err := s.probeCAS(wit, head)
		if err != nil {
			s.rec.Stop(fmt.Sprintf("internal error (a bug in mcr): a VerifyTSO/PSO witness does not replay: %v", err))
			return true
		}
		if writes {
			m.setHalf(t, head, true)
			if wit, stop = s.decide(t, m); stop || wit == nil {
				return stop
			}
		}
	}
	// lines 20-21
	mrk2 := map[program.EventID]bool{}
	for _, e := range m.tau {
		if mrk[e] {
			mrk2[e] = true
		}
	}
	for _, e := range causes {
		if t.isRead(e) {
			mrk2[e] = true
		}
	}
	fresh := map[program.EventID]bool{head: true}
	for r := range m.src {
		fresh[r] = true
	}
	for r, writes := range m.half {
		if writes {
			fresh[halfID(r)] = true
		}
	}
	set.list = append(set.list, relaxedSched{tau: m.tau, sigma: witnessSchedule(wit), mrk: mrk2, fresh: fresh})
	return false
}

// decide asks the decider for a witness of m's instance (line 18): the
// witness, nil if there is none; stop is true when the search stops.
func (s *relaxedSMC) decide(t *relaxedTrace, m *mutation) (program.Witness, bool) {
	inst, err := t.instance(m)
	if err != nil {
		s.rec.Stop(fmt.Sprintf("internal error (a bug in mcr): mutation instance: %v", err))
		return nil, true
	}
	return s.ask(inst, s.cfg.Queries)
}

// ask decides inst with the configured decider and counts it under
// counter; a witness is validated and inst shown to cfg.OnInstance. It
// returns the witness (nil: none), and stop true when the search stops
// (a decider's error, an invalid witness).
func (s *relaxedSMC) ask(inst *program.Instance, counter string) (wit program.Witness, stop bool) {
	ans, err := s.cfg.Decider.Decide(s.ctx, inst)
	if err != nil {
		s.stopOn(err)
		return nil, true
	}
	s.rec.Extra(counter, 1)
	if ans.Sat {
		if err := program.ValidateWitness(inst, ans.Witness); err != nil {
			s.rec.Stop(fmt.Sprintf("internal error (a bug in mcr): a witness of %s fails validation: %v", s.cfg.Decider.Name(), err))
			return nil, true
		}
		wit = ans.Witness
	}
	if s.cfg.OnInstance != nil {
		s.cfg.OnInstance(inst, wit)
	}
	return wit, false
}

// stopOn stops the search on a decider's error: the context's end, or
// the decider's failure.
func (s *relaxedSMC) stopOn(err error) {
	if s.ctx.Err() == nil {
		s.rec.Stop(fmt.Sprintf("decider %s failed: %v", s.cfg.Decider.Name(), err))
		return
	}
	s.rec.Stop(explore.StopReason(s.ctx))
}

// deviation returns the first step of sigma that trace tr did not take
// in its place, or -1.
func deviation(tr *program.Trace, sigma program.Schedule) int {
	for i, id := range sigma {
		if i >= len(tr.Events) || tr.Events[i].ID() != id {
			return i
		}
	}
	return -1
}

func indexRelaxed(tr *program.Trace) *relaxedTrace {
	x := program.NewTraceIndex(tr)
	holds := lockHolders(tr)
	t := &relaxedTrace{tr: tr, pos: map[program.EventID]int32{}, src: map[program.EventID]int32{},
		fork: map[program.ThreadID]program.EventID{}, ended: map[program.ThreadID]program.EventID{}}
	for i := range tr.Events {
		e := &tr.Events[i]
		if e.Kind == program.Flush {
			continue
		}
		t.pos[e.ID()] = int32(i)
		switch e.Kind {
		case program.Read, program.Acquire:
			t.src[e.ID()] = x.Src[i]
		case program.LockFail:
			t.src[e.ID()] = holds[i] // the acquire holding the lock
		case program.Fork:
			t.fork[program.ThreadID(e.Value)] = e.ID()
		case program.End:
			t.ended[e.Thread] = e.ID()
		}
	}
	return t
}

// isRead reports whether id reads a source: a read, an acquire (the
// release it follows) or a failed trylock (the acquire holding its lock).
func (t *relaxedTrace) isRead(id program.EventID) bool {
	k := t.tr.Events[t.pos[id]].Kind
	return k == program.Read || k == program.Acquire || k == program.LockFail
}

// mutations lists the sources r may read from instead of its own (lines
// 9-11): the writes (releases, for an acquire) of its location in σ̃ and
// init, and for a trylock the acquires of other threads too (it fails in
// their section; rfsmc_relaxed_trylock.go); only the extension's sources
// if r is not in the extension.
func (t *relaxedTrace) mutations(r program.EventID, rInExt bool, inExt map[program.EventID]bool) []int32 {
	e := &t.tr.Events[t.pos[r]]
	if t.ownHeld(r) {
		return nil // its own thread holds the lock: it fails, whatever the others do
	}
	try := explore.IsTrylock(e)
	var out []int32
	if rInExt && t.src[r] != -1 {
		out = append(out, -1)
	}
	for i := range t.tr.Events {
		w := &t.tr.Events[i]
		if w.Loc == e.Loc && t.sourceKind(e, w) && int32(i) != t.src[r] && (rInExt || inExt[w.ID()]) &&
			(!try || w.Kind != program.Acquire || w.Thread != r.Thread) {
			out = append(out, int32(i))
		}
	}
	return out
}

// causalPast adds to past the thread events e ≤_P w: program order, fork
// and join, and the sources of the reads (acquires) of other threads,
// except r's (line 7).
func (t *relaxedTrace) causalPast(w, r program.EventID, past map[program.EventID]bool) {
	stack := []program.EventID{w}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if past[id] {
			continue
		}
		past[id] = true
		if id.Index > 0 {
			stack = append(stack, program.EventID{Thread: id.Thread, Index: id.Index - 1})
		} else if f, ok := t.fork[id.Thread]; ok {
			stack = append(stack, f)
		}
		e := &t.tr.Events[t.pos[id]]
		if e.Kind == program.Join {
			if end, ok := t.ended[program.ThreadID(e.Value)]; ok {
				stack = append(stack, end)
			}
		}
		if s, ok := t.src[id]; ok && s >= 0 && id != r {
			if se := &t.tr.Events[s]; se.Thread != id.Thread {
				stack = append(stack, se.ID())
			}
		}
	}
}

// prefixKey identifies a prefix of τ̃ (the key of schedules).
func prefixKey(pre []program.EventID) string {
	return string(appendIDs(make([]byte, 0, 8*len(pre)), pre))
}

// appendIDs appends "thread:index," for each id: the keys of this file
// are built once or more per proposed mutation, where fmt cost a fifth of
// the CPU time under TSO (SWSC stack_true).
func appendIDs(b []byte, ids []program.EventID) []byte {
	for _, id := range ids {
		b = appendID(b, id)
		b = append(b, ',')
	}
	return b
}

// appendID appends "thread:index".
func appendID(b []byte, id program.EventID) []byte {
	b = strconv.AppendInt(b, int64(id.Thread), 10)
	b = append(b, ':')
	return strconv.AppendInt(b, int64(id.Index), 10)
}
