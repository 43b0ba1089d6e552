package explore_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/randprog"
	"mcr/program/randprog/randtest"
)

// TestIdleIterationsLoseNothing checks the interpreter's stop at idle loop
// iterations (program/cfront/idle.go) against the loops run as written, on
// random programs with busy-waiting loops (randprog.SpinOptions): every
// finding kind and every end state that dfs reaches with the loops as
// written (spinning up to a small event bound) it also reaches when idle
// iterations stop their thread. An end state is each thread's events
// other than reads, with values: the reads of the iterations the stop
// drops are what differs. MCR_SPIN sets how many programs (default 60,
// 20 with -short).
func TestIdleIterationsLoseNothing(t *testing.T) {
	n := randtest.Count("MCR_SPIN", 60, 20)
	stopped, compared := 0, 0
	randtest.Each(t, "spin", randtest.Seeds(n), randprog.SpinOptions(), func(seed int64, name string, _ program.Program) {
		// Both with event bounds: a loop whose iterations have effects
		// spins to the bound either way. An execution of the loops as
		// written that ends within 8 events per thread ends within 8 when
		// idle iterations stop (it has fewer reads), so 16 loses nothing.
		src := randprog.Generate(seed, randprog.SpinOptions())
		load := func(o cfront.Options) program.Program {
			p, err := cfront.LoadSource(name, []byte(src), o)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		idleEnds, writtenEnds := map[string]bool{}, map[string]bool{}
		idle, ok1 := randtest.DFS(load(cfront.Options{MaxEvents: 16}), 5000, explore.Options{KeepGoing: true, Observe: endStates(idleEnds)})
		written, ok2 := randtest.DFS(load(cfront.Options{NoSpinAwait: true, MaxEvents: 8}), 5000, explore.Options{KeepGoing: true, Observe: endStates(writtenEnds)})
		if !ok1 && idle.Stats.Executions >= 5000 || !ok2 && written.Stats.Executions >= 5000 {
			return // too many interleavings of the spinning iterations
		}
		compared++
		if idle.Stats.Blocked > 0 {
			stopped++
		}
		for k := range writtenEnds {
			if !idleEnds[k] {
				t.Errorf("%s: end state %s reached by the loops as written, not with idle stops", name, k)
			}
		}
		for _, k := range written.FindingKinds() {
			if !slices.Contains(idle.FindingKinds(), k) {
				t.Errorf("%s: finding %s with the loops as written (%v), not with idle stops (%v)", name, k, written.FindingKinds(), idle.FindingKinds())
			}
		}
	})
	t.Logf("%d programs, %d compared, %d with blocked executions", n, compared, stopped)
}

// endStates records the end state of every execution that ended normally
// or in a deadlock: per thread, its events other than reads.
func endStates(into map[string]bool) func(program.Execution) {
	return func(x program.Execution) {
		if _, out := x.Done(); out.Kind != program.Normal && out.Kind != program.Deadlock {
			return
		}
		tr := x.Trace()
		var b strings.Builder
		for th, idx := range tr.Index() {
			fmt.Fprintf(&b, "%s[", tr.Threads[th].Name)
			for _, i := range idx {
				if e := &tr.Events[i]; e.Kind != program.Read {
					fmt.Fprintf(&b, "%s%d,", e.Kind, e.Value)
				}
			}
			b.WriteString("]")
		}
		into[b.String()] = true
	}
}
