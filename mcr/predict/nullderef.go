package predict

// This file implements null-dereference prediction (the NULL property of
// 001_aa53da3bf10d3f4e.txt Section 3.3): a read marked program.Deref whose
// traced value is not 0 is asked whether it can read 0, every other
// executed read keeping its value. Only traces with values have such
// reads (STD records neither values nor dereferences). Reads are grouped
// by site; a site's queries share the query cap.

import (
	"context"
	"slices"
	"sync"

	"mcr/parallel"
	"mcr/program"
)

// nullSite is what one window knows about one site's dereferenced reads.
type nullSite struct {
	queries int
	reads   int64 // reads shown to read null
	best    int32 // the first such read, -1 if none
	sched   []int32
	capped  bool
}

// nullDerefs asks, for every dereferenced read of w with a non-null value,
// whether it can read null, and merges what it finds into d's result.
func (d *driver) nullDerefs(ctx context.Context, w *window) {
	if !w.values {
		return
	}
	var reads []int32
	pl := poll{ctx: ctx}
	for i := range w.t.Events {
		if pl.stop() {
			return
		}
		if e := &w.t.Events[i]; e.Kind == program.Read && e.Is(program.Deref) && e.Value != 0 && w.site[i] >= 0 && w.global[i] >= w.fresh {
			reads = append(reads, int32(i))
		}
	}
	d.tally.do(func(s *Stats) { s.NullReads += int64(len(reads)) })
	var mu sync.Mutex
	sites := map[int32]*nullSite{}
	limit := d.opts.maxQueries()
	parallel.ForEach(ctx, len(d.workers), len(reads), func(wi, i int) {
		r := reads[i]
		mu.Lock()
		ns := sites[w.site[r]]
		if ns == nil {
			ns = &nullSite{best: -1}
			sites[w.site[r]] = ns
		}
		ok := ns.queries < limit
		if ok {
			ns.queries++
		} else {
			ns.capped = true
		}
		mu.Unlock()
		if !ok {
			return
		}
		v, sched := d.ask(ctx, d.workers[wi], w, readGoal(r, 0))
		mu.Lock()
		defer mu.Unlock()
		switch v {
		case sat:
			ns.reads++
			if ns.best < 0 || r < ns.best {
				ns.best, ns.sched = r, sched
			}
		case unknown:
			ns.capped = true
		}
	})
	ids := make([]int32, 0, len(sites))
	for id := range sites {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		ns := sites[id]
		if ns.best < 0 {
			if ns.capped {
				d.incomplete("null-dereference queries left undecided (cap or timeout)")
			}
			continue
		}
		site := w.sites[id]
		nd := d.nulls[site]
		if nd == nil {
			rctx := d.reportCtx(ctx) // as in collect
			if rctx.Err() != nil {
				continue
			}
			wit, ok := d.finishWitness(rctx, w, ns.sched, readGoal(ns.best, 0))
			if !ok {
				continue
			}
			nd = &NullDeref{Site: site, Read: w.step(ns.best), Witness: wit}
			d.nulls[site] = nd
		}
		nd.Reads += ns.reads
		nd.AtLeast = nd.AtLeast || ns.capped
	}
}
