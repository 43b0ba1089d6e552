package program

// VisibleWrites reports which writes a read may read from, given the
// writes ws of its location (trace positions, in trace order) and a
// must-happen-before order: a write is visible to read r unless r happens
// before it, or another write of the location comes between them (w before
// w2 before r). It calls f for every visible write, in reverse trace
// order, and reports whether the initial value is visible (no write
// happens before r). Every explorer's notion of a read's possible sources
// goes through it: rf, rvf, mcr and mcr-seeds.
//
// Of one thread's writes that happen before r only the last can be
// visible (program order puts it between the others and r), and a write w
// is hidden exactly when it happens before the last such write of some
// thread. So the cost is O(len(ws) · threads) instead of O(len(ws)²) per
// read: a thread that writes and reads one location n times costs O(n²),
// not O(n³), over its reads (issue 13).
func VisibleWrites(ws []int32, r int32, before func(a, b int32) bool, thread func(w int32) ThreadID, f func(w int32)) (initVisible bool) {
	var lasts []int32 // per thread, its last write that happens before r
	for i := len(ws) - 1; i >= 0; i-- {
		if w := ws[i]; w != r && !hasThread(lasts, thread(w), thread) && before(w, r) {
			lasts = append(lasts, w)
		}
	}
	for i := len(ws) - 1; i >= 0; i-- {
		w := ws[i]
		if w == r || before(r, w) {
			continue
		}
		hidden := false
		for _, l := range lasts {
			if l != w && before(w, l) {
				hidden = true
				break
			}
		}
		if !hidden {
			f(w)
		}
	}
	return len(lasts) == 0
}

// hasThread reports whether one of the writes ws is by thread t (ws holds
// one write per thread: a linear search beats a map at that size).
func hasThread(ws []int32, t ThreadID, thread func(w int32) ThreadID) bool {
	for _, w := range ws {
		if thread(w) == t {
			return true
		}
	}
	return false
}
