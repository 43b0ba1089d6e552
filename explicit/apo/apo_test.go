package apo

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// build returns the APO over events with the extra orderings edges and
// the good writes good (read -> writes), sides from the good writes.
func build(t *testing.T, events []Event, edges [][2]int32, good map[int32][]int32) *APO {
	t.Helper()
	p, err := New(events)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edges {
		if !p.Order(e[0], e[1]) {
			t.Fatalf("edge %v closes a cycle", e)
		}
	}
	for r, g := range good {
		p.SetGood(r, p.Part(g[0]), g)
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	return p
}

// Figure 5 of seed 003, as its text describes it (the figure itself is an
// image): two threads, variables x, y, z, one read each; bad writes (w̄)
// write 1, good ones 0. Thread 1 (root): r_x, w_z, w̄_y, r_z; thread 2:
// w_y, w_x, w̄_z, r_y. S(r_x) = 2, S(r_z) = 1. Closure adds, in order,
// w_x -> r_x (Rule1), r_y -> w̄_y (Rule2: after edge 1, w̄_y is r_y's only
// maximal write), w̄_z -> w_z (Rule3: after edge 2, w̄_z is a bad minimal
// write before r_z that no good write follows).
func TestFigure5(t *testing.T) {
	const x, y, z = 0, 1, 2
	ev := []Event{
		{0, Read, x, 0}, {0, Write, z, 0}, {0, Write, y, 1}, {0, Read, z, 0}, // 0 r_x, 1 w_z, 2 w̄_y, 3 r_z
		{1, Write, y, 0}, {1, Write, x, 0}, {1, Write, z, 1}, {1, Read, y, 0}, // 4 w_y, 5 w_x, 6 w̄_z, 7 r_y
	}
	p := build(t, ev, nil, map[int32][]int32{0: {5}, 3: {1}, 7: {4}})
	q, steps, ok, err := ClosureSteps(p)
	if err != nil || !ok {
		t.Fatalf("closure: ok %v err %v", ok, err)
	}
	want := []Insertion{{1, 0, 5, 0}, {2, 7, 7, 2}, {3, 3, 6, 1}}
	if !slices.Equal(steps, want) {
		t.Fatalf("closure steps %v, want %v", steps, want)
	}
	if !IsClosed(q) || IsClosed(p) {
		t.Fatalf("IsClosed: closure %v, input %v", IsClosed(q), IsClosed(p))
	}
	// The witness of Lemma 4.1: the root as early as Q lets it.
	w := Witness(q)
	if wantW := []int32{4, 5, 0, 6, 1, 7, 2, 3}; !slices.Equal(w, wantW) {
		t.Fatalf("witness %v, want %v", w, wantW)
	}
	if err := Linearizes(p, w); err != nil {
		t.Fatal(err)
	}
}

// One example per closure rule, after Figure 4's description of each, and
// two where the closure is ⊥. Root events are thread 0; good writes write
// 0, bad ones 1.
func TestFigure4Rules(t *testing.T) {
	for _, c := range []struct {
		name  string
		ev    []Event
		edges [][2]int32
		good  map[int32][]int32
		steps []Insertion // nil: ⊥
	}{
		{"Rule1: the first good visible write goes before r",
			[]Event{{0, Read, 0, 0}, {1, Write, 0, 0}}, nil, map[int32][]int32{0: {1}},
			[]Insertion{{1, 0, 1, 0}}},
		{"Rule2: r goes before its only maximal (bad, remote) write",
			[]Event{{0, Write, 0, 1}, {1, Write, 0, 0}, {1, Read, 0, 0}}, [][2]int32{{1, 0}}, map[int32][]int32{2: {1}},
			[]Insertion{{2, 2, 2, 0}}},
		{"Rule3: a local bad minimal write goes before the remote good maximal one",
			[]Event{{0, Write, 0, 1}, {0, Read, 0, 0}, {1, Write, 0, 0}}, [][2]int32{{2, 1}}, map[int32][]int32{1: {2}},
			[]Insertion{{3, 1, 0, 2}}},
		{"Rule3: a remote bad minimal write goes before the local good maximal one",
			[]Event{{0, Write, 0, 1}, {1, Write, 0, 0}, {1, Read, 0, 0}}, [][2]int32{{0, 2}}, map[int32][]int32{2: {1}},
			[]Insertion{{3, 2, 0, 1}}},
		{"⊥: no good write is visible (Algorithm 2, line 2)",
			[]Event{{0, Read, 0, 0}, {1, Write, 0, 0}}, [][2]int32{{0, 1}}, map[int32][]int32{0: {1}}, nil},
		{"⊥: Rule1's insertion for r_x hides r_y's only good write",
			[]Event{{0, Read, 0, 0}, {0, Write, 1, 1}, {1, Write, 1, 0}, {1, Write, 0, 0}, {1, Read, 1, 0}},
			[][2]int32{{1, 4}}, map[int32][]int32{0: {3}, 4: {2}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := build(t, c.ev, c.edges, c.good)
			q, steps, ok, err := ClosureSteps(p)
			if err != nil {
				t.Fatal(err)
			}
			if c.steps == nil {
				if ok {
					t.Fatalf("closure exists (steps %v), want ⊥", steps)
				}
				return
			}
			if !ok || !slices.Equal(steps, c.steps) {
				t.Fatalf("ok %v steps %v, want %v", ok, steps, c.steps)
			}
			if err := Linearizes(p, Witness(q)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// linearizations calls f on every linearization of p's order that
// satisfies the good writes (brute force, for small p), until f returns
// false.
func linearizations(p *APO, f func([]int32) bool) {
	n := p.Len()
	done := make([]bool, n)
	last := map[int32]int32{}
	var t []int32
	var rec func() bool
	rec = func() bool {
		if len(t) == n {
			return f(slices.Clone(t))
		}
		for e := range int32(n) {
			if done[e] {
				continue
			}
			ready := true
			for a := range int32(n) {
				if !done[a] && p.Before(a, e) {
					ready = false
					break
				}
			}
			ev := p.Events[e]
			if !ready {
				continue
			}
			if ev.Kind == Read {
				w, ok := last[ev.Loc]
				if !ok || !p.good(e, w) {
					continue
				}
			}
			old, had := last[ev.Loc]
			if ev.Kind == Write {
				last[ev.Loc] = e
			}
			done[e], t = true, append(t, e)
			more := rec()
			done[e], t = false, t[:len(t)-1]
			if had {
				last[ev.Loc] = old
			} else {
				delete(last, ev.Loc)
			}
			if !more {
				return false
			}
		}
		return true
	}
	rec()
}

// TestRandomAgainstBruteForce checks Lemmas 4.1-4.4 on small random
// annotated partial orders against every linearization: Realize finds a
// witness iff one exists, the witness is one, the closure is closed and
// refines P, and every linearization of P refines the closure (each
// inserted ordering is necessary, so the closure is the weakest).
func TestRandomAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	count := map[bool]int{}
	for i := range 1500 {
		p := Random(rng, RandomOptions{Leaves: 1 + rng.IntN(2), Events: 2 + rng.IntN(2), Vars: 1 + rng.IntN(2), Values: 1 + rng.IntN(2)})
		q, ok, err := Closure(p)
		if err != nil {
			t.Fatalf("%d: %v\n%v", i, err, p)
		}
		exists := false
		linearizations(p, func(lin []int32) bool {
			exists = true
			if ok {
				for a := range int32(p.Len()) {
					for b := range int32(p.Len()) {
						if q.Before(a, b) && slices.Index(lin, a) > slices.Index(lin, b) {
							t.Fatalf("%d: linearization %v breaks the closure's %d < %d\n%v", i, lin, a, b, p)
						}
					}
				}
			}
			return ok // without a closure, one linearization is a disagreement already
		})
		count[exists]++
		if exists != ok {
			t.Fatalf("%d: closure exists %v, a linearization exists %v\n%v", i, ok, exists, p)
		}
		if !ok {
			continue
		}
		if !IsClosed(q) {
			t.Fatalf("%d: closure not closed\n%v", i, q)
		}
		for a := range int32(p.Len()) {
			for b := range int32(p.Len()) {
				if p.Before(a, b) && !q.Before(a, b) {
					t.Fatalf("%d: closure drops %d < %d", i, a, b)
				}
			}
		}
		if err := Linearizes(p, Witness(q)); err != nil {
			t.Fatalf("%d: witness %v: %v\n%v", i, Witness(q), err, p)
		}
	}
	if count[true] < 300 || count[false] < 300 {
		t.Fatalf("unbalanced: %d realizable, %d not", count[true], count[false])
	}
	t.Logf("%d realizable, %d not", count[true], count[false])
}

func TestCheckRejects(t *testing.T) {
	p, _ := New([]Event{{0, Write, 0, 1}, {1, Write, 0, 0}, {2, Write, 0, 0}, {1, Read, 0, 1}})
	if err := p.Check(); err == nil {
		t.Fatal("a read without good writes passed")
	}
	p.SetGood(3, 0, []int32{1}) // value 0, read 1
	if err := p.Check(); err == nil {
		t.Fatal("a good write of another value passed")
	}
	p.SetGood(3, 0, []int32{0})
	if err := p.Check(); err == nil {
		t.Fatal("unordered conflicting leaf writes passed")
	}
	p.Order(1, 2)
	p.Order(2, 3)
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Realize(&APO{Events: []Event{{0, Read, 0, 0}}, Side: []int8{1}, Good: [][]int32{{0}}, order: NewOrder(1)}); err == nil {
		t.Fatal("a read that is its own good write passed")
	}
}

// witnessByDefinition is Witness as Lemma 4.1 states it, edge by edge
// (Q' = Q plus e1 < e2 for root e1 and leaf e2 unless e2 <_Q e1, then
// Kahn's algorithm, smallest ready event first): O(n^2) per step.
func witnessByDefinition(q *APO) []int32 {
	n := int32(q.Len())
	edge := func(x, y int32) bool {
		return x != y && (q.Before(x, y) || q.Part(x) == 1 && q.Part(y) == 2 && !q.Before(y, x))
	}
	indeg := make([]int32, n)
	for a := range n {
		for b := range n {
			if edge(a, b) {
				indeg[b]++
			}
		}
	}
	var out []int32
	done := make([]bool, n)
	for len(out) < int(n) {
		e := int32(-1)
		for c := range n {
			if !done[c] && indeg[c] == 0 {
				e = c
				break
			}
		}
		if e < 0 {
			return out
		}
		done[e] = true
		out = append(out, e)
		for f := range n {
			if edge(e, f) {
				indeg[f]--
			}
		}
	}
	return out
}

// TestWitnessByDefinition: Witness (successor bitsets, in-degrees counted
// once) gives the same linearization as the definition on the closures of
// random annotated partial orders, 100 events and more included (several
// bitset words).
func TestWitnessByDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	compared := 0
	for i := range 600 {
		o := RandomOptions{Leaves: 1 + rng.IntN(3), Events: 2 + rng.IntN(4), Vars: 1 + rng.IntN(3), Values: 1 + rng.IntN(2)}
		if i%10 == 0 {
			o.Events = 30 + rng.IntN(20)
		}
		q, ok, err := Closure(Random(rng, o))
		if err != nil || !ok {
			continue
		}
		compared++
		if got, want := Witness(q), witnessByDefinition(q); !slices.Equal(got, want) {
			t.Fatalf("%d: Witness %v, by definition %v\n%v", i, got, want, q)
		}
	}
	if compared < 100 {
		t.Fatalf("only %d closures compared", compared)
	}
}
