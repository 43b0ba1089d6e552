package explore

import (
	"context"
	"strings"
	"testing"

	"mcr/parallel"
	"mcr/program"
)

// TestExplorePanicIsInternalError: a panic inside an algorithm, on the
// calling goroutine or on a worker of parallel.Tree, ends Explore with an
// incomplete result that names it, not a crash.
func TestExplorePanicIsInternalError(t *testing.T) {
	onWorker := func() {
		tr := parallel.NewTree(2, func(int) bool { return false })
		tr.Run(func(root *parallel.Node[int]) {
			if !tr.TrySlot(nil) {
				t.Fatal("no free slot")
			}
			tr.Go(root.Child(), true, func() bool {
				var s []int
				_ = s[len(s)+3]
				return false
			}).Wait()
		})
	}
	for name, run := range map[string]func(){
		"caller": func() { panic("boom") },
		"worker": onWorker,
	} {
		a := &Algorithm{Name: "broken", Run: func(context.Context, program.Program, Options, Config) *Result {
			run()
			return &Result{Stats: Stats{Complete: true}}
		}}
		res := a.Explore(context.Background(), nil, Options{}, Config{})
		if res.Stats.Complete || !strings.HasPrefix(res.Stats.Stopped, "internal error") || !strings.Contains(res.Stats.Stopped, "algorithm_test.go") {
			t.Errorf("%s: complete %v, stopped %q", name, res.Stats.Complete, res.Stats.Stopped)
		}
	}
}
