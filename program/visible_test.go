package program

import (
	"math/rand"
	"slices"
	"testing"
)

// naiveVisible is the definition Visible implements, in O(writes²): w is
// visible to r unless r happens before w or w happens before some write w2
// that happens before r.
func naiveVisible(ws []int32, r int32, before func(a, b int32) bool) (vis []int32, initVisible bool) {
	initVisible = true
	for _, w := range ws {
		if before(w, r) {
			initVisible = false
		}
	}
	for i := len(ws) - 1; i >= 0; i-- {
		w := ws[i]
		if before(r, w) {
			continue
		}
		hidden := false
		for _, w2 := range ws {
			if w2 != w && before(w, w2) && before(w2, r) {
				hidden = true
			}
		}
		if !hidden {
			vis = append(vis, w)
		}
	}
	return vis, initVisible
}

// TestWriteIndexAgainstDefinition compares Visible with naiveVisible on
// random orders: events of a few threads in trace order, program order
// plus random edges forward in the trace, transitively closed.
func TestWriteIndexAgainstDefinition(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 3000; iter++ {
		n, k := 2+rng.Intn(30), 1+rng.Intn(4)
		thread := make([]ThreadID, n)
		for i := range thread {
			thread[i] = ThreadID(rng.Intn(k))
		}
		hb := make([][]bool, n) // hb[a][b]: a happens before b (a < b)
		for b := 0; b < n; b++ {
			hb[b] = make([]bool, n)
		}
		for b := 0; b < n; b++ {
			for a := 0; a < b; a++ {
				if thread[a] == thread[b] || rng.Intn(8) == 0 {
					hb[a][b] = true
				}
			}
		}
		for m := 0; m < n; m++ { // closure, in trace order
			for a := 0; a < m; a++ {
				if hb[a][m] {
					for b := m + 1; b < n; b++ {
						if hb[m][b] {
							hb[a][b] = true
						}
					}
				}
			}
		}
		before := func(a, b int32) bool { return hb[a][b] }
		r := int32(rng.Intn(n))
		var ws []int32
		for i := 0; i < n; i++ {
			if int32(i) != r && rng.Intn(2) == 0 {
				ws = append(ws, int32(i))
			}
		}
		want, wantInit := naiveVisible(ws, r, before)
		var got []int32
		gotInit := NewWriteIndex(ws, func(w int32) ThreadID { return thread[w] }).Visible(r, before, func(w int32) { got = append(got, w) })
		if !slices.Equal(got, want) || gotInit != wantInit {
			t.Fatalf("iteration %d: ws %v r %d: got %v init %v, want %v init %v", iter, ws, r, got, gotInit, want, wantInit)
		}
	}
}
