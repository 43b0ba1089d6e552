package apo

// This file implements the random annotated partial orders of the
// differential tests and of `mcr crosscheck --kind apo`.

import (
	"math/rand/v2"
	"slices"
)

// RandomOptions shapes Random.
type RandomOptions struct {
	Leaves int // leaf threads besides the root (0 or more)
	Events int // events per thread (at least 1)
	Vars   int // locations (at least 1)
	Values int // distinct values written, 0..Values-1 (at least 1)
}

// Random returns a random annotated partial order that passes Check.
// Events are reads and writes on random locations; a random interleaving
// σ orders every conflicting pair of leaf events (so Mwidth(P|X2) = 1) and
// a few random pairs of other threads' events, either way when that keeps
// P acyclic. Each read's good writes hold a write of one value (usually
// the one it observes in σ) and some other writes of that value on the
// same side; sometimes the observed write is dropped. About half of them
// are realizable.
func Random(rng *rand.Rand, o RandomOptions) *APO {
	k, m := o.Leaves+1, max(o.Events, 1)
	vars, values := max(o.Vars, 1), max(o.Values, 1)
	// σ: a random interleaving of k threads of m events; events are
	// numbered thread by thread.
	left := slices.Repeat([]int{m}, k)
	var sigma []int32 // event numbers in σ order
	for len(sigma) < k*m {
		t := rng.IntN(k)
		if left[t] == 0 {
			continue
		}
		sigma = append(sigma, int32(t*m+m-left[t]))
		left[t]--
	}
	events := make([]Event, k*m)
	written := make([]bool, vars)
	for i := range events {
		e := Event{Thread: int32(i / m), Kind: Kind(rng.IntN(2)), Loc: int32(rng.IntN(vars))}
		if e.Kind == Write {
			e.Value = int64(rng.IntN(values))
			written[e.Loc] = true
		}
		events[i] = e
	}
	for i := range events {
		if !written[events[i].Loc] { // no write could ever be good
			events[i].Kind, events[i].Value = Write, int64(rng.IntN(values))
		}
	}
	// Good writes: around the write each read observes in σ.
	observed := make([]int32, len(events))
	last := map[int32]int32{}
	for _, e := range sigma {
		observed[e] = -1
		if events[e].Kind == Write {
			last[events[e].Loc] = e
		} else if w, ok := last[events[e].Loc]; ok {
			observed[e] = w
		}
	}
	var writes [][]int32
	for i, e := range events {
		for int(e.Loc) >= len(writes) {
			writes = append(writes, nil)
		}
		if e.Kind == Write {
			writes[e.Loc] = append(writes[e.Loc], int32(i))
		}
	}
	good := make([][]int32, len(events))
	side := make([]int8, len(events))
	part := func(e int32) int8 { return map[bool]int8{true: 1, false: 2}[events[e].Thread == 0] }
	for i := range events {
		if events[i].Kind != Read {
			continue
		}
		ws := writes[events[i].Loc]
		w0 := observed[i]
		if w0 < 0 || rng.IntN(6) == 0 {
			w0 = ws[rng.IntN(len(ws))]
		}
		events[i].Value = events[w0].Value
		g := []int32{w0}
		for _, w := range ws {
			if w != w0 && events[w].Value == events[w0].Value && (part(int32(i)) == 2 || part(w) == part(w0)) && rng.IntN(3) == 0 {
				g = append(g, w)
			}
		}
		if len(g) > 1 && rng.IntN(4) == 0 {
			g = g[1:]
		}
		good[i] = g
		if part(int32(i)) == 1 {
			side[i] = part(w0)
		}
	}
	p, _ := New(events) // events are well-formed by construction
	pos := make([]int, len(events))
	for k, e := range sigma {
		pos[e] = k
	}
	for a := range events {
		for b := range events {
			x, y := int32(a), int32(b)
			if part(x) == 2 && part(y) == 2 && events[a].Thread != events[b].Thread && p.Conflict(x, y) && pos[a] < pos[b] {
				p.Order(x, y)
			}
		}
	}
	for range rng.IntN(len(events)/2 + 1) {
		x, y := int32(rng.IntN(len(events))), int32(rng.IntN(len(events)))
		if events[x].Thread != events[y].Thread {
			p.Order(x, y) // refused if it closes a cycle
		}
	}
	for i := range events {
		if good[i] != nil {
			p.SetGood(int32(i), side[i], good[i])
		}
	}
	return p
}
