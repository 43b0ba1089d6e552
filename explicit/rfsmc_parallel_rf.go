package explicit

// This file is the loop of lines 12-15 of ReadsFrom-SMC
// (002_29f9f830801bf5b9.txt, Algorithm 1; rfsmc.go) on any number of
// workers, by the scheme of parallel.Tree (parallel/ordered.go): the
// schedules of a call are its children, in the order of the sequential
// loop (reads of Ê from the last, each position's schedules in the order
// found); a child runs in a node of its own unless every child before it
// is committed (with one worker: always directly, the sequential loop);
// children are committed in that order, their proposals for this call's
// positions (or outer ones) applied as the sequential search would have
// applied them.

import (
	"slices"

	"mcr/parallel"
)

// rfOut is a proposal for a position of an outer node, kept in a log
// until it is committed: ⟨σ, E″⟩, or only σ's key when τ″·σ had no
// witness (the key still makes later proposals of σ redundant).
type rfOut struct {
	pos   int
	key   string
	sched *rfSchedule
}

// lock guards the schedule sets and s.sched, which inner nodes look into
// (outer, outerHas): free with one worker.
func (s *rfSMC) lock()   { s.sink.rec.tree.Lock() }
func (s *rfSMC) unlock() { s.sink.rec.tree.Unlock() }

// outer returns the schedule set of position p of an outer node, or nil.
func (s *rfSMC) outer(p int) *rfSchedules {
	t := s.sink.rec.tree
	t.RLock()
	defer t.RUnlock()
	for u := s.up; u != nil; u = u.up {
		if set := u.sched[p]; set != nil {
			return set
		}
	}
	return nil
}

// outerHas reports whether the outer set holds key k: a proposal committed
// before this node's in depth-first order.
func (s *rfSMC) outerHas(set *rfSchedules, k string) bool {
	t := s.sink.rec.tree
	t.RLock()
	defer t.RUnlock()
	return set.keys[k]
}

// fork returns a node for the child call that explores schedule sc at
// position p.
func (s *rfSMC) fork(p int, sc rfSchedule) *rfSMC {
	k := &rfSMC{ctx: s.ctx, p: s.p, validate: s.validate, sched: map[int]*rfSchedules{}, sink: s.sink.child(), up: s}
	k.races = raceReporter{sink: k.sink}
	k.seq = make([]rfNode, p, p+len(sc.sigma))
	copy(k.seq, s.seq[:p])
	k.seq = append(k.seq, sc.sigma...)
	return k
}

// rfChild is a child call of children that runs in a node of its own.
type rfChild struct {
	pos, j int // position and index of its schedule
	k      *rfSMC
	t      *parallel.Task[smcEntry]
}

// before reports whether c comes before the schedule (pos, j) in the
// order of the sequential loop.
func (c *rfChild) before(pos, j int) bool { return c.pos > pos || c.pos == pos && c.j < j }

// children is lines 12-15: it explores the schedules of the positions
// reads (the reads of Ê) and returns true if the exploration must stop.
func (s *rfSMC) children(reads []int) (stop bool) {
	var pending []*rfChild // in the order of the sequential loop
	defer func() {
		for _, c := range pending {
			c.t.Abandon()
		}
		s.lock()
		for i, p := range reads { // the positions not trimmed below
			if i%4096 == 4095 && s.ctx.Err() != nil {
				break // a stop: nothing reads the sets again (fk2012: 1.5M reads, seconds past --timeout)
			}
			delete(s.sched, p) // line 15
		}
		s.unlock()
	}()
	for {
		// A finished child is committed when it is the first in the
		// order: before every pending child and every known schedule not
		// dispatched yet (one that an earlier commit added above it).
		for len(pending) > 0 && pending[0].t.Finished() && !s.waiting(reads, pending[0].pos) {
			c := pending[0]
			pending = pending[1:]
			if s.commit(c.k) || c.t.Stopped() {
				return true
			}
		}
		// The next schedule in the order of the sequential loop among
		// those known: a schedule committed later at a position above
		// it still comes before it, and pending stays in that order.
		next := -1
		for i := len(reads) - 1; i >= 0; i-- {
			if set := s.sched[reads[i]]; set != nil && set.next < len(set.list) {
				next = i
				break
			}
		}
		if next < 0 {
			if len(pending) == 0 {
				return false
			}
			pending[0].t.Wait()
			continue
		}
		p := reads[next]
		set := s.sched[p]
		j := set.next
		set.next++
		sc := set.list[j]
		// Another worker takes the child only if this one has another
		// known schedule to run meanwhile (else it would only wait).
		spawned := s.sink.spawn(func() bool { return s.more(reads, next) })
		if !spawned && len(pending) == 0 {
			// Every child before it is committed: run it directly, as
			// the sequential loop does. The positions above p are done
			// (line 15) and no commit can reach them any more.
			s.lock()
			for _, q := range reads[next+1:] {
				delete(s.sched, q)
			}
			s.unlock()
			reads = reads[:next+1]
			s.seq = append(s.seq[:p], sc.sigma...)
			if s.call(p+len(sc.sigma), sc.witness) {
				return true
			}
			continue
		}
		c := &rfChild{pos: p, j: j, k: s.fork(p, sc)}
		c.t = s.sink.start(c.k.sink, spawned, func() bool { return c.k.call(p+len(sc.sigma), sc.witness) })
		at := len(pending)
		for at > 0 && !pending[at-1].before(p, j) {
			at--
		}
		pending = slices.Insert(pending, at, c)
	}
}

// more reports whether a schedule at or below reads[next] is known but not
// dispatched yet.
func (s *rfSMC) more(reads []int, next int) bool {
	for i := next; i >= 0; i-- {
		if set := s.sched[reads[i]]; set != nil && set.next < len(set.list) {
			return true
		}
	}
	return false
}

// waiting reports whether a schedule at a position of reads above pos is
// known but not dispatched yet.
func (s *rfSMC) waiting(reads []int, pos int) bool {
	for i := len(reads) - 1; i >= 0 && reads[i] > pos; i-- {
		if set := s.sched[reads[i]]; set != nil && set.next < len(set.list) {
			return true
		}
	}
	return false
}

// commit takes over the log of the finished child node k: proposals
// for positions of this node join their sets unless a proposal before
// them had the key; the rest goes on to this node's log. It returns
// true if the exploration must stop.
func (s *rfSMC) commit(k *rfSMC) bool {
	return s.sink.commit(k.sink, func(o *rfOut) bool {
		set := s.sched[o.pos]
		if set == nil {
			// An outer position: on to this node's log, unless this
			// node proposed the key before.
			if s.outKeys[o.pos][o.key] {
				return true
			}
			if s.outKeys == nil {
				s.outKeys = map[int]map[string]bool{}
			}
			if s.outKeys[o.pos] == nil {
				s.outKeys[o.pos] = map[string]bool{}
			}
			s.outKeys[o.pos][o.key] = true
			return false
		}
		s.lock()
		defer s.unlock()
		if !set.keys[o.key] {
			set.keys[o.key] = true
			if o.sched != nil {
				s.sink.Extra("schedules", 1)
				set.list = append(set.list, *o.sched)
			}
		}
		return true
	})
}
