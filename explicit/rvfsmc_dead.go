package explicit

// This file spares RVF-SMC (rvfsmc.go, seed 000 Algorithm 2) the run of a
// child call that would find nothing to do: no leaf, no mutation, only
// backtrack signals for its ancestors.
//
// A child of read r (thread t) runs σ' (the events of σ̃ and r) and
// extends it (line 1). Every other thread was at a read, an acquire or its
// end after σ̃, so if t's extension after r only writes and ends, the
// child's enabled reads are the call's other enabled reads, each with the
// same visible writes as in σ̃ unless t writes its location (r's write
// half or the extension: not hidden from it, and not forbidden by C). If
// each of them is in C and C forbids all its visible writes (lines 17-18
// give no value group), the child's loop of lines 12-30 makes no child,
// and what it does is set the signals of lines 2-5 (t's writes, the
// pending RMWs and acquires) and count the values C forbade. dead does
// exactly that instead of running σ'.
//
// What t does after r is learned from an earlier run: by local
// determinism, t's events until its next read are a function of the
// values of the reads (and the kinds of the lock events) in r's
// must-happen-before past and of r's value. The first child with a given
// past records t's extension (contKey, rvfConts); a later child with the
// same key is checked without a run. On lastzero (N=11) and casrot (N=9)
// such children were a third and a half of all runs (issue 17).

import (
	"encoding/binary"
	"slices"
	"sync"

	"mcr/program"
)

// rvfConts maps contKey to what a thread does after a read until its next
// one, when that is only writes (and fences) up to its end; shared by the
// workers.
type rvfConts struct {
	mu sync.Mutex
	m  map[string][]program.Event
}

func (c *rvfConts) get(k string) ([]program.Event, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	evs, ok := c.m[k]
	return evs, ok
}

func (c *rvfConts) put(k string, evs []program.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = evs
}

// contKey identifies what thread r.Thread does after r reads v: the kind
// and value of every event of tr in r's must-happen-before past, by
// thread and index, then r and v.
func contKey(tr *program.Trace, h *syncOrder, r *program.Event, v int64) string {
	var clock []int32
	if p := h.Last(r.Thread); p >= 0 {
		clock = slices.Clone(h.at(p))
		clock[r.Thread] = r.Index
	} else if int(r.Thread) < len(h.Fork) && h.Fork[r.Thread] >= 0 {
		clock = make([]int32, h.K)
		h.joinRow(clock, h.Fork[r.Thread])
	}
	b := make([]byte, 0, 64)
	b = binary.AppendUvarint(b, uint64(r.Thread))
	b = binary.AppendUvarint(b, uint64(r.Index))
	b = binary.AppendVarint(b, v)
	for t, n := range clock {
		b = binary.AppendUvarint(b, uint64(n))
		for _, i := range h.At[t][:n] {
			e := &tr.Events[i]
			b = append(b, byte(e.Kind))
			b = binary.AppendVarint(b, e.Value)
		}
	}
	return string(b)
}

// rvfCall is what the child test needs of a call: its enabled reads and
// acquires (all, the one stepped in place of a resumed level included),
// the pending events of its waiting threads (acquires and joins), and
// whether every other thread is finished, stuck or absent (quiet), with
// no trylock in σ̃ and the expected values of the CASes known.
type rvfCall struct {
	all   []program.Event
	wait  []program.Event
	quiet bool
	// none caches, per read of all, whether C(r) (forbid, compared by
	// identity: C's entries are never changed in place) forbids every
	// visible write, and how many values it forbids.
	none map[program.EventID]noSources
}

type noSources struct {
	forbid  []int32
	none    bool
	avoided int
}

// noneVisible reports whether sources gives o no value group under C(o)
// = forbid, and how many values forbid rules out.
func (s *rvfSMC) noneVisible(q *rvfQuery, call *rvfCall, o *program.Event, forbid []int32) (bool, int) {
	if c, ok := call.none[o.ID()]; ok && len(c.forbid) == len(forbid) && (len(forbid) == 0 || &c.forbid[0] == &forbid[0]) {
		return c.none, c.avoided
	}
	groups, n := s.sources(q.tr, q.h, *o, forbid)
	if call.none == nil {
		call.none = map[program.EventID]noSources{}
	}
	call.none[o.ID()] = noSources{forbid, len(groups) == 0, n}
	return len(groups) == 0, n
}

// contLearn is the contKey under which a child call records the
// extension of thread t ("": none).
type contLearn struct {
	key string
	t   program.ThreadID
}

// learnCont records what thread l.t did in the extension of line 1, the
// events of tr from position n on, if it only wrote up to its end.
func (s *rvfSMC) learnCont(l contLearn, tr *program.Trace, n int, x program.Execution) {
	k, t := l.key, l.t
	if over, _ := x.Done(); over {
		return
	}
	if _, st := x.Pending(t); st != program.Finished {
		return
	}
	evs := tr.Events[n:]
	for i := range evs {
		if e := &evs[i]; e.Thread != t || e.Kind != program.Write && e.Kind != program.Fence && e.Kind != program.End {
			return
		}
	}
	s.conts.put(k, slices.Clone(evs))
}

// dead reports whether the child of r reading group (GoodW(r) = group,
// its ancestor entry anc) would make no child and reach no leaf, and if
// so does what it would have done: the signals and the count of forbidden
// values. Otherwise, when t's extension is not known yet, it returns the
// key under which the child is to record it ("" if there is none to
// learn).
func (s *rvfSMC) dead(q *rvfQuery, call *rvfCall, C rvfCausal, group []program.EventID, anc *rvfAncestor) (bool, string) {
	r := &q.r
	if !call.quiet || len(call.all) < 2 || r.Kind != program.Read {
		return false, ""
	}
	for i := range call.all {
		if o := &call.all[i]; o.ID() != r.ID() {
			if _, ok := C[o.ID()]; !ok {
				return false, "" // the child mutates o
			}
		}
	}
	k := contKey(q.tr, q.h, r, q.value(group))
	cont, ok := s.conts.get(k)
	if !ok {
		return false, k
	}
	for i := range call.wait {
		if e := &call.wait[i]; e.Kind == program.Join && program.ThreadID(e.Value) == r.Thread {
			return false, "" // r's thread ends (learnCont): the join runs on
		}
	}
	written := func(loc program.Loc) bool {
		if q.half(group) == 1 && loc == r.Loc {
			return true
		}
		for i := range cont {
			if cont[i].Kind == program.Write && cont[i].Loc == loc {
				return true
			}
		}
		return false
	}
	avoided := 0
	for i := range call.all {
		o := &call.all[i]
		if o.ID() == r.ID() {
			continue
		}
		if o.Kind == program.Read && written(o.Loc) {
			return false, ""
		}
		none, n := s.noneVisible(q, call, o, C[o.ID()])
		if !none {
			return false, ""
		}
		avoided += n
	}
	// Lines 2-5 of the child, with r's entry as the innermost ancestor.
	up := s.anc
	s.anc = anc
	for i := range cont {
		if e := &cont[i]; e.Kind == program.Write {
			s.signal(e.Thread, locKey{e.Loc, false})
		}
	}
	for i := range call.all {
		o := &call.all[i]
		switch {
		case o.ID() == r.ID():
		case o.Kind == program.Read && (o.Is(program.RMW) || o.Is(program.CAS)):
			s.signal(o.Thread, locKey{o.Loc, false})
		case o.Kind == program.Acquire:
			s.signal(o.Thread, locKey{o.Loc, true})
		}
	}
	for i := range call.wait {
		if o := &call.wait[i]; o.Kind == program.Acquire {
			s.signal(o.Thread, locKey{o.Loc, true})
		}
	}
	s.anc = up
	if avoided > 0 {
		s.sink.Extra("duplicates_avoided", float64(avoided))
	}
	s.sink.Extra("dead_children", 1)
	return true, ""
}
