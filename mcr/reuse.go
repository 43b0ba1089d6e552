package mcr

import (
	"mcr/program"
)

// This file lets a node reuse an execution that is already known instead of
// executing its seed.
//
// MCR's completeness argument (001_aa53da3bf10d3f4e.txt, Theorem 1 and the
// proof of Algorithm 1) needs only that a node's execution is consistent
// with the node's read-value map: every read of the map occurs with its
// value. Any execution with that property generates a complete set of
// children for the node's space. So before a seed is executed, the
// explorer looks for an execution it has already run that satisfies the
// node's map, and uses it as the node's execution. A fresh execution then
// always belongs to a class no earlier execution had: had an earlier
// execution of the same class existed, it would have satisfied the map the
// seed guarantees, and been reused. This is what removes the repetition of
// classes plain MCR has (seed 000 Section 1): the tree may still reach a
// class by several read-value maps, but the class is executed once.

// readValue is one read of an execution with the value it returned.
type readValue struct {
	id    program.EventID
	value int64
}

// execIndex maps each (read, value) to the executed nodes in which that
// read returned that value, in the order they were executed.
type execIndex struct {
	byRead map[readValue][]*node
}

func newExecIndex() *execIndex { return &execIndex{byRead: map[readValue][]*node{}} }

// reusable reports whether n's execution can stand for another node: it
// must have run to its end. An execution cut by the event bound or a
// failed assume, or by a violation while other threads were still running,
// lacks the events those threads would still have executed, so a node
// whose space contains longer executions cannot take it as its
// representative. A violation after every other thread has ended (a
// final assertion in main) cuts nothing.
func reusable(n *node) bool {
	if n.err != nil {
		return false
	}
	out := n.out
	switch {
	case out.Kind == program.Normal || out.Kind == program.Deadlock:
		return true
	case out.Kind.IsViolation():
		return othersEnded(n.tr, out.Thread)
	}
	return false
}

// othersEnded reports whether every thread of tr but t has ended.
func othersEnded(tr *program.Trace, t program.ThreadID) bool {
	running := map[program.ThreadID]bool{}
	for i := range tr.Events {
		e := &tr.Events[i]
		switch {
		case e.Kind == program.End:
			delete(running, e.Thread)
		case e.Thread != t:
			running[e.Thread] = true
		}
	}
	return len(running) == 0
}

// add indexes the reads of n's execution.
func (ix *execIndex) add(n *node) {
	if !reusable(n) {
		return
	}
	for id, v := range n.reads {
		k := readValue{id, v}
		ix.byRead[k] = append(ix.byRead[k], n)
	}
}

// find returns the first indexed node whose execution satisfies fixed
// (every read of fixed occurs with its value), or nil. It scans the
// shortest posting list among fixed's reads.
func (ix *execIndex) find(fixed map[program.EventID]int64) *node {
	if len(fixed) == 0 {
		return nil
	}
	var best []*node
	first := true
	for id, v := range fixed {
		l := ix.byRead[readValue{id, v}]
		if len(l) == 0 {
			return nil
		}
		if first || len(l) < len(best) {
			best, first = l, false
		}
	}
	for _, n := range best {
		if satisfies(n.reads, fixed) {
			return n
		}
	}
	return nil
}

// readsOf maps each read of tr to the value it returned.
func readsOf(tr *program.Trace) map[program.EventID]int64 {
	out := map[program.EventID]int64{}
	for i := range tr.Events {
		if e := &tr.Events[i]; e.Kind == program.Read {
			out[e.ID()] = e.Value
		}
	}
	return out
}

// satisfies reports whether every read of fixed occurs in reads with its
// value.
func satisfies(reads, fixed map[program.EventID]int64) bool {
	for id, v := range fixed {
		if g, ok := reads[id]; !ok || g != v {
			return false
		}
	}
	return true
}

// unsatCache remembers, per execution, the seed queries (target read,
// value, required fixed reads) found unsatisfiable. Requiring more fixed
// reads only removes solutions, so a query of a node that reuses the
// execution is unsatisfiable too when a recorded one for the same target
// and value required a subset of its fixed reads. It is read when a level's
// queries are listed and written when they are merged, both in order, so
// what it skips does not depend on timing.
type unsatCache struct {
	byTarget map[unsatTarget][]unsatEntry
}

type unsatTarget struct {
	read  int32
	value int64
}

type unsatEntry struct {
	need []int32 // required fixed reads, sorted positions
	dead bool    // the relaxation was unsatisfiable too
}

type knowledge uint8

const (
	unknown knowledge = iota
	knownUnsat
	knownDead
)

func newUnsatCache() *unsatCache { return &unsatCache{byTarget: map[unsatTarget][]unsatEntry{}} }

func (c *unsatCache) add(r int32, v int64, need []int32, dead bool) {
	if c == nil {
		return
	}
	k := unsatTarget{r, v}
	c.byTarget[k] = append(c.byTarget[k], unsatEntry{need, dead})
}

// known tells what is known of the query (r, v) with the sorted fixed
// reads need.
func (c *unsatCache) known(r int32, v int64, need []int32) knowledge {
	if c == nil {
		return unknown
	}
	best := unknown
	for _, en := range c.byTarget[unsatTarget{r, v}] {
		if sortedSubset(en.need, need) {
			if en.dead {
				return knownDead
			}
			best = knownUnsat
		}
	}
	return best
}

// sortedSubset reports whether every element of a is in b (both sorted).
func sortedSubset(a, b []int32) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
	}
	return true
}
