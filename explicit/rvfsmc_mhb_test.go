package explicit

import (
	"reflect"
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
