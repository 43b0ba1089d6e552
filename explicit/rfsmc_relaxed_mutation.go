package explicit

// This file holds the mutations of RF-SMC under TSO and PSO
// (rfsmc_relaxed.go): τ' with its reads-from (seed 004 Algorithm 3, lines
// 14-17), the consistency instance (X', RF') decided at line 18, and the
// read-modify-writes and compare-and-swaps of Remark 1 of seed 004
// (004_fe58e94b2666f77b.txt): "a sequence of a read and an optional write,
// enclosed in an atomic section", handled "as described in [3]", that is
// seed 002 Section 7 (002_29f9f830801bf5b9.txt):
//
//   - A read whose source changes keeps a write half if it is an RMW or a
//     CAS that succeeds on the new value (the value of a write of σ̃ whose
//     causal past stays, so it is known), and loses it if it is a CAS that
//     now fails; a failed CAS that now succeeds gets a write half σ̃ does
//     not have (its value is a placeholder: nothing in τ' reads it, and
//     the deciders look at sources only).
//   - Reversal: if eR is an RMW whose write half is read by eW, an RMW or a
//     CAS that succeeds reading eR's source, of another thread, then "eR
//     reads eW's write" has no witness by itself (eW needs eR), and the
//     rule proposes eR[src := eW'] with eW' = eW[src := eR.src] instead,
//     at eR's place. If eW's write value is one only executing tells (an
//     RMW, or a CAS that failed in σ̃) and eR is a CAS, whether eR succeeds
//     is found by running the witness without eR's write half (a probe,
//     "cas_probes"); a witness with it, if it succeeds, needs one more
//     query (adding a write half only adds constraints). Reversals are
//     counted ("rmw_reversals"); testdata/c/mm/casprobe.c has both probe
//     outcomes.
//
// Under TSO and PSO the RMW read and every CAS read (failed too) execute
// with their thread's buffers empty and the write half is flushed at once
// (program.Drains, program/INSTANCES.md): the deciders (VerifyTSO,
// VerifyPSO, Z3) decide those instances as they are.

import (
	"fmt"
	"slices"

	"mcr/program"
	"mcr/program/explore"
)

// mutation is τ' of a schedule with its reads-from: every read (acquire)
// of tau reads its σ̃ source, but those of src; half says, for the RMW and
// CAS reads whose source changes, whether they write (their write half is
// then in tau, right after them); synth holds the write halves that σ̃ does
// not have (of a CAS that failed in σ̃).
type mutation struct {
	tau   []program.EventID
	src   map[program.EventID]program.EventID // new sources, program.InitID for init
	half  map[program.EventID]bool
	synth map[program.EventID]bool
}

func newMutation(tau []program.EventID) *mutation {
	return &mutation{tau: tau, src: map[program.EventID]program.EventID{}, half: map[program.EventID]bool{}, synth: map[program.EventID]bool{}}
}

// halfID names the write half of RMW read r.
func halfID(r program.EventID) program.EventID {
	return program.EventID{Thread: r.Thread, Index: r.Index + 1}
}

// setHalf gives RMW or CAS read r a write half in m, or takes it away.
func (m *mutation) setHalf(t *relaxedTrace, r program.EventID, writes bool) {
	h := halfID(r)
	m.half[r] = writes
	m.tau = slices.DeleteFunc(m.tau, func(id program.EventID) bool { return id == h })
	delete(m.synth, h)
	if writes {
		m.tau = slices.Insert(m.tau, slices.Index(m.tau, r)+1, h)
		if !t.tr.Events[t.pos[r]].Is(program.RMW) {
			m.synth[h] = true
		}
	}
}

// plan decides whether read r, reading a write of value val, writes in m
// (a no-op unless r is an RMW or CAS read). known is false when val is
// not the value r will read (only executing tells): a CAS then is planned
// to fail and unsure is true.
func (t *relaxedTrace) plan(m *mutation, r program.EventID, val int64, known bool) (unsure bool) {
	e := &t.tr.Events[t.pos[r]]
	if e.Kind != program.Read || !e.Is(program.RMW) && !e.Is(program.CAS) {
		return false
	}
	m.setHalf(t, r, !e.Is(program.CAS) || known && val == e.Arg)
	return e.Is(program.CAS) && !known
}

// sourceOf returns the source of read (acquire) id in m, program.InitID
// for init; false if id is no read (acquire).
func (t *relaxedTrace) sourceOf(m *mutation, id program.EventID) (program.EventID, bool) {
	if s, ok := m.src[id]; ok {
		return s, true
	}
	s, ok := t.src[id]
	if !ok || m.synth[id] {
		return program.EventID{}, false
	}
	if s < 0 {
		return program.InitID, true
	}
	return t.tr.Events[s].ID(), true
}

// isHalf reports whether id is a write half in m.
func (t *relaxedTrace) isHalf(m *mutation, id program.EventID) bool {
	if m.synth[id] {
		return true
	}
	p, ok := t.pos[id]
	return ok && t.tr.Events[p].Is(program.RMWWrite)
}

// instance is the consistency instance (X', RF') of m (line 15): the
// events of τ' and the memory-writes of their buffer-writes, each read
// (acquire) with its source in m, the write halves as m plans them.
func (t *relaxedTrace) instance(m *mutation) (*program.Instance, error) {
	in := map[program.EventID]bool{}
	for _, id := range m.tau {
		in[id] = true
	}
	sub := *t.tr
	sub.Events = nil
	var fails []program.EventID // trylocks that fail in m (placeholders in sub)
	for i := range t.tr.Events {
		e := t.tr.Events[i]
		id := e.ID()
		if e.Kind == program.Flush {
			id = id.Flushed()
		}
		if !in[id] || m.synth[id] {
			continue
		}
		if id.Index > 0 && e.Kind != program.Flush {
			if h, ok := m.half[program.EventID{Thread: id.Thread, Index: id.Index - 1}]; ok && (!h || !e.Is(program.RMWWrite)) {
				return nil, fmt.Errorf("%v follows a read whose write half changes", id)
			}
		}
		if src, ok := m.src[id]; ok && explore.IsTrylock(&e) && t.trylockAs(&e, src) {
			// InstanceFromTrace takes sources from the order of sub, in
			// which a trylock that now fails may find its lock free: an
			// acquire until its source is set below
			e.Kind = program.Acquire
			fails = append(fails, id)
		}
		writes, planned := m.half[id]
		if planned {
			e.Flags &^= program.RMW
			if writes {
				e.Flags |= program.RMW
			}
		}
		sub.Events = append(sub.Events, e)
		if h := halfID(id); planned && m.synth[h] {
			sub.Events = append(sub.Events, program.Event{Thread: h.Thread, Index: h.Index, Kind: program.Write,
				Flags: program.Atomic | program.RMWWrite, Loc: e.Loc, Pos: e.Pos})
		}
	}
	inst, err := program.InstanceFromTrace(&sub, program.ReadsFrom)
	if err != nil {
		return nil, err
	}
	for _, id := range fails {
		e := &inst.Events[inst.Dense(id)]
		e.Kind, e.Flags = program.LockFail, e.Flags&^program.Try
	}
	for _, id := range m.tau {
		s, ok := t.sourceOf(m, id)
		if !ok {
			continue
		}
		i := inst.Dense(id)
		src, val := program.InitSource, inst.InitValue(inst.Events[i].Loc)
		if s != program.InitID {
			if !in[s] {
				return nil, fmt.Errorf("source %v of %v is not in the mutation", s, id)
			}
			src = inst.Dense(s)
			val = inst.Events[src].Value
		}
		inst.Sources[i] = []int32{src}
		if inst.Events[i].Kind == program.Read {
			inst.Events[i].Value = val
		}
	}
	return inst, inst.Check()
}

// mutationKey identifies (τ', RF') for line 17: by the event set of τ'
// (write halves left out: the sources decide them), not its order. Two
// branches can reach the same mutation with the causes in another order
// (account.c N=2 under TSO: T2's write before or after T3's events); as
// sequences they were both new, and the class was explored twice.
func mutationKey(t *relaxedTrace, m *mutation) string {
	ids := slices.DeleteFunc(slices.Clone(m.tau), func(id program.EventID) bool { return t.isHalf(m, id) })
	slices.SortFunc(ids, func(a, b program.EventID) int {
		if a.Thread != b.Thread {
			return int(a.Thread) - int(b.Thread)
		}
		return int(a.Index) - int(b.Index)
	})
	b := appendIDs(make([]byte, 0, 12*len(ids)), ids)
	for _, id := range ids {
		if s, ok := t.sourceOf(m, id); ok {
			b = appendID(append(b, '|'), id)
			b = append(b, '<')
			if s == program.InitID {
				b = append(b, "init"...)
			} else {
				b = appendID(b, s)
			}
		}
	}
	return string(b)
}

// reversible returns the reads eW that the reversal rule pairs with RMW
// read r (see the file comment): of other threads, RMW or CAS, reading r's
// write half; r, eW or one of their write halves new (isNew: in the
// extension or fresh, lines 9-11).
func (t *relaxedTrace) reversible(r program.EventID, isNew map[program.EventID]bool) []program.EventID {
	e := &t.tr.Events[t.pos[r]]
	if e.Kind != program.Read || !e.Is(program.RMW) {
		return nil
	}
	h := t.pos[halfID(r)]
	var out []program.EventID
	for i := range t.tr.Events {
		e2 := &t.tr.Events[i]
		if e2.Kind == program.Read && e2.Thread != r.Thread && (e2.Is(program.RMW) || e2.Is(program.CAS)) &&
			t.src[e2.ID()] == h && (isNew[r] || isNew[halfID(r)] || isNew[e2.ID()] || isNew[halfID(e2.ID())]) {
			out = append(out, e2.ID())
		}
	}
	return out
}

// reverse proposes the reversal of RMW read r and eW (reversible):
// τ' = pre_τ̃(r) ∘ r ∘ (the causal past of eW and of r's source after r),
// eW reading r's source and r eW's write half. It returns true when the
// search stops.
func (s *relaxedSMC) reverse(t *relaxedTrace, tauT []program.EventID, order map[program.EventID]int, r, eW program.EventID, mrk map[program.EventID]bool, set *relaxedSet) bool {
	e, e2 := &t.tr.Events[t.pos[r]], &t.tr.Events[t.pos[eW]]
	if e2.Is(program.CAS) && e.Value != e2.Arg {
		return false // eW fails reading r's source: a plain mutation of eW
	}
	past := map[program.EventID]bool{}
	t.causalPast(eW, eW, past)
	rsrc := program.InitID
	if p := t.src[r]; p >= 0 {
		rsrc = t.tr.Events[p].ID()
		t.causalPast(rsrc, r, past)
	}
	if past[r] {
		return false // eW's thread (or r's source) needs r
	}
	var causes []program.EventID
	for _, id := range tauT[order[r]+1:] {
		if past[id] {
			causes = append(causes, id)
		}
	}
	m := newMutation(append(append(slices.Clone(tauT[:order[r]]), r), causes...))
	m.src[r], m.src[eW] = halfID(eW), rsrc
	m.setHalf(t, eW, true)
	// eW' writes what eW wrote if it is a CAS that succeeded in σ̃ (its
	// desired value is its thread's own); an RMW's value depends on what
	// it reads now
	val, known := int64(0), e2.Is(program.RMW) && e2.Is(program.CAS)
	if known {
		val = t.tr.Events[t.pos[halfID(eW)]].Value
	}
	unsure := t.plan(m, r, val, known)
	s.rec.Extra("rmw_reversals", 1)
	return s.offer(t, m, r, causes, mrk, set, unsure)
}

// probeCAS runs the schedule of witness w up to CAS read r and reports
// whether r succeeded (an unsure plan, see the file comment). The steps
// after r are left out: if r writes, they need not be followable.
func (s *relaxedSMC) probeCAS(w program.Witness, r program.EventID) (bool, error) {
	s.rec.Extra("cas_probes", 1)
	sched := witnessSchedule(w)
	if i := slices.Index(sched, r); i >= 0 {
		sched = sched[:i+1]
	}
	x, err := program.Replay(s.p, sched)
	if err != nil {
		return false, err
	}
	for _, e := range x.Trace().Events {
		if e.Kind != program.Flush && e.ID() == r {
			return e.Is(program.RMW), nil
		}
	}
	return false, fmt.Errorf("the probe of %v does not execute it", r)
}
