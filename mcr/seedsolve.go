package mcr

// This file answers the queries of ExploreSeeds (mcr.go): per batch, in
// parallel across nodes, each node's queries in order on its own
// deciders, with a fallback decider when the main one fails.

import (
	"context"
	"fmt"
	"slices"
	"time"

	"mcr/parallel"
	"mcr/program"
)

// solveBatch answers the queries of one batch, in parallel across nodes.
// A node's queries run in order on fresh deciders, so that a solver's
// answer cannot depend on which queries the same context saw before (Z3
// models do). Seed queries whose children would have the same map form a
// group: only the first is asked, and the next one only if no earlier one
// gave the child that map, in rounds; the others are skipped (counted as
// duplicates avoided in merge). The rounds depend only on the answers,
// never on timing, so the result does not depend on the number of workers.
func (e *explorer) solveBatch(ctx context.Context, nodes int, qs []*query) {
	type group struct {
		key  string
		qs   []*query
		next int
	}
	groups := map[string]*group{}
	var active []*group // groups that may still ask, in order of creation
	join := func(q *query) {
		gk := q.key
		if e.clean && !q.relaxed && !q.relaxing && q.key != "" {
			// a child's sleep set depends on its parent and elder
			// siblings: another node's child need not cover it
			gk += fmt.Sprintf("#%d", q.node)
		}
		g := groups[gk]
		if g == nil {
			g = &group{key: q.key}
			groups[gk] = g
			active = append(active, g)
		} else if g.next == len(g.qs) {
			active = append(active, g) // exhausted earlier, asks again
		}
		g.qs = append(g.qs, q)
	}
	for _, q := range qs {
		if !q.dup {
			join(q)
		}
	}
	for ctx.Err() == nil && len(active) > 0 {
		byNode := make([][]*query, nodes)
		var asked []*query
		still := active[:0]
		for _, g := range active {
			n := 1
			if g.key == "" { // race and deadlock queries: all at once
				n = len(g.qs)
			} else if g.next > 0 && g.qs[g.next-1].gaveKey() {
				g.next = len(g.qs) // done: the rest are duplicates
				continue
			}
			for ; n > 0 && g.next < len(g.qs); n-- {
				q := g.qs[g.next]
				g.next++
				q.asked = true
				byNode[q.node] = append(byNode[q.node], q)
				asked = append(asked, q)
			}
			if g.next < len(g.qs) {
				still = append(still, g)
			}
		}
		active = still
		if len(asked) == 0 {
			return
		}
		var busy []int // the nodes with queries this round
		for i, l := range byNode {
			if len(l) > 0 {
				busy = append(busy, i)
			}
		}
		parallel.ForEach(ctx, e.workers, len(busy), func(_, i int) {
			ds := &deciders{e: e}
			defer ds.close()
			for _, q := range byNode[busy[i]] {
				ds.solve(ctx, q)
			}
		})
		// A seed unsatisfiable with the node's fixed reads is asked again
		// relaxed (see query.relax), in the group of the relaxed map.
		for _, q := range asked {
			// While clean, it is asked even if its map is known: whether
			// it exists decides cleanliness (see explorer.clean).
			// Another node with the relaxed map is no reason to skip it
			// (see queries); finished executions that cover it are.
			if q.relax && !q.relaxing && q.err == nil && !q.ans.Sat && (e.clean || !q.relaxDone) {
				q.relaxing, q.asked, q.key = true, false, ""
				join(q)
			}
		}
	}
}

// deciders are the main and fallback deciders one node's queries use.
type deciders struct {
	e              *explorer
	main, fallback program.SeedDecider
	triedMain      bool
	triedFallback  bool
}

func (ds *deciders) close() {
	for _, d := range []program.SeedDecider{ds.main, ds.fallback} {
		if c, ok := d.(interface{ Close() }); ok && d != nil {
			c.Close()
		}
	}
}

// get returns the main or fallback decider, creating it on first use.
func (ds *deciders) get(fallback bool) program.SeedDecider {
	slot, tried, mk := &ds.main, &ds.triedMain, ds.e.opts.NewDecider
	if fallback {
		slot, tried, mk = &ds.fallback, &ds.triedFallback, ds.e.opts.NewFallback
	}
	if !*tried && mk != nil {
		*tried = true
		d, err := mk()
		if err != nil {
			if !fallback {
				ds.e.mu.Lock()
				if ds.e.initErr == nil {
					ds.e.initErr = err
				}
				ds.e.mu.Unlock()
			}
			return nil
		}
		*slot = d
	}
	return *slot
}

// solve answers q, relaxing a seed query when needed (see query.relax).
func (ds *deciders) solve(ctx context.Context, q *query) {
	start := time.Now()
	defer func() { q.dur += time.Since(start) }()
	if q.relaxing { // see query.relax
		q.q.Fixed, q.steer, q.relaxed = nil, nil, true
	}
	ds.ask(ctx, q)
	if q.relaxed && q.err == nil && q.ans.Sat {
		if !q.relaxDone { // else no child is needed (see query.relaxDone)
			ds.relaxedKids(ctx, q)
		}
		return
	}
	if len(q.steer) > 0 && q.err == nil && q.ans.Sat {
		// Steered only once satisfiable: most seeds are not, and they
		// need one query then, not two.
		st := *q
		st.q.Fixed = q.steer
		ds.ask(ctx, &st)
		if st.err == nil && st.ans.Sat {
			q.ans, q.by = st.ans, st.by
		}
	}
}

// ask answers q with the main decider, or the fallback when it fails.
func (ds *deciders) ask(ctx context.Context, q *query) {
	if d := ds.get(false); d != nil {
		q.ans, q.err = program.Checked(ctx, program.SeedKind, d, q.q)
		q.by = d.Name()
		if q.err == nil {
			return
		}
	}
	if d := ds.get(true); d != nil {
		q.ans, q.err = program.Checked(ctx, program.SeedKind, d, q.q)
		q.by = d.Name() + " (fallback)"
	}
}

// relaxedKids gives a satisfiable relaxed seed q (read r, value v, asked
// without the node's map M) its children: one per maximal subset K of the
// fixed reads q.cands that a seed for r = v can keep, with the map
// K ∪ past(r) ∪ {r = v}. The fully relaxed child (K = ∅, Huang's
// Φ_seed) loses outcomes; this is why.
//
// A node N with map M must reach every execution E' of its space S(M)
// (the executions that give M's reads their values). Take the first read
// r, in E' order, whose value v differs from N's trace; E' before r runs
// events of N's trace with its values. If a fixed read comes after r in
// E', no seed ending at r keeps M and the seed is relaxed. E' then lies in
// the child's space whatever part K of M the child keeps, so the claim for
// N rests on the claim for the child; but which node makes that claim
// good is decided by map only (explorer.covers), and the claims must not
// rest on each other in a circle. Measure a map against E' by its reads
// in E' order, lexicographically (a read in the map beats one that is
// not). A seed keeping M adds r and beats M. A relaxed child beats M if K
// holds B, the fixed reads before r in E' (r is not in M, and it is in the
// child's map); with K = ∅ it need not, and on
// testdata/c/mcrseeds_outcomes.c four nodes delegated the same missed
// execution around a circle ({T0.1#2=2} -> {T0.0#1=0} -> {T0.0#1=0,
// T0#4=4} -> {T0.0#1=0, T0.0#2=0, T0#4=4} -> relaxed to {T0.1#2=2}).
// B is unknown, but E' before r is a seed that keeps it, so B is within
// a maximal satisfiable subset of q.cands, and the children of all of
// them cover every such E'. A seed relaxed at once (a fixed read causally
// after r) usually keeps all of q.cands: one query, one child. Otherwise
// each read that can come before r on its own is found (a query each),
// and the maximal satisfiable subsets of those are enumerated from the
// top (usually they fit together: one more query).
func (ds *deciders) relaxedKids(ctx context.Context, q *query) {
	q.kids = []relaxedKid{{q: q.q, ans: q.ans}}
	if len(q.cands) == 0 {
		return
	}
	asked := 0
	try := func(keep []int32) (program.SeedQuery, program.SeedAnswer, bool) {
		t := *q
		t.q.Fixed, t.steer = keep, nil
		ds.ask(ctx, &t)
		asked++
		if t.err != nil && q.err == nil {
			q.err = t.err
		}
		return t.q, t.ans, t.err == nil && t.ans.Sat
	}
	// A seed relaxed only after it failed with the whole map (q.relax)
	// has q.cands = the map: known unsatisfiable as a whole. One relaxed
	// at once (a fixed read causally after r) has fewer, which usually fit.
	if !q.relax {
		if tq, a, ok := try(q.cands); ok {
			q.kids = []relaxedKid{{keep: q.cands, q: tq, ans: a}}
			return
		}
	}
	var single []int32
	for _, f := range q.cands {
		if _, _, ok := try([]int32{f}); ok {
			single = append(single, f)
		}
	}
	if len(single) == 0 || q.err != nil {
		q.subsetQueries = asked
		return // only the fully relaxed child
	}
	// Maximal satisfiable subsets of single, from the top: a set is
	// asked only if no satisfiable set found so far contains it.
	var found []relaxedKid
	seen := map[string]bool{}
	var visit func(s []int32)
	visit = func(s []int32) {
		k := fmt.Sprint(s)
		if seen[k] || q.err != nil {
			return
		}
		if asked > maxSubsetQueries {
			// Stop rather than give a child that may miss executions:
			// the search is then incomplete (explorer.count).
			q.err = fmt.Errorf("relaxed seed: more than %d queries for the maximal subsets of %d fixed reads", maxSubsetQueries, len(single))
			return
		}
		seen[k] = true
		for _, f := range found {
			if isSubset(s, f.keep) {
				return
			}
		}
		if len(s) == 1 { // satisfiable on its own
			found = append(found, relaxedKid{keep: s})
			return
		}
		if tq, a, ok := try(s); ok {
			found = append(found, relaxedKid{keep: s, q: tq, ans: a})
			return
		}
		for i := range s {
			visit(append(append([]int32(nil), s[:i]...), s[i+1:]...))
		}
	}
	visit(single)
	q.kids = q.kids[:0]
	for i, f := range found {
		maximal := true
		for j, g := range found {
			if i != j && len(g.keep) > len(f.keep) && isSubset(f.keep, g.keep) {
				maximal = false
			}
		}
		if !maximal {
			continue
		}
		if f.ans.Schedule == nil { // a single read, asked above: ask again for its schedule
			f.q, f.ans, _ = try(f.keep)
		}
		q.kids = append(q.kids, f)
	}
	q.subsetQueries = asked
}

// maxSubsetQueries bounds the queries relaxedKids asks for one seed when
// the fixed reads that fit on their own do not fit together.
const maxSubsetQueries = 4096

// isSubset reports whether every element of a is in b.
func isSubset(a, b []int32) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
