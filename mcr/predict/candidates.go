package predict

// This file implements the candidate pairs of a window: conflicting
// accesses of different threads (same location, at least one write, not
// both atomic; program.Conflicts) that must-happen-before does not order
// (they could never be adjacent) and that do not both hold a common lock
// (they could never be enabled together), 001_aa53da3bf10d3f4e.txt
// Section 3.3. Pairs come location by location, closest first in the
// location's access order, because close pairs are the likeliest to race
// and a location pair needs only one witness.

import (
	"context"
	"slices"

	"mcr/program"
)

// pairGen enumerates the pairs of one location's accesses (positions in
// trace order) by increasing distance in that list.
type pairGen struct {
	acc  []int32
	d, i int
}

func (g *pairGen) next() (a, b int32, ok bool) {
	for g.d < len(g.acc) {
		if g.i+g.d < len(g.acc) {
			a, b = g.acc[g.i], g.acc[g.i+g.d]
			g.i++
			return a, b, true
		}
		g.d++
		g.i = 0
	}
	return 0, 0, false
}

// pruning counts what the candidate filter saw.
type pruning struct {
	pairs, mhb, lockset int64
}

// candidates fills out with up to n candidate pairs from gen, counting the
// pairs it looks at in pr; more is false once gen is exhausted. Most pairs
// of a long trace can be pruned, so filling one chunk may look at billions:
// it stops early (more true) when ctx is done.
func (w *window) candidates(ctx context.Context, gen *pairGen, out [][2]int32, n int, pr *pruning) (_ [][2]int32, more bool) {
	ev := w.t.Events
	pl := poll{ctx: ctx}
	for len(out) < n {
		if pl.stop() {
			return out, true
		}
		a, b, ok := gen.next()
		if !ok {
			return out, false
		}
		if !program.Conflicts(&ev[a], &ev[b]) || w.global[b] < w.fresh {
			continue // b before fresh: both in the overlap, the window before's pair
		}
		pr.pairs++
		switch {
		case w.hb.Before(int(a), int(b)):
			pr.mhb++
		case commonLock(w.held[a], w.held[b]):
			pr.lockset++
		default:
			out = append(out, [2]int32{a, b})
		}
	}
	return out, true
}

func commonLock(a, b []program.Loc) bool {
	for _, l := range a {
		if slices.Contains(b, l) {
			return true
		}
	}
	return false
}

// sortedLocs returns the window's accessed locations in increasing order.
func (w *window) sortedLocs() []program.Loc {
	out := make([]program.Loc, 0, len(w.locs))
	for l := range w.locs {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}
