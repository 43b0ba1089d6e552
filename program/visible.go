package program

import (
	"slices"
	"sort"
)

// WriteIndex holds the writes of one location (trace positions, or any
// numbering in trace order) grouped by thread, to answer which of them a
// read may read from (Visible). Build it once per location and trace.
type WriteIndex struct {
	byThread [][]int32 // per writing thread: its writes, in trace order
}

// NewWriteIndex groups ws (in trace order) by thread.
func NewWriteIndex(ws []int32, thread func(w int32) ThreadID) *WriteIndex {
	x := &WriteIndex{}
	slot := map[ThreadID]int{}
	for _, w := range ws {
		t := thread(w)
		k, ok := slot[t]
		if !ok {
			k = len(x.byThread)
			slot[t] = k
			x.byThread = append(x.byThread, nil)
		}
		x.byThread[k] = append(x.byThread[k], w)
	}
	return x
}

// Visible reports which writes read r (not one of the index's writes) may
// read from, given a must-happen-before order that contains program
// order: a write is visible to r unless r happens before it, or another
// write of the location comes between them (w before w2 before r). It
// calls f for every visible write, in reverse trace order, and reports
// whether the initial value is visible (no write happens before r). Every
// explorer's notion of a read's possible sources goes through it: rf,
// rvf, mcr and mcr-seeds.
//
// Of one thread's writes, those that happen before r form a prefix (program
// order) and those r happens before a suffix; the writes between are
// concurrent with r and always visible (a write after which a write before
// r comes would itself be before r). Of the prefix only its last write can
// be visible, and it is hidden exactly when it happens before another
// thread's last such write. Binary search finds both ends, so a read costs
// O(threads · (log writes + threads)) calls of before plus the visible
// writes, not O(writes · threads): a thread spinning on a location makes
// 100,000 writes and as many reads (issue 13).
func (x *WriteIndex) Visible(r int32, before func(a, b int32) bool, f func(w int32)) (initVisible bool) {
	vis, initVisible := x.AppendVisible(r, before, nil)
	for i := len(vis) - 1; i >= 0; i-- {
		f(vis[i])
	}
	return initVisible
}

// AppendVisible is Visible returning the visible writes appended to vis
// (in trace order), so that a caller that asks for many reads reuses one
// buffer.
func (x *WriteIndex) AppendVisible(r int32, before func(a, b int32) bool, vis []int32) (_ []int32, initVisible bool) {
	var buf [8]int32
	lasts := buf[:0]
	start := len(vis)
	for _, g := range x.byThread {
		k := sort.Search(len(g), func(i int) bool { return !before(g[i], r) })
		if k > 0 {
			lasts = append(lasts, g[k-1])
		}
		m := k + sort.Search(len(g)-k, func(i int) bool { return before(r, g[k+i]) })
		vis = append(vis, g[k:m]...)
	}
	for _, w := range lasts {
		hidden := false
		for _, l := range lasts {
			if l != w && before(w, l) {
				hidden = true
				break
			}
		}
		if !hidden {
			vis = append(vis, w)
		}
	}
	slices.Sort(vis[start:])
	return vis, len(lasts) == 0
}

// VisibleWrites is Visible for one read: it indexes ws (the writes of r's
// location in trace order) and asks. Callers with many reads of one
// location build the WriteIndex once.
func VisibleWrites(ws []int32, r int32, before func(a, b int32) bool, thread func(w int32) ThreadID, f func(w int32)) (initVisible bool) {
	return NewWriteIndex(ws, thread).Visible(r, before, f)
}
