package explicit

// This file implements the fast path of ReadsFrom-SMC's witness queries
// (rfsmc.go): the order of the current execution E·Ê, restricted to the
// events of τ″·σ, with σ's head moved to the latest place it can take,
// is most often a witness of τ″·σ (E·Ê is the guide GetWitness would
// follow too). A linear simulation of SC with locks checks it; only if it
// fails is GetWitness asked.

import (
	"slices"

	"mcr/program"
)

// guided returns a witness of seq[:p]·σ built from the order of E·Ê, or
// nil; the witness is s.order, and the result is empty unless s.validate
// (decide needs it as a Witness only to validate it). It tries σ's head as late as it can go (after its source and its
// thread's events, up to the next access to its location), then as early
// (right after its source, with the causal past of its thread pulled
// forward).
func (s *rfSMC) guided(p int, sigma []rfNode) program.Witness {
	head := sigma[0]
	nh := 1
	if len(sigma) > 1 && sigma[1].ev.Is(program.RMWWrite) && sigma[1].ev.Thread == head.ev.Thread {
		nh = 2
	}
	// The rest in execution order (events E·Ê does not have last).
	s.rest = append(append(s.rest[:0], s.seq[:p]...), sigma[nh:]...)
	rest := s.inExecutionOrder(s.rest)
	src, last := -1, -1 // positions in rest of the head's source and of its thread's last event
	for j := range rest {
		if id := rest[j].ev.ID(); id == head.src {
			src = j
		} else if id.Thread == head.ev.Thread {
			last = j
		}
	}
	// Late: after both, then past what does not touch the location.
	i := max(src, last) + 1
	lock := head.ev.Kind.IsLock()
	for i < len(rest) {
		e := &rest[i].ev
		if (e.Kind.IsAccess() || e.Kind.IsLock()) && e.Loc == head.ev.Loc && e.Kind.IsLock() == lock {
			break
		}
		i++
	}
	s.order = slices.Insert(append(s.order[:0], rest...), i, sigma[:nh]...)
	if !s.simulate(s.order) && (last < src || !s.early(rest, sigma[:nh], src, last)) {
		return nil
	}
	if !s.validate {
		// decide reads the witness off s.order
		return program.Witness{}
	}
	w := make(program.Witness, len(s.order))
	for j := range s.order {
		w[j].Event = s.order[j].ev.ID()
	}
	return w
}

// inExecutionOrder sorts nodes stably by their position in the current
// execution, the events it does not have last, by index, and returns them
// (nodes itself if sorted, else s.sorted, which must not be nodes). Ranks are computed once per node and
// sorted as integers with the node's place as tie-break: a comparison
// function that looked the ranks up was a tenth of ReadsFrom-SMC's time
// (issue 17).
func (s *rfSMC) inExecutionOrder(nodes []rfNode) []rfNode {
	keys := s.rankBuf[:0]
	sorted := true
	for j := range nodes {
		id := nodes[j].ev.ID()
		rank := len(s.tr.Events) + int(id.Index)
		if at := s.h.At[id.Thread]; int(id.Index) < len(at) && s.tr.Events[at[id.Index]].Kind == nodes[j].ev.Kind {
			rank = int(at[id.Index])
		}
		k := uint64(rank)<<32 | uint64(j)
		sorted = sorted && (j == 0 || keys[j-1] < k)
		keys = append(keys, k)
	}
	s.rankBuf = keys
	if sorted {
		return nodes
	}
	slices.Sort(keys)
	out := s.sorted[:0]
	for _, k := range keys {
		out = append(out, nodes[uint32(k)])
	}
	s.sorted = out
	return out
}

// early sets s.order to rest with the head placed right after its source
// (position src in rest, -1 for init) and the events its thread's last
// event (position last) depends on moved up before it; it reports whether
// that is a witness.
func (s *rfSMC) early(rest, head []rfNode, src, last int) bool {
	need := make([]bool, len(rest))
	if last >= 0 {
		id := rest[last].ev.ID()
		row := s.h.row(s.h.At[id.Thread][id.Index])
		for j := src + 1; j <= last; j++ {
			if jd := rest[j].ev.ID(); int(jd.Index) < len(s.h.At[jd.Thread]) && s.h.before(s.h.At[jd.Thread][jd.Index], row) {
				need[j] = true
			}
		}
	}
	order := append(s.order[:0], rest[:src+1]...)
	for j := src + 1; j < len(rest); j++ {
		if need[j] {
			order = append(order, rest[j])
		}
	}
	order = append(order, head...)
	for j := src + 1; j < len(rest); j++ {
		if !need[j] {
			order = append(order, rest[j])
		}
	}
	s.order = order
	return s.simulate(order)
}

// simulate reports whether order, a sequence of nodes closed under program
// order, executes under SC with every read and acquire finding its source
// last and every failed trylock its source holding the lock: program order, fork and join, lock semantics and RMW atomicity
// included.
func (s *rfSMC) simulate(order []rfNode) bool {
	k := s.h.K
	// The scratch is reused: simulate runs once or twice per proposal.
	count := slices.Grow(s.sim.count[:0], 3*k)[:3*k] // per thread: events, events run, forked
	clear(count)
	s.sim.count = count
	for j := range order {
		count[order[j].ev.Thread]++
	}
	next, forked := count[k:2*k], count[2*k:]
	if s.sim.held == nil {
		s.sim.last = [2]map[program.Loc]program.EventID{{}, {}}
		s.sim.held, s.sim.holder = map[program.Loc]bool{}, map[program.Loc]program.EventID{}
	}
	last := s.sim.last // last write [0] or release [1]
	held := s.sim.held
	holder := s.sim.holder // the acquire holding each held lock
	clear(last[0])
	clear(last[1])
	clear(held)
	clear(holder)
	lastOf := func(e *program.Event) program.EventID {
		if id, ok := last[btoi(e.Kind.IsLock())][e.Loc]; ok {
			return id
		}
		return program.InitID
	}
	for j := range order {
		n := &order[j]
		e := &n.ev
		t := e.Thread
		if e.Index != next[t] || t != 0 && e.Index == 0 && forked[t] == 0 {
			return false
		}
		next[t]++
		switch e.Kind {
		case program.Read:
			if lastOf(e) != n.src {
				return false
			}
			if e.Is(program.RMW) && (j+1 >= len(order) || order[j+1].ev.Thread != t || !order[j+1].ev.Is(program.RMWWrite)) {
				return false
			}
		case program.Write:
			last[0][e.Loc] = e.ID()
		case program.Acquire:
			if held[e.Loc] || lastOf(e) != n.src {
				return false
			}
			held[e.Loc] = true
			holder[e.Loc] = e.ID()
		case program.LockFail:
			// a failed trylock falls in the section of its source
			if !held[e.Loc] || holder[e.Loc] != n.src {
				return false
			}
		case program.Release:
			held[e.Loc] = false
			last[1][e.Loc] = e.ID()
		case program.Fork:
			forked[e.Value] = 1
		case program.Join:
			if c := program.ThreadID(e.Value); next[c] != count[c] {
				return false
			}
		}
	}
	return true
}
