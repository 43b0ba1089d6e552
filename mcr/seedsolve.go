package mcr

// This file answers the queries of ExploreSeeds (mcr.go): per batch, in
// parallel across nodes, each node's queries in order on its own
// deciders, with a fallback decider when the main one fails.

import (
	"context"
	"fmt"
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
			if q.relax && !q.relaxing && q.err == nil && !q.ans.Sat && (q.noProbe || !e.covers(q.relaxKey, nil)) {
				q.relaxing, q.asked, q.key = true, false, q.relaxKey
				join(q)
			}
		}
	}
}

// gaveKey reports whether q's answer gave the child the map q.key names.
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
		e := &q.q.Trace.Events[q.q.Read]
		probe := *q
		probe.q.Continue = true
		q.q.Fixed, q.steer, q.relaxed = nil, nil, true
		if e.Is(program.RMW) || program.WritesAtTarget(e, q.q.Value) {
			ds.ask(ctx, q)
			return
		}
		if q.noProbe {
			// While clean, whether the relaxed seed exists decides
			// cleanliness (see explorer.clean); the probe still decides
			// whether it makes a child.
			ds.ask(ctx, q)
			if q.err != nil || !q.ans.Sat {
				return
			}
			q.unclean = true
		}
		ds.ask(ctx, &probe)
		if probe.err != nil || !probe.ans.Sat {
			q.ans, q.err = program.SeedAnswer{}, probe.err
			return
		}
		if q.noProbe {
			return // the relaxed answer is there already
		}
	}
	ds.ask(ctx, q)
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
