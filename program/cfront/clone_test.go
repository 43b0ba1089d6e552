package cfront

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"mcr/program"
)

// TestClone: a copy taken at a random point of a random run goes on like
// the original under the same steps, and taking it leaves the original as
// a run without the copy (the same steps from the start). Programs with
// mutexes, condition variables, barriers, a heap and an await.
func TestClone(t *testing.T) {
	files := []struct {
		name    string
		defines []string
	}{
		{"lastzero.c", []string{"N=3"}}, {"indexer.c", []string{"THREADS=3", "SLOTS=7", "ITEMS=1"}},
		{"filesystem.c", []string{"THREADS=3", "INODES=3", "BLOCKS=2"}}, {"barrier_ok.c", nil},
		{"cond_pc.c", nil}, {"heap.c", nil}, {"assume_await.c", nil}, {"locked_counter.c", nil},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, f := range files {
		p, err := Load(filepath.Join("..", "..", "testdata", "c", f.name), Options{Defines: f.defines})
		if err != nil {
			t.Fatal(err)
		}
		for run := 0; run < 20; run++ {
			// Steps: random enabled threads; the copy is taken after cut of them.
			var steps []program.ThreadID
			x := p.Start()
			for {
				if over, _ := x.Done(); over {
					break
				}
				var en []program.ThreadID
				for th := 0; th < x.Threads(); th++ {
					if _, st := x.Pending(program.ThreadID(th)); st == program.Enabled {
						en = append(en, program.ThreadID(th))
					}
				}
				if len(en) == 0 {
					break
				}
				th := en[rng.IntN(len(en))]
				steps = append(steps, th)
				x.Step(th)
			}
			want := x.Trace().Events
			_, wantOut := x.Done()
			cut := rng.IntN(len(steps) + 1)
			y := p.Start()
			for _, th := range steps[:cut] {
				y.Step(th)
			}
			c := y.(program.Cloner).Clone()
			for _, e := range []program.Execution{c, y} { // the copy first: the original must not see it
				for _, th := range steps[cut:] {
					e.Step(th)
				}
				_, out := e.Done()
				if got := e.Trace().Events; !reflect.DeepEqual(got, want) || out.Kind != wantOut.Kind {
					t.Fatalf("%s run %d, copy after %d of %d steps: %d events (%v), want %d (%v)", f.name, run, cut,
						len(steps), len(got), out.Kind, len(want), wantOut.Kind)
				}
			}
		}
	}
}
