package explicit

import (
	"slices"
	"testing"

	"mcr/program"
	"mcr/program/cfront"
)

// TestStartCopies: executions that start as copies of one started
// execution (copyStart) run as executions started afresh do, also when two
// copies run interleaved (neither sees the other's memory, threads or
// trace), after Observe made them reserve room for events, and on
// fib_bench, whose main computes before its first event.
func TestStartCopies(t *testing.T) {
	for _, f := range []string{"fib_bench", "lastzero", "casrot"} {
		p, err := cfront.Load("../testdata/c/"+f+".c", cfront.Options{Defines: []string{"N=2"}})
		if err != nil {
			t.Fatal(err)
		}
		fresh := p.Start()
		program.RunDefault(fresh)
		want := fresh.Trace().Events
		c := startCopies(p)
		if startCopies(c) != c {
			t.Errorf("%s: startCopies wraps a copyStart again", f)
		}
		for round := range 2 {
			x, y := c.Start(), c.Start()
			// interleaved: y's steps between x's
			for {
				over, _ := x.Done()
				if !over {
					for th := 0; th < x.Threads(); th++ {
						if _, st := x.Pending(program.ThreadID(th)); st == program.Enabled {
							x.Step(program.ThreadID(th))
							break
						}
					}
				}
				overY, _ := y.Done()
				if !overY {
					for th := 0; th < y.Threads(); th++ {
						if _, st := y.Pending(program.ThreadID(th)); st == program.Enabled {
							y.Step(program.ThreadID(th))
							break
						}
					}
				}
				if over && overY {
					break
				}
			}
			for _, z := range []program.Execution{x, y} {
				if got := z.Trace().Events; !slices.Equal(got, want) {
					t.Fatalf("%s, round %d: a copied start's trace differs from a fresh one's:\n got %v\nwant %v", f, round, got, want)
				}
			}
			c.(*copyStart).Observe(len(want))
		}
	}
}
