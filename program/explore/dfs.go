package explore

import (
	"context"

	"mcr/program"
)

// This file implements dfs: stateless exhaustive exploration of every
// interleaving of the events that other threads can observe (memory
// accesses, lock operations, fences), re-executing the program from the
// start for each one. It is the reference the reducing explorers are tested
// against, usable only on small programs.

// DFS explores every interleaving of p. At every state it also checks the
// race condition directly: two enabled threads whose pending events conflict
// can execute back to back, which is a data race (001_aa53da3bf10d3f4e.txt
// Section 3.3). The context bounds the search; on cancellation the result
// is partial (Stats.Complete false, Stopped "timeout" or "interrupted").
func DFS(ctx context.Context, p program.Program, opts Options) *Result {
	r := NewRecorder("dfs", opts)
	// stack[d] holds the enabled threads at depth d and which one is taken.
	type node struct {
		choices []program.ThreadID
		next    int
	}
	var stack []node
	for {
		if err := ctx.Err(); err != nil {
			r.Stop(StopReason(ctx))
			break
		}
		x := p.Start()
		depth := 0
		for {
			if over, _ := x.Done(); over {
				break
			}
			if depth == len(stack) {
				en := enabled(x)
				if t, ok := invisible(x, en); ok {
					en = []program.ThreadID{t}
				} else if raceCheck(r, x, en) {
					return r.Result()
				}
				stack = append(stack, node{choices: en})
			}
			n := &stack[depth]
			x.Step(n.choices[n.next])
			depth++
		}
		stack = stack[:depth]
		if r.Execution(x) {
			break
		}
		// backtrack to the deepest node with an untried choice
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			top.next++
			if top.next < len(top.choices) {
				break
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			break
		}
	}
	return r.Result()
}

// invisible returns an enabled thread whose pending event commutes with
// every event of every other thread: thread begin and end, fork, and an
// enabled join. Executing such an event first, without branching, is a
// persistent-set choice: it disables nothing and no other thread can
// observe its position, so the reachable outcomes, reads-from classes and
// races are exactly those of all interleavings.
func invisible(x program.Execution, en []program.ThreadID) (program.ThreadID, bool) {
	for _, t := range en {
		e, _ := x.Pending(t)
		switch e.Kind {
		case program.Begin, program.End, program.Fork, program.Join:
			return t, true
		}
	}
	return 0, false
}

// enabled lists the enabled threads of x in id order.
func enabled(x program.Execution) []program.ThreadID {
	var out []program.ThreadID
	for t := 0; t < x.Threads(); t++ {
		if _, st := x.Pending(program.ThreadID(t)); st == program.Enabled {
			out = append(out, program.ThreadID(t))
		}
	}
	return out
}

// raceCheck reports a race for every pair of enabled threads whose pending
// events conflict. The witness schedule is the current prefix followed by
// the two accesses. It returns true if the exploration should stop.
func raceCheck(r *Recorder, x program.Execution, en []program.ThreadID) bool {
	for i := 0; i < len(en); i++ {
		a, _ := x.Pending(en[i])
		if !a.Kind.IsAccess() {
			continue
		}
		for j := i + 1; j < len(en); j++ {
			b, _ := x.Pending(en[j])
			if !program.Conflicts(&a, &b) {
				continue
			}
			tr := x.Trace()
			f := RaceFinding(tr, &a, &b, append(tr.Schedule(), a.ID(), b.ID()))
			if r.Finding(f, tr.Threads) {
				return true
			}
		}
	}
	return false
}
