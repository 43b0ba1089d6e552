package mcr

// This file lists the queries of one node of ExploreSeeds (mcr.go): a seed
// for every read outside the node's map and every new value it could read
// (seed 001 Algorithm 2), the race queries of its conflicting accesses
// (seed 001 Section 3.3) and the deadlock queries of its lock-order
// inversions.

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"mcr/encode"
	"mcr/program"
	"mcr/program/explore"
)

// queries lists the seed, race and deadlock queries of node n, and counts
// the seeds left out because another node has the child's map already.
func (e *explorer) queries(ctx context.Context, ni int, n *node) (qs []*query, duplicates int) {
	tr := n.mcm.T
	m := n.mcm
	ev := tr.Events
	pos := map[program.EventID]int32{}
	for i := range ev {
		pos[ev[i].ID()] = int32(i)
	}
	n.pos = pos
	var fixed []int32
	for id := range n.fixed {
		if p, ok := pos[id]; ok {
			fixed = append(fixed, p)
		}
	}
	sort.Slice(fixed, func(a, b int) bool { return fixed[a] < fixed[b] })
	isFixed := make([]bool, len(ev))
	for _, f := range fixed {
		isFixed[f] = true
	}
	// steer: reads whose seeds sleep or are elder siblings' (see
	// query.steer), with the values they have here
	var steer []int32
	if e.clean {
		for _, z := range n.sleep {
			if p, ok := pos[z.read]; ok && ev[p].Value != z.value && !isFixed[p] && !slices.Contains(steer, p) {
				steer = append(steer, p)
			}
		}
	}
	// seeds: every read outside the map, every new value on its location
	held := locksets(tr)
	seals := lockSeals(tr, held)
	shadowed := lockShadowed(tr, held)
	for r := range ev {
		r32 := int32(r)
		if ev[r].Kind != program.Read || isFixed[r] {
			continue
		}
		// Flipping r cannot keep a fixed read that comes causally after it:
		// ask Huang's Φ_seed right away then (see query.relax).
		need := fixed
		for _, f := range fixed {
			if m.Before(r32, f) {
				need = nil
				break
			}
		}
		relaxed := len(need) == 0 && len(fixed) > 0
		// The fixed reads a relaxed child may keep (see
		// deciders.relaxedKids): those not causally after r.
		var cands []int32
		for _, f := range fixed {
			if !m.Before(r32, f) {
				cands = append(cands, f)
			}
		}
		if ctx.Err() != nil { // per read: newValues is O(visible writes)
			return qs, duplicates // cut: the caller sees ctx and stops
		}
		vs := newValues(tr, m, r32, held, seals[r], shadowed)
		if len(vs) == 0 {
			continue // most reads of a long run: nothing to flip, no causal past to key
		}
		past := ""
		if e.clean {
			past = mapKey(tr, pastReads(m, r32))
		}
		sleep := n.sleep // the child's will contain n's
		if relaxed {
			sleep = nil
		}
		for _, v := range vs {
			if e.clean && asleep(n.sleep, ev[r].ID(), v, past) {
				n.slept++
				continue
			}
			deref := v == 0 && ev[r].Is(program.Deref)
			q := program.NewSeedQuery(tr, need)
			q.Read, q.Value = r32, v
			// The child's map is known before the query is solved: if
			// another node has it already, the query is moot. A relaxed
			// child's map is not (it depends on which fixed reads the
			// decider can keep, see deciders.relaxedKids), and another
			// node with a smaller map is no proof that its space is
			// covered (that node's coverage may rest on this one's);
			// only the classes of finished executions are (classes.covers
			// needs no induction), and their cover of the smallest map a
			// relaxed child can have covers them all.
			cm := childMap(n.fixed, m, r32, v, nil)
			rm := childMap(n.fixed, m, r32, v, dropAll)
			relaxDone := e.done.covers(rm, n.freeFor(r32))
			moot := !relaxed && (e.covers(mapKey(tr, cm), sleep) || e.done.covers(cm, n.freeFor(r32))) || relaxed && relaxDone
			if moot && !(relaxed && e.clean) { // see explorer.clean
				duplicates++
				qs = append(qs, &query{node: ni, kind: qSeed, q: q, dup: true, past: past})
				continue
			}
			key := mapKey(tr, cm)
			if relaxed {
				key = "" // see solveBatch
			}
			sq := &query{node: ni, kind: qSeed, q: q, deref: deref, relax: len(need) > 0, relaxed: relaxed, key: key, past: past,
				cands: cands, relaxDone: relaxDone}
			if e.clean && !relaxed {
				sq.steer = steered(m, need, steer, r32)
			}
			qs = append(qs, sq)
		}
		if e.clean && len(qs) > 0 && qs[len(qs)-1].q.Read == r32 && !slices.Contains(steer, r32) {
			steer = append(steer, r32)
		}
	}
	if !n.requery { // asked when it was executed
		if e.opts.Reports(explore.KindRace) {
			qs = append(qs, e.raceQueries(ni, tr, m, held)...)
		}
		// deadlock queries also lead to the deadlocked executions, which
		// are explored whether deadlocks are reported or not
		qs = append(qs, deadlockQueries(ni, tr, m, held)...)
	}
	return qs, duplicates
}

// visibleTo calls f for the writes read r of m's trace may read from
// (program.WriteIndex.Visible over must-happen-before) and reports whether
// the initial value is visible.
func visibleTo(m *encode.MCM, r int32, f func(w int32)) (initVisible bool) {
	ix := m.WriteIndex[m.T.Events[r].Loc]
	if ix == nil {
		return true // no write of the location
	}
	return ix.Visible(r, m.Before, f)
}

// newValues lists, in increasing order, the values other than r's own that
// the writes visible to r (program.VisibleWrites) or a visible initial
// value provide, leaving out the writes of other threads made under a lock
// of seals (r's lockSeals; held is locksets(tr)) and those shadowed
// (lockShadowed) under a lock r holds.
func newValues(tr *program.Trace, m *encode.MCM, r int32, held [][]program.Loc, seals []program.Loc, shadowed [][]program.Loc) []int64 {
	ev := tr.Events
	seen := map[int64]bool{ev[r].Value: true}
	var vs []int64
	add := func(v int64) {
		if !seen[v] {
			seen[v] = true
			vs = append(vs, v)
		}
	}
	// Only visible writes (program.VisibleWrites): a write hidden by
	// another in must-happen-before order can never be read. Without this
	// a thread that writes x n times made O(n) seeds for each of its n
	// reads (issue 13: a 2,000-iteration loop ran out of memory).
	if visibleTo(m, r, func(w int32) {
		if ev[w].Thread != ev[r].Thread && (commonLock(seals, held[w]) || commonLock(held[r], shadowed[w])) {
			return // hidden by a write of a critical section (lockSeals, lockShadowed)
		}
		add(ev[w].Value)
	}) {
		add(tr.InitValue(ev[r].Loc))
	}
	sort.Slice(vs, func(a, b int) bool { return vs[a] < vs[b] })
	return vs
}

// maxPairsPerLocation caps the event pairs tried per source-location pair
// and trace: one witness per location pair is all a report needs.
const maxPairsPerLocation = 4

// raceQueries lists candidate races: conflicting accesses of different
// threads, not both atomic, not ordered by MHB, not under a common lock,
// whose location pair has no race reported yet. held is locksets(tr).
func (e *explorer) raceQueries(ni int, tr *program.Trace, m *encode.MCM, held [][]program.Loc) []*query {
	ev := tr.Events
	tried := map[string]int{}
	var qs []*query
	for _, acc := range sortedLocs(m.Accesses) {
		as := m.Accesses[acc]
		for x := 0; x < len(as); x++ {
			for y := x + 1; y < len(as); y++ {
				a, b := as[x], as[y]
				if !program.Conflicts(&ev[a], &ev[b]) || m.Before(a, b) || m.Before(b, a) || commonLock(held[a], held[b]) {
					continue
				}
				key := raceKey(tr, a, b)
				if e.raced[key] || tried[key] >= maxPairsPerLocation {
					continue
				}
				tried[key]++
				q := program.NewSeedQuery(tr, nil)
				q.Race = [2]int32{a, b}
				qs = append(qs, &query{node: ni, kind: qRace, q: q})
			}
		}
	}
	return qs
}

func sortedLocs(m map[program.Loc][]int32) []program.Loc {
	out := make([]program.Loc, 0, len(m))
	for l := range m {
		out = append(out, l)
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

// locksets returns the locks each event's thread holds when it executes.
func locksets(tr *program.Trace) [][]program.Loc {
	out := make([][]program.Loc, len(tr.Events))
	cur := map[program.ThreadID][]program.Loc{}
	for i, e := range tr.Events {
		out[i] = cur[e.Thread]
		switch e.Kind {
		case program.Acquire:
			cur[e.Thread] = append(append([]program.Loc(nil), cur[e.Thread]...), e.Loc)
		case program.Release:
			var rest []program.Loc
			for _, l := range cur[e.Thread] {
				if l != e.Loc {
					rest = append(rest, l)
				}
			}
			cur[e.Thread] = rest
		}
	}
	return out
}

// lockSeals returns, for each read of tr, the locks that seal it: locks its
// thread holds since an acquire after which it wrote the read's location,
// before the read (nil for the other events). Such a read r cannot read a
// write w another thread made holding one of them L, in any execution in
// which both keep their causal pasts (as a seed's witness does): the two
// critical sections of L exclude each other and r's lasts until r, so w
// comes before r's acquire and r's own write hides it. Without this every
// read of a long critical section made a seed per other section's value
// (issue 17: 1,000 increments under one mutex in two threads timed out).
func lockSeals(tr *program.Trace, held [][]program.Loc) [][]program.Loc {
	type tl struct {
		t program.ThreadID
		l program.Loc
	}
	acquired := map[tl]int32{}  // the thread's current acquire of the lock
	lastWrite := map[tl]int32{} // the thread's last write of the location
	out := make([][]program.Loc, len(tr.Events))
	for i := range tr.Events {
		e := &tr.Events[i]
		switch {
		case e.Kind == program.Acquire:
			acquired[tl{e.Thread, e.Loc}] = int32(i)
		case e.Kind == program.Write:
			lastWrite[tl{e.Thread, e.Loc}] = int32(i)
		case e.Kind == program.Read:
			w, ok := lastWrite[tl{e.Thread, e.Loc}]
			if !ok {
				continue
			}
			for _, l := range held[i] {
				if a, ok := acquired[tl{e.Thread, l}]; ok && a < w {
					out[i] = append(out[i], l)
				}
			}
		}
	}
	return out
}

// lockShadowed returns, for each write w of tr, the locks L under which it
// is shadowed: its thread writes w's location again later in the same
// critical section of L, which tr closes (nil for the other events). A read
// r of another thread holding L cannot read w in the maximal causal model
// of tr: r's section and w's exclude each other and r's lasts until r, so
// w's section ends before r's begins, and its release brings the later
// write (with its causal past) in between. Without this the first read of
// a critical section made a seed for every intermediate value of another
// section (issue 17).
func lockShadowed(tr *program.Trace, held [][]program.Loc) [][]program.Loc {
	type key struct {
		t program.ThreadID
		l program.Loc
	}
	type tll struct {
		t    program.ThreadID
		lock program.Loc
		loc  program.Loc
	}
	last := map[tll]int32{}    // the section's last write of the location
	pending := map[key][]tll{} // locations written in the thread's open section
	marks := map[key][]int32{} // writes shadowed if the section closes
	out := make([][]program.Loc, len(tr.Events))
	for i := range tr.Events {
		e := &tr.Events[i]
		switch e.Kind {
		case program.Write:
			for _, l := range held[i] {
				k := tll{e.Thread, l, e.Loc}
				if w, ok := last[k]; ok {
					marks[key{e.Thread, l}] = append(marks[key{e.Thread, l}], w)
				} else {
					pending[key{e.Thread, l}] = append(pending[key{e.Thread, l}], k)
				}
				last[k] = int32(i)
			}
		case program.Release:
			k := key{e.Thread, e.Loc}
			for _, w := range marks[k] {
				out[w] = append(out[w], e.Loc)
			}
			for _, x := range pending[k] {
				delete(last, x)
			}
			delete(marks, k)
			delete(pending, k)
		}
	}
	return out
}

func commonLock(a, b []program.Loc) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

func posLess(a, b program.Pos) bool { return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col }

func raceKey(tr *program.Trace, a, b int32) string {
	pa, pb := tr.Events[a].Pos, tr.Events[b].Pos
	if posLess(pb, pa) {
		pa, pb = pb, pa
	}
	return fmt.Sprintf("%s|%s", pa, pb)
}

// deadlockQueries lists lock-order inversions: an acquire of l2 by a
// thread holding l1 and an acquire of l1 by another thread holding l2. The
// query asks for a prefix after which both acquires are the threads' next
// events; from there no continuation can proceed. held is locksets(tr).
func deadlockQueries(ni int, tr *program.Trace, m *encode.MCM, held [][]program.Loc) []*query {
	ev := tr.Events
	var acqs []int32
	for i := range ev {
		if ev[i].Kind == program.Acquire && len(held[i]) > 0 {
			acqs = append(acqs, int32(i))
		}
	}
	var qs []*query
	for x := 0; x < len(acqs); x++ {
		for y := x + 1; y < len(acqs); y++ {
			a, b := acqs[x], acqs[y]
			if ev[a].Thread == ev[b].Thread || ev[a].Loc == ev[b].Loc || m.Before(a, b) || m.Before(b, a) {
				continue
			}
			if contains(held[a], ev[b].Loc) && contains(held[b], ev[a].Loc) {
				q := program.NewSeedQuery(tr, nil)
				q.Race = [2]int32{a, b}
				qs = append(qs, &query{node: ni, kind: qDeadlock, q: q})
			}
		}
	}
	return qs
}

func contains(ls []program.Loc, l program.Loc) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}
