package program

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomTrace returns a random well-formed execution: main forks up to
// three threads, threads read, write, lock and unlock, main joins some of
// its children after they end.
func randomTrace(rng *rand.Rand) *Trace {
	nth := 1 + rng.IntN(4)
	t := &Trace{Threads: []Thread{{Name: "0", Parent: -1}}}
	for i := 1; i < nth; i++ {
		t.Threads = append(t.Threads, Thread{Name: fmt.Sprintf("0.%d", i-1), Parent: 0})
	}
	started := make([]bool, nth)
	done := make([]bool, nth)
	joined := make([]bool, nth)
	steps := make([]int, nth) // remaining plain steps per thread
	held := map[Loc]ThreadID{}
	mine := make([][]Loc, nth)
	next := make([]int32, nth)
	started[0] = true
	for i := range steps {
		steps[i] = 1 + rng.IntN(8)
	}
	emit := func(th ThreadID, k Kind, l Loc, v int64) {
		t.Events = append(t.Events, Event{Thread: th, Index: next[th], Kind: k, Loc: l, Value: v})
		next[th]++
	}
	for range 200 {
		var ready []ThreadID
		for th := range nth {
			if started[th] && !done[th] {
				ready = append(ready, ThreadID(th))
			}
		}
		if len(ready) == 0 {
			break
		}
		th := ready[rng.IntN(len(ready))]
		switch {
		case th == 0 && rng.IntN(3) == 0 && slices.Contains(started, false):
			c := slices.Index(started, false)
			started[c] = true
			emit(0, Fork, 0, int64(c))
		case th == 0 && rng.IntN(3) == 0:
			for c := 1; c < nth; c++ {
				if done[c] && !joined[c] {
					joined[c] = true
					emit(0, Join, 0, int64(c))
					break
				}
			}
		case steps[th] == 0:
			for _, l := range slices.Backward(mine[th]) {
				delete(held, l)
				emit(th, Release, l, 0)
			}
			mine[th] = nil
			if th != 0 || !slices.Contains(started, false) {
				done[th] = true
			}
		default:
			steps[th]--
			l := Loc(100 + rng.IntN(2))
			switch rng.IntN(5) {
			case 0:
				if _, ok := held[l]; !ok {
					held[l] = th
					mine[th] = append(mine[th], l)
					emit(th, Acquire, l, 0)
				}
			case 1:
				if n := len(mine[th]); n > 0 {
					delete(held, mine[th][n-1])
					emit(th, Release, mine[th][n-1], 0)
					mine[th] = mine[th][:n-1]
				}
			case 2, 3:
				emit(th, Read, Loc(rng.IntN(3)), 0)
			default:
				emit(th, Write, Loc(rng.IntN(3)), rng.Int64N(3))
			}
		}
	}
	return t
}

// closure computes the order of t by brute force: the transitive closure
// of the immediate edges (program order, fork, join, and the sources Clocks
// adds for o).
func closure(t *Trace, o Orders) [][]bool {
	n := len(t.Events)
	edge := make([][]int, n)
	last := map[ThreadID]int{}
	fork := map[ThreadID]int{}
	lastWrite, lastRel := map[Loc]int{}, map[Loc]int{}
	for i := range t.Events {
		e := &t.Events[i]
		if p, ok := last[e.Thread]; ok {
			edge[p] = append(edge[p], i)
		} else if f, ok := fork[e.Thread]; ok {
			edge[f] = append(edge[f], i)
		}
		last[e.Thread] = i
		switch e.Kind {
		case Fork:
			fork[ThreadID(e.Value)] = i
		case Join:
			if p, ok := last[ThreadID(e.Value)]; ok {
				edge[p] = append(edge[p], i)
			}
		case Write:
			lastWrite[e.Loc] = i
		case Release:
			lastRel[e.Loc] = i
		case Read:
			if w, ok := lastWrite[e.Loc]; ok && o&ReadsFromOrder != 0 {
				edge[w] = append(edge[w], i)
			}
		case Acquire:
			if r, ok := lastRel[e.Loc]; ok && o&LockOrder != 0 {
				edge[r] = append(edge[r], i)
			}
		}
	}
	reach := make([][]bool, n)
	for i := n - 1; i >= 0; i-- {
		reach[i] = make([]bool, n)
		for _, j := range edge[i] {
			reach[i][j] = true
			for k := range n {
				reach[i][k] = reach[i][k] || reach[j][k]
			}
		}
	}
	return reach
}

// TestTraceIndexAgainstClosure: on random traces, every clock order equals
// the brute-force closure of its edges, Src is the last earlier write
// (release), and Sections pair each acquire with its thread's release.
func TestTraceIndexAgainstClosure(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 5))
	for it := range 300 {
		tr := randomTrace(rng)
		if err := tr.Check(); err != nil {
			t.Fatalf("trace %d: generator: %v", it, err)
		}
		x := NewTraceIndex(tr)
		for _, o := range []Orders{0, LockOrder, ReadsFromOrder, LockOrder | ReadsFromOrder} {
			want := closure(tr, o)
			c := x.Clocks(o)
			for i := range tr.Events {
				for j := range tr.Events {
					if got := c.Before(i, j); got != want[i][j] {
						t.Fatalf("trace %d, orders %b: Before(%s, %s) = %v, closure says %v",
							it, o, tr.Describe(i), tr.Describe(j), got, want[i][j])
					}
				}
			}
		}
		lastWrite, lastRel := map[Loc]int32{}, map[Loc]int32{}
		for i := range tr.Events {
			e := &tr.Events[i]
			want := int32(-2)
			switch e.Kind {
			case Read, Acquire:
				m := lastWrite
				if e.Kind == Acquire {
					m = lastRel
				}
				want = -1
				if w, ok := m[e.Loc]; ok {
					want = w
				}
			case Write:
				lastWrite[e.Loc] = int32(i)
			case Release:
				lastRel[e.Loc] = int32(i)
			}
			if x.Src[i] != want {
				t.Fatalf("trace %d: Src[%s] = %d, want %d", it, tr.Describe(i), x.Src[i], want)
			}
		}
		for l, secs := range x.Sections() {
			for _, s := range secs {
				a := &tr.Events[s.Acq]
				if a.Kind != Acquire || a.Loc != l {
					t.Fatalf("trace %d: section %v of lock %d starts at %s", it, s, l, tr.Describe(int(s.Acq)))
				}
				if s.Rel >= 0 {
					r := &tr.Events[s.Rel]
					if r.Kind != Release || r.Loc != l || r.Thread != a.Thread || s.Rel < s.Acq {
						t.Fatalf("trace %d: section %v of lock %d ends at %s", it, s, l, tr.Describe(int(s.Rel)))
					}
				}
			}
		}
	}
}

// TestClocksInDirtyBuffer: clocks computed in a reused buffer that holds
// another trace's clocks (ClocksIn, as ReadsFrom-SMC reuses them) equal
// those computed in fresh storage.
func TestClocksInDirtyBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 4))
	var buf []int32
	for it := range 300 {
		tr := randomTrace(rng)
		o := LockOrder | ReadsFromOrder
		want := NewTraceIndex(tr).Clocks(o).Flat()
		for i := range buf[:cap(buf)] {
			buf[:cap(buf)][i] = int32(rng.IntN(50)) // another trace's rows, or garbage
		}
		got := NewTraceIndex(tr).ClocksIn(o, buf).Flat()
		if !slices.Equal(got, want) {
			t.Fatalf("trace %d: clocks in a reused buffer differ:\n got %v\nwant %v", it, got, want)
		}
		if cap(got) > cap(buf) {
			buf = got
		}
	}
}
