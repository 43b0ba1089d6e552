package predict

// This file implements the first shortcut that shows races without a
// decider: co-enabled pairs. Along any feasible prefix in which every read
// returned its traced value, two conflicting accesses that are both the
// next events of their (started) threads race: the prefix followed by the
// two is a witness of 001_aa53da3bf10d3f4e.txt's φ_race. The trace itself
// is such a prefix at every point (sweep), and so is the body of every
// checked witness (coEnabled), which often shows further pairs for free.
// The other shortcuts work pair by pair (cone.go).

import (
	"context"
	"slices"

	"mcr/program"
)

// frontier is, per thread, the next event of a prefix if it is a race
// candidate (a non-synthetic access, not the write half of a
// read-modify-write, of a started thread), else -1.
type frontier struct {
	w       *window
	next    []int32 // events of each thread executed
	started []bool
	cand    []int32
}

func newFrontier(w *window) *frontier {
	n := len(w.pos)
	f := &frontier{w: w, next: make([]int32, n), started: make([]bool, n), cand: make([]int32, n)}
	for th := range n {
		f.started[th] = w.forkOf[th] < 0
	}
	return f
}

// update recomputes thread th's candidate.
func (f *frontier) update(th program.ThreadID) {
	f.cand[th] = -1
	if !f.started[th] || int(f.next[th]) >= len(f.w.pos[th]) {
		return
	}
	p := f.w.pos[th][f.next[th]]
	if e := &f.w.t.Events[p]; e.Kind.IsAccess() && !isSynthetic(e.Loc) && !e.Is(program.RMWWrite) {
		f.cand[th] = p
	}
}

// exec executes event p and updates the candidates it changes, returning
// the threads whose candidates changed.
func (f *frontier) exec(p int32) (program.ThreadID, program.ThreadID) {
	e := &f.w.t.Events[p]
	f.next[e.Thread]++
	f.update(e.Thread)
	child := program.ThreadID(-1)
	if e.Kind == program.Fork && e.Value >= 0 && int(e.Value) < len(f.started) {
		child = program.ThreadID(e.Value)
		f.started[child] = true
		f.update(child)
	}
	return e.Thread, child
}

// pairs calls fn for every conflicting pair of th's candidate with the
// candidate of a thread other than th and skip.
func (f *frontier) pairs(th, skip program.ThreadID, fn func(a, b int32)) {
	p := f.cand[th]
	if p < 0 {
		return
	}
	ev := f.w.t.Events
	for u, q := range f.cand {
		if q >= 0 && program.ThreadID(u) != th && program.ThreadID(u) != skip && program.Conflicts(&ev[p], &ev[q]) {
			fn(min(p, q), max(p, q))
		}
	}
}

// all recomputes every candidate and calls fn once for every conflicting
// pair of them.
func (f *frontier) all(fn func(a, b int32)) {
	for th := range f.cand {
		f.update(program.ThreadID(th))
	}
	ev := f.w.t.Events
	for th, p := range f.cand {
		for u := th + 1; p >= 0 && u < len(f.cand); u++ {
			if q := f.cand[u]; q >= 0 && program.Conflicts(&ev[p], &ev[q]) {
				fn(min(p, q), max(p, q))
			}
		}
	}
}

// sweep reports the conflicting pairs co-enabled at some point of the
// window's own order, with the trace prefix as proof; it returns how many.
// It stops early when ctx is done.
func (w *window) sweep(ctx context.Context, k *knowledge) int64 {
	pl := poll{ctx: ctx}
	f := newFrontier(w)
	var found int64
	prefix := int32(0)
	report := func(a, b int32) { found++; k.race(a, b, proof{prefix: prefix}) }
	f.all(report)
	for i := range w.t.Events {
		if pl.stop() {
			break
		}
		prefix = int32(i) + 1
		th, child := f.exec(int32(i))
		f.pairs(th, -1, report)
		if child >= 0 {
			f.pairs(child, th, report)
		}
	}
	return found
}

// coEnabled reports the conflicting pairs co-enabled after body, a checked
// witness body (positions in schedule order); it returns how many.
func (w *window) coEnabled(k *knowledge, body []int32) int64 {
	return w.coEnabledAfter(k, 0, body)
}

// coEnabledAfter is coEnabled of the window's first prefix events followed
// by body (a proof's schedule without its targets).
func (w *window) coEnabledAfter(k *knowledge, prefix int32, body []int32) int64 {
	f := newFrontier(w)
	for th, ps := range w.pos {
		n, _ := slices.BinarySearch(ps, prefix)
		f.next[th] = int32(n)
		if fk := w.forkOf[th]; fk >= 0 && fk < prefix {
			f.started[th] = true
		}
	}
	for _, p := range body {
		e := &w.t.Events[p]
		f.next[e.Thread]++
		if e.Kind == program.Fork && e.Value >= 0 && int(e.Value) < len(f.started) {
			f.started[e.Value] = true
		}
	}
	var found int64
	f.all(func(a, b int32) {
		found++
		k.race(a, b, proof{prefix: prefix, sched: append(slices.Clip(body), a, b)})
	})
	return found
}
