package explicit

// This file is VC-DPOR's (vcdpor.go) shortcut for the part of an execution
// where main is the only thread: before main spawns its first thread, every
// execution runs the same events (one thread, no choice), so the first
// call runs main on in place instead of extending its annotated partial
// order read by read. Issue 13 case 1 (a 2,000-iteration loop in main)
// took over 120 s that way: each read cost a closure of the whole order,
// O(n^3) per read.
//
// Why this is the call Algorithm 5 would make. While main is alone, every
// event of the trace is main's or an initial write, all ordered by thread
// order (the initial writes go first), so a read r has one visible write,
// the last write w to its location; the CHB map is empty (it grows only at
// a read with a sibling read, and a lone thread has none), so ExtendRoot /
// ExtendLeaf give r exactly one value, val(w), with the good writes those
// of the location with that value (an acquire: the last release, which no
// acquire has yet), one placement (nothing is unordered) and a closure that
// adds nothing. So the recursion is a chain of single children, and running
// the thread on gives its last node. If main ends alone, that one trace is
// the whole search and no partial order is needed; if it spawns a thread,
// the events so far are added to the node at once (materialize).

import (
	"slices"

	"mcr/explicit/apo"
	"mcr/program"
)

// alone runs main on in x while it is the only thread (no Fork in the trace
// yet) and its next event is enabled and one vc supports; it stops after the
// first Fork, whose thread is the root (s.root; main if it spawns none:
// main alone runs the same events in every execution, so this is the root
// of every call). It returns the number of events of x's trace that are in n: 0
// if the execution is over (n is not needed then), else all of them, which
// n then holds, closed and realized; and true if the search must stop (ctx
// is done). n must be the empty root node and x a fresh execution.
func (s *vcSearch) alone(n *vcNode, x program.Execution) (int, bool) {
	forked := false
	s.root = 0 // main, unless it spawns a thread
	for steps := 0; !forked; steps++ {
		if steps&1023 == 1023 && s.ctx.Err() != nil {
			return 0, true
		}
		if over, _ := x.Done(); over {
			return 0, false
		}
		e, st := x.Pending(0)
		if st != program.Enabled || vcUnsupported(&e) != "" {
			break // the usual path goes on from there, or names the construct
		}
		if readLike(&e) {
			s.sink.Extra("forced_reads", 1)
		}
		before := len(x.Trace().Events)
		x.Step(0)
		for _, f := range x.Trace().Events[before:] {
			if f.Kind == program.Fork && !forked {
				forked, s.root = true, program.ThreadID(f.Value) // the root (Section 6, implementation detail 2)
			}
		}
	}
	s.materialize(n, x.Trace())
	return len(x.Trace().Events), false
}

// materialize adds the events of tr (main's alone, the last one a Fork
// unless main cannot go on alone) to the empty node n as the chain of single children would have: each read
// with the value it read and, for good writes, the writes of its location
// with that value (an acquire: the last release of its lock). It sets n.lin
// (the initial writes first, then tr's order), a linearization of the
// closed n.P.
func (s *vcSearch) materialize(n *vcNode, tr *program.Trace) {
	last := map[int32]int32{} // location -> its last write in n.P
	for i := range tr.Events {
		e := &tr.Events[i]
		if readLike(e) {
			n.ensureInit(s, tr, e)
		}
		k := n.add(s, tr, e)
		ev := n.P.Events[k]
		switch ev.Kind {
		case apo.Write:
			last[ev.Loc] = k
		case apo.Read:
			w, ok := last[ev.Loc]
			if !ok {
				w = n.init[ev.Loc]
			}
			good := []int32{w}
			if !e.Kind.IsLock() {
				good = nil
				for _, v := range n.P.Writes(ev.Loc) {
					if n.P.Events[v].Value == ev.Value {
						good = append(good, v)
					}
				}
			}
			n.P.SetGood(k, 1, good) // a leaf read: main spawns, so it is not the root
		}
	}
	n.lin = nil
	for _, w := range n.init {
		if w >= 0 {
			n.lin = append(n.lin, w)
		}
	}
	slices.Sort(n.lin)
	for k := range int32(n.P.Len()) {
		if n.ids[k].Thread >= 0 {
			n.lin = append(n.lin, k)
		}
	}
}
