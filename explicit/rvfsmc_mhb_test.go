package explicit

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"mcr/program"
	"mcr/program/cfront"
)

// TestSyncOrderAsClocks checks syncOrder, must-happen-before by sync
// points, against the vector clock per event of newHBOrder on maximal
// traces with forks and joins (each thread run in turn, highest first, so
// that joins wait).
func TestSyncOrderAsClocks(t *testing.T) {
	for _, f := range []string{"account", "airline", "lamport", "sigma", "mcr_fig2"} {
		p, err := cfront.Load("../testdata/c/"+f+".c", cfront.Options{Defines: []string{"N=3"}})
		if err != nil {
			t.Fatal(err)
		}
		for turn := 0; turn < 3; turn++ {
			x := p.Start()
			for n := 0; ; n++ {
				if over, _ := x.Done(); over {
					break
				}
				stepped := false
				for k := x.Threads() - 1; k >= 0 && !stepped; k-- {
					th := program.ThreadID((k + n*turn) % x.Threads())
					if _, st := x.Pending(th); st == program.Enabled {
						x.Step(th)
						stepped = true
					}
				}
				if !stepped {
					break
				}
			}
			tr := x.Trace()
			h, o := newHBOrder(tr, false), newSyncOrder(tr)
			if !reflect.DeepEqual(h.At, o.At) || !reflect.DeepEqual(h.Fork, o.Fork) {
				t.Fatalf("%s turn %d: positions %v forks %v, TraceIndex says %v, %v", f, turn, o.At, o.Fork, h.At, h.Fork)
			}
			for i := range int32(len(tr.Events)) {
				for j := range int32(len(tr.Events)) {
					if got, want := o.atMost(i, j), h.before(i, h.row(j)); got != want {
						t.Fatalf("%s turn %d: %s <= %s: %v, clocks say %v", f, turn, tr.Events[i].ID(), tr.Events[j].ID(), got, want)
					}
				}
				for th := range program.ThreadID(h.K) {
					if got, want := o.beforeNext(i, th), h.before(i, h.nextRow(th)); got != want {
						t.Fatalf("%s turn %d: %s before the next event of %d: %v, clocks say %v", f, turn, tr.Events[i].ID(), th, got, want)
					}
				}
			}
		}
	}
}

// TestRVFTraceViews checks the views of rvfsmc_view.go against orders
// built from scratch: a view extended from a prefix, a prefix taken of a
// view after another view extending a shorter prefix wrote over the arrays
// they share (as a resumed level's after a deeper level's children), and
// that sibling itself, on traces with forks and joins.
func TestRVFTraceViews(t *testing.T) {
	for _, f := range []string{"account", "airline", "sigma", "mcr_fig2"} {
		p, err := cfront.Load("../testdata/c/"+f+".c", cfront.Options{Defines: []string{"N=3"}})
		if err != nil {
			t.Fatal(err)
		}
		a := runTurns(p, nil, 0)
		slab := &viewSlab{} // one for every view, as one node's calls share theirs
		for c := 0; c < len(a.Events); c += 3 {
			b := runTurns(p, a.Schedule()[:c], 1) // shares a's first c events
			cut := func(tr *program.Trace, n int) *program.Trace {
				return &program.Trace{Events: tr.Events[:n:n], Threads: a.Threads}
			}
			if len(b.Threads) != len(a.Threads) {
				continue
			}
			b = cut(b, len(b.Events))
			ga, gb := goodOf(a), goodOf(b)
			v := newRVFTrace(cut(a, c), slab)
			v.baseOf(ga)
			va := v.extend(a)
			va.baseOf(ga)
			c2 := c / 2
			vb := va.prefix(cut(a, c)).extend(b) // writes over va's part beyond c
			vb.up = v.base
			vb.baseOf(gb)
			la := va.prefix(cut(a, c2))
			for _, k := range []struct {
				name string
				v    *rvfTrace
				good map[program.EventID][]program.EventID
			}{{"base", v, ga}, {"sibling", vb, gb}} {
				want := newRVFBase(nil, k.v.tr, newSyncOrder(k.v.tr), k.good)
				if !slices.Equal(k.v.base.flat, want.flat) {
					t.Fatalf("%s cut %d %s: P0 %v, want %v", f, c, k.name, k.v.base.flat, want.flat)
				}
			}
			for _, k := range []struct {
				name string
				v    *rvfTrace
			}{{"base", v}, {"sibling", vb}, {"prefix", la}} {
				want := newRVFTrace(k.v.tr, &viewSlab{})
				want.h = newSyncOrder(k.v.tr)
				sameView(t, fmt.Sprintf("%s cut %d %s", f, c, k.name), k.v, want)
			}
		}
	}
}

// runTurns runs p along sched, then each thread in turn as in
// TestSyncOrderAsClocks, and returns the trace.
func runTurns(p program.Program, sched program.Schedule, turn int) *program.Trace {
	x, _, _ := runSchedule(p, sched)
	for n := 0; ; n++ {
		if over, _ := x.Done(); over {
			break
		}
		stepped := false
		for k := x.Threads() - 1; k >= 0 && !stepped; k-- {
			th := program.ThreadID((k + n*turn) % x.Threads())
			if _, st := x.Pending(th); st == program.Enabled {
				x.Step(th)
				stepped = true
			}
		}
		if !stepped {
			break
		}
	}
	return x.Trace()
}

// sameView fails unless got and want have the same schedules, positions,
// forks and must-happen-before.
func sameView(t *testing.T, name string, got, want *rvfTrace) {
	t.Helper()
	if !slices.Equal(got.guide, want.guide) || !slices.Equal(got.plain, want.plain) {
		t.Fatalf("%s: schedules %v %v, want %v %v", name, got.guide, got.plain, want.guide, want.plain)
	}
	g, w := got.h, want.h
	if g.K != w.K || !reflect.DeepEqual(g.Fork, w.Fork) || len(g.At) != len(w.At) {
		t.Fatalf("%s: %d threads, forks %v; want %d, %v", name, g.K, g.Fork, w.K, w.Fork)
	}
	for th := range g.At {
		if !slices.Equal(g.At[th], w.At[th]) {
			t.Fatalf("%s: positions of thread %d %v, want %v", name, th, g.At[th], w.At[th])
		}
	}
	n := int32(len(got.tr.Events))
	for i := range n {
		for j := range n {
			if g.atMost(i, j) != w.atMost(i, j) {
				t.Fatalf("%s: %d <= %d: %v, want %v", name, i, j, g.atMost(i, j), w.atMost(i, j))
			}
		}
		for th := range program.ThreadID(w.K) {
			if g.beforeNext(i, th) != w.beforeNext(i, th) {
				t.Fatalf("%s: %d before the next event of %d: %v", name, i, th, g.beforeNext(i, th))
			}
		}
	}
}

// goodOf gives every read and acquire of tr the source it read as its
// only good write.
func goodOf(tr *program.Trace) map[program.EventID][]program.EventID {
	rf := program.RF(tr)
	good := map[program.EventID][]program.EventID{}
	for i := range tr.Events {
		if e := &tr.Events[i]; readLike(e) {
			good[e.ID()] = []program.EventID{program.InitID}
			if rf[i] >= 0 {
				good[e.ID()] = []program.EventID{tr.Events[rf[i]].ID()}
			}
		}
	}
	return good
}
