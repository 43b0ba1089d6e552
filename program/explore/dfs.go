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
//
// Under TSO and PSO (program.Buffered executions) the flushes of buffered
// writes are steps of their own: dfs interleaves them with the threads'
// events in every way, which makes it the ground truth per memory model.

// DFS explores every interleaving of p. At every state it also checks the
// race condition directly: two enabled threads whose pending events conflict
// can execute back to back, which is a data race (001_aa53da3bf10d3f4e.txt
// Section 3.3). The context bounds the search; on cancellation the result
// is partial (Stats.Complete false, Stopped "timeout" or "interrupted").
func DFS(ctx context.Context, p program.Program, opts Options) *Result {
	r := NewRecorder("dfs", opts)
	// stack[d] holds the steps enabled at depth d (threads' next events,
	// flushes) and which one is taken.
	type node struct {
		choices []program.EventID
		next    int
	}
	var stack []node
	var scratch raceScratch
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
				en := enabledSteps(x)
				if t, ok := invisible(x, en); ok {
					en = []program.EventID{t}
				} else if scratch.check(r, x, en) {
					return r.Result()
				}
				stack = append(stack, node{choices: en})
			}
			n := &stack[depth]
			program.Do(x, n.choices[n.next])
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
//
// Under TSO and PSO these events touch no memory and no buffer either, and
// the ones that need their thread's buffer empty (fork, join, end) are
// enabled only once it is: they commute with every flush too.
func invisible(x program.Execution, en []program.EventID) (program.EventID, bool) {
	for _, s := range en {
		if s.IsFlush() {
			continue
		}
		e, _ := x.Pending(s.Thread)
		switch e.Kind {
		case program.Begin, program.End, program.Fork, program.Join:
			return s, true
		}
	}
	return program.EventID{}, false
}

// enabledSteps lists the steps x can take: the pending events of the
// enabled threads in id order, then the flushes it can execute (TSO, PSO).
func enabledSteps(x program.Execution) []program.EventID {
	var out []program.EventID
	for t := 0; t < x.Threads(); t++ {
		if e, st := x.Pending(program.ThreadID(t)); st == program.Enabled {
			out = append(out, program.EventID{Thread: program.ThreadID(t), Index: e.Index})
		}
	}
	if b, ok := x.(program.Buffered); ok {
		out = b.Flushes(out)
	}
	return out
}

// raceScratch holds raceCheck's buffers, reused from node to node.
type raceScratch struct {
	acc []program.Event
	ids []program.EventID
}

// check reports a race for every pair of enabled steps whose memory
// accesses conflict. The witness schedule is the current prefix followed
// by the two steps. It returns true if the exploration should stop.
//
// Under TSO and PSO a race is on memory: the accesses are the reads that
// read memory (not answered by their own store buffer) and the flushes
// (memory-writes); a buffer-write touches only its thread's buffer.
func (sc *raceScratch) check(r *Recorder, x program.Execution, en []program.EventID) bool {
	acc, ids := sc.acc[:0], sc.ids[:0]
	defer func() { sc.acc, sc.ids = acc, ids }()
	b, buffered := x.(program.Buffered)
	buffered = buffered && b.Model() != program.SC
	for _, s := range en {
		var a program.Event
		switch {
		case s.IsFlush():
			a = flushAccess(x, s)
		default:
			a, _ = x.Pending(s.Thread)
			if buffered && (a.Kind == program.Write || a.Kind == program.Read && b.Forwards(s.Thread)) {
				continue
			}
		}
		if a.Kind.IsAccess() {
			acc, ids = append(acc, a), append(ids, s)
		}
	}
	for i := range acc {
		for j := i + 1; j < len(acc); j++ {
			if !program.Conflicts(&acc[i], &acc[j]) {
				continue
			}
			tr := x.Trace()
			f := RaceFinding(tr, &acc[i], &acc[j], append(tr.Schedule(), ids[i], ids[j]))
			if r.Finding(f, tr.Threads) {
				return true
			}
		}
	}
	return false
}

// flushAccess returns the memory access flush f performs: its write,
// found in the trace, as a Write event.
func flushAccess(x program.Execution, f program.EventID) program.Event {
	tr := x.Trace()
	w := f.Flushed()
	for i := len(tr.Events) - 1; i >= 0; i-- {
		if e := tr.Events[i]; e.ID() == w {
			return e
		}
	}
	return program.Event{Kind: program.Fence} // not found: no access
}
