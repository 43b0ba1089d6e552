package predict

// This file implements what one window knows about its location pairs:
// which events are known to race (and with an earlier event), the witness
// of each pair, and the queries asked. Workers share it under one mutex.

import "sync"

// Per-event flags within a location pair.
const (
	racyFlag  uint8 = 1 << iota // races with some event of the pair
	laterFlag                   // races with an earlier event of the pair
)

// proof is a schedule showing a race or null read: the window's first
// prefix events in trace order followed by sched (positions, targets
// last), or by the targets when sched is nil.
type proof struct {
	prefix int32
	sched  []int32
}

// length is the number of steps of the schedule, targets included.
func (p proof) length() int64 {
	if p.sched != nil {
		return int64(p.prefix) + int64(len(p.sched))
	}
	return int64(p.prefix) + 2
}

func (p proof) schedule(g goal) []int32 {
	if p.sched != nil && p.prefix == 0 {
		return p.sched
	}
	tail := p.sched
	if tail == nil {
		tail = g.targets()
	}
	out := make([]int32, 0, int(p.prefix)+len(tail))
	for i := int32(0); i < p.prefix; i++ {
		out = append(out, i)
	}
	return append(out, tail...)
}

// group is one location pair of a window.
type group struct {
	sites   [2]int32
	flags   map[int32]uint8
	best    goal // the witnessed pair; race[0] < 0 if none
	proof   proof
	queries int  // decider queries asked while it had no witness
	counts  int  // decider queries asked since
	capped  bool // candidates were left undecided
}

func (g *group) found() bool { return g.best.race[0] >= 0 }

// knowledge is the shared state of one window's analysis.
type knowledge struct {
	mu     sync.Mutex
	w      *window
	groups map[[2]int32]*group
	flags  []uint8 // per event, over all pairs
}

func newKnowledge(w *window) *knowledge {
	return &knowledge{w: w, groups: map[[2]int32]*group{}, flags: make([]uint8, len(w.t.Events))}
}

// pairKey orders the sites of a and b.
func (k *knowledge) pairKey(a, b int32) [2]int32 {
	s, t := k.w.site[a], k.w.site[b]
	if k.w.sites[t].less(k.w.sites[s]) {
		s, t = t, s
	}
	return [2]int32{s, t}
}

// group returns the group of key, creating it; call with mu held.
func (k *knowledge) group(key [2]int32) *group {
	g := k.groups[key]
	if g == nil {
		g = &group{sites: key, flags: map[int32]uint8{}, best: goal{race: [2]int32{-1, -1}, read: -1}}
		k.groups[key] = g
	}
	return g
}

// known reports whether pair (a, b), a < b, can teach nothing new: a is
// known to race and b to race with an earlier event, within their pair.
func (k *knowledge) known(a, b int32) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	g := k.groups[k.pairKey(a, b)]
	return g != nil && g.flags[a]&racyFlag != 0 && g.flags[b]&laterFlag != 0
}

// race records that a and b (a < b) race, shown by pr. Of the pairs found,
// a location pair keeps the one that completes first in trace order
// (smallest b, then a), so that reports do not depend on timing.
func (k *knowledge) race(a, b int32, pr proof) {
	k.mu.Lock()
	defer k.mu.Unlock()
	g := k.group(k.pairKey(a, b))
	g.flags[a] |= racyFlag
	g.flags[b] |= racyFlag | laterFlag
	k.flags[a] |= racyFlag
	k.flags[b] |= racyFlag | laterFlag
	if !g.found() || b < g.best.race[1] || b == g.best.race[1] && a < g.best.race[0] {
		g.best, g.proof = raceGoal(a, b), pr
	}
}

// startQuery counts a decider query for pair (a, b) against the cap of
// its location pair: witness while it has no witness, else count. ok
// false means the cap is reached: the pair stays undecided; counting says
// which cap (the count cap: its location pair has a witness).
func (k *knowledge) startQuery(a, b int32, witness, count int) (ok, counting bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	g := k.group(k.pairKey(a, b))
	n, limit := &g.queries, witness
	if g.found() {
		n, limit = &g.counts, count
	}
	if *n >= limit {
		g.capped = true
		return false, g.found()
	}
	*n++
	return true, g.found()
}

// undecided marks pair (a, b) as left undecided.
func (k *knowledge) undecided(a, b int32) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.group(k.pairKey(a, b)).capped = true
}
