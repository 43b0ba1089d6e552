package explicit

// This file implements what RVF-SMC's calls (rvfsmc.go, seed 000
// Algorithm 2) know of their σ̃ beyond its events: its schedule with and
// without RMW write halves and its must-happen-before order (syncOrder),
// built in O(|σ̃|) by every call (issue 17: a fifth of rvf's time on
// lastzero N=11, 69,544 calls for 7,168 executions, each of 66 events).
//
// Most calls run σ̃∘r of their parent (the auxiliary trace, gone on from
// the parent's execution, or run again from the start), so their σ̃
// extends the parent's: its schedules and orders are the parent's with
// the new events appended. A child extends its parent's view (extend) in
// O(threads + new events), appending to the parent's arrays in place: the
// parent's view keeps its lengths, and what lies beyond them belongs to
// whichever descendant wrote it last. That is sound as long as a view is
// used only while no view extending it from another child exists, which
// depth-first order on one goroutine gives: a child's subtree is done
// before its parent's next child starts. So a view is handed to a child
// only when the child runs on the parent's goroutine (descend); a child in
// a node of its own (another worker, or later) builds its own. A resumed
// level (rvfsmc_steps.go) takes a prefix of the deepest view of its call
// (prefix): every view written after that view was made extends a view at
// least as long as the level's, so the level's part is intact.

import (
	"sort"

	"mcr/program"
	"mcr/program/explore"
)

// rvfTrace is a call's σ̃ (tr) with its schedule (guide), its schedule
// without RMW write halves (plain, as witnesses come) and its
// must-happen-before order (h). guide and plain may have capacity beyond
// their length that an extending view writes to: hand out views (sched).
type rvfTrace struct {
	tr           *program.Trace
	h            *syncOrder
	guide, plain program.Schedule
	// base is P0 of tr (rvfsmc_closure.go), once a query needed it
	// (baseOf); up is the base of the view this one extends, if it had
	// one when this view was made.
	base, up *rvfBase
	slab     *viewSlab // where the views extending this one are cut from
	// try says whether tr has a trylock (explore.IsTrylock), for steps'
	// trylockScan, which looked at every event of σ̃ in every call
	// (lastzero: as much as a seventh of the views' cost).
	try bool
}

// viewSlab hands out the small parts of views (the view, its order, their
// per-thread headers) from chunks: a call's view cost five allocations,
// half of what the views save (lastzero N=11, issue 17). Its views are
// extended on one goroutine only (see the file comment), so it needs no
// lock; a chunk lives as long as any view cut from it.
type viewSlab struct {
	objs []viewObj
	hdr  [][]int32
	pts  [][]syncPt
	ints []int32
}

type viewObj struct {
	v rvfTrace
	h syncOrder
}

const slabViews = 32 // views per chunk

// view returns a zeroed view and order with per-thread arrays of k
// entries (Fork zero: the caller fills it).
func (a *viewSlab) view(k int) (*rvfTrace, *syncOrder) {
	if len(a.objs) == 0 {
		a.objs = make([]viewObj, slabViews)
	}
	if len(a.hdr) < k {
		a.hdr = make([][]int32, slabViews*k)
		a.pts = make([][]syncPt, slabViews*k)
	}
	o := &a.objs[0]
	a.objs = a.objs[1:]
	h := &o.h
	h.K = k
	h.At, a.hdr = a.hdr[:k:k], a.hdr[k:]
	h.pts, a.pts = a.pts[:k:k], a.pts[k:]
	h.Fork = a.clock(k)
	o.v.h, o.v.slab = h, a
	return &o.v, h
}

// clock returns a zeroed clock of k entries.
func (a *viewSlab) clock(k int) []int32 {
	if len(a.ints) < k {
		a.ints = make([]int32, slabViews*k)
	}
	c := a.ints[:k:k]
	a.ints = a.ints[k:]
	return c
}

// newRVFTrace builds the view of tr from scratch, with room for the
// events its descendants append (what newSyncOrder gives a call that
// extends no view).
func newRVFTrace(tr *program.Trace, a *viewSlab) *rvfTrace {
	k := len(tr.Threads)
	for i := range tr.Events {
		k = max(k, int(tr.Events[i].Thread)+1)
	}
	if k != len(tr.Threads) { // events of threads tr does not name: no view extends it
		v := &rvfTrace{tr: tr, h: newSyncOrder(tr), guide: tr.Schedule(), slab: a}
		for i := range tr.Events {
			if !tr.Events[i].Is(program.RMWWrite) {
				v.plain = append(v.plain, tr.Events[i].ID())
			}
			v.try = v.try || explore.IsTrylock(&tr.Events[i])
		}
		return v
	}
	n := len(tr.Events)
	room := n + 16 // for the events of the calls below
	ids := make(program.Schedule, 0, 2*room)
	count := make([]int32, k)
	for i := range tr.Events {
		count[tr.Events[i].Thread]++
	}
	at := make([]int32, 0, n+k*8)
	v, h := a.view(k)
	for t := range k {
		c := int(count[t]) + 8
		h.At[t], at = at[:0:c], at[c:c:cap(at)]
		h.Fork[t] = -1
	}
	v.tr, v.guide, v.plain = &program.Trace{Threads: tr.Threads}, ids[:0:room], ids[room:room]
	h.T = v.tr
	return v.extend(tr)
}

// traceView returns the view of tr: v extended (v's trace a prefix of tr), or
// built from scratch (from a) if v is nil.
func traceView(v *rvfTrace, tr *program.Trace, a *viewSlab) *rvfTrace {
	switch {
	case v == nil:
		return newRVFTrace(tr, a)
	case v.tr == tr:
		return v
	}
	return v.extend(tr)
}

// threadCounts returns the number of events of each thread of σ̃ (per
// thread of tr.Threads), as threadCounts(v.tr).
func (v *rvfTrace) threadCounts() []int32 {
	cnt := make([]int32, len(v.tr.Threads))
	for t := range cnt {
		if t < len(v.h.At) {
			cnt[t] = int32(len(v.h.At[t]))
		}
	}
	return cnt
}

// baseOf returns P0 of the view's trace under the good writes good (which
// must be those the base of the view it extends was made under, for the
// events they share).
func (v *rvfTrace) baseOf(good map[program.EventID][]program.EventID) *rvfBase {
	if v.base == nil {
		v.base = newRVFBase(v.up, v.tr, v.h, good)
		v.up = nil
	}
	return v.base
}

// sched returns s with its capacity cut to its length, so that an append
// to it copies.
func sched(s program.Schedule) program.Schedule { return s[:len(s):len(s)] }

// extend returns the view of tr, whose first len(v.tr.Events) events are
// v.tr's (see the file comment for when v may be extended). If tr names
// more threads than v, it is built from scratch (forks are rare next to
// reads, and every clock keeps one width: newSyncOrder's, the number of
// threads of the trace or more if its events name more).
func (v *rvfTrace) extend(tr *program.Trace) *rvfTrace {
	o := v.h
	n := len(v.tr.Events)
	if len(tr.Events) < n || len(tr.Threads) != o.K {
		return newRVFTrace(tr, v.slab)
	}
	for i := n; i < len(tr.Events); i++ {
		if int(tr.Events[i].Thread) >= o.K {
			return newRVFTrace(tr, v.slab)
		}
	}
	k := o.K
	w, h := v.slab.view(k)
	w.tr, w.guide, w.plain, w.up, h.T, w.try = tr, v.guide, v.plain, v.base, tr, v.try
	copy(h.At, o.At)
	copy(h.Fork, o.Fork)
	copy(h.pts, o.pts)
	clock := func() []int32 { return w.slab.clock(k) } // of the new sync points
	for i := n; i < len(tr.Events); i++ {
		e := &tr.Events[i]
		w.guide = append(w.guide, e.ID())
		if !e.Is(program.RMWWrite) {
			w.plain = append(w.plain, e.ID())
		}
		w.try = w.try || explore.IsTrylock(e)
		if e.Kind == program.Flush {
			continue
		}
		t := e.Thread
		h.At[t] = append(h.At[t], int32(i))
		h.addSync(int32(i), clock)
	}
	return w
}

// addSync is the sync-point step of newSyncOrder and of a view's
// extension for position i, whose event is the last of h.At so far.
func (h *syncOrder) addSync(i int32, clock func() []int32) {
	e := &h.T.Events[i]
	t := e.Thread
	if len(h.pts[t]) == 0 {
		h.pts[t] = append(h.pts[t], syncPt{clock: clock()}) // no fork in tr
	}
	switch e.Kind {
	case program.Join:
		if e.Value < 0 {
			break
		}
		if end := h.Last(program.ThreadID(e.Value)); end >= 0 && end < i {
			pt := h.pts[t][len(h.pts[t])-1]
			c := clock()
			copy(c, pt.clock)
			h.joinRow(c, end)
			h.pts[t] = append(h.pts[t], syncPt{idx: e.Index, clock: c})
		}
	case program.Fork:
		if ch := int(e.Value); ch >= 0 && ch < h.K {
			h.Fork[ch] = i
			if len(h.pts[ch]) == 0 {
				c := clock()
				h.joinRow(c, i)
				h.pts[ch] = append(h.pts[ch], syncPt{clock: c})
			}
		}
	}
}

// prefix returns the view of tr, the first events of v.tr (see the file
// comment for when it may be taken); from scratch if tr names fewer
// threads than v.tr.
func (v *rvfTrace) prefix(tr *program.Trace) *rvfTrace {
	o := v.h
	n := int32(len(tr.Events))
	if len(tr.Threads) != o.K || int(n) > len(v.tr.Events) {
		return newRVFTrace(tr, v.slab)
	}
	k := o.K
	w, h := v.slab.view(k)
	h.T = tr
	for t := range k {
		at := o.At[t]
		c := sort.Search(len(at), func(j int) bool { return at[j] >= n })
		h.At[t] = at[:c]
		h.Fork[t] = o.Fork[t]
		if h.Fork[t] >= n {
			h.Fork[t] = -1
		}
		pts := o.pts[t]
		m := 0
		switch {
		case c > 0:
			for m < len(pts) && pts[m].idx < int32(c) {
				m++
			}
		case h.Fork[t] >= 0 && len(pts) > 0:
			m = 1
		}
		h.pts[t] = pts[:m]
	}
	p := 0 // plain's length: the events of tr but RMW write halves
	for i := range tr.Events {
		if !tr.Events[i].Is(program.RMWWrite) {
			p++
		}
		w.try = w.try || explore.IsTrylock(&tr.Events[i])
	}
	w.tr, w.guide, w.plain = tr, v.guide[:n], v.plain[:p]
	return w
}
