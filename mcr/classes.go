package mcr

import (
	"context"
	"slices"

	"mcr/encode"
	"mcr/program"
)

// classes indexes the classes of finished executions, so that a seed whose
// child could only run one of them again is dropped (see classes.covers).
// An entry is keyed on the map of its execution's free reads; it holds
// every read with its value, sorted by event.
type classes map[string][][]readValue

type readValue struct {
	id program.EventID
	v  int64
}

// add records x's class if x ended normally with every thread finished:
// then every execution that gives x's reads x's values runs x's events
// (threads are deterministic between reads) and finishes as x did. A cut
// execution (an exit of main, a failure, a deadlock, a bound) is not
// recorded: others with the same reads may run further. free marks the
// free reads of m's trace (freeReads).
func (c classes) add(x program.Execution, m *encode.MCM, free []bool) {
	if over, out := x.Done(); !over || out.Kind != program.Normal {
		return
	}
	for t := 0; t < x.Threads(); t++ {
		if _, st := x.Pending(program.ThreadID(t)); st != program.Finished && st != program.Absent {
			return
		}
	}
	tr := m.T
	var all []readValue
	part := map[program.EventID]int64{}
	for i := range tr.Events {
		e := &tr.Events[i]
		if e.Kind != program.Read {
			continue
		}
		all = append(all, readValue{e.ID(), e.Value})
		if free[i] {
			part[e.ID()] = e.Value
		}
	}
	slices.SortFunc(all, func(a, b readValue) int { return compareIDs(a.id, b.id) })
	k := mapKey(tr, part)
	c[k] = append(c[k], all)
}

// covers reports whether a recorded execution E0 has F(E0) ⊆ fixed ⊆ all
// of E0, F(E0) being its free reads: then every execution that keeps fixed
// is E0's class (or a cut variant of it, which E0's deadlock queries
// cover). Take such an execution E' and the first read q of E' (in E'
// order) that reads another value than in E0: before q, E' runs events of
// E0 with E0's values, so q reads a write of E0 that no other write hides
// from it (freeReads), and q is free; but the free reads keep their values.
// free says which reads of fixed to key the lookup on (the free reads of
// the trace fixed comes from; a read free here and not in E0 only makes
// the lookup miss).
func (c classes) covers(fixed map[program.EventID]int64, free func(program.EventID) bool) bool {
	part := map[program.EventID]int64{}
	for id, v := range fixed {
		if free(id) {
			part[id] = v
		}
	}
	for _, all := range c[mapKey(nil, part)] {
		if within(fixed, all) {
			return true
		}
	}
	return false
}

// within reports whether every read of fixed is in all with its value.
func within(fixed map[program.EventID]int64, all []readValue) bool {
	for id, v := range fixed {
		i, ok := slices.BinarySearchFunc(all, id, func(a readValue, id program.EventID) int { return compareIDs(a.id, id) })
		if !ok || all[i].v != v {
			return false
		}
	}
	return true
}

func compareIDs(a, b program.EventID) int {
	if a.Thread != b.Thread {
		return int(a.Thread) - int(b.Thread)
	}
	return int(a.Index) - int(b.Index)
}

// freeReads marks the reads of m's trace that some write visible to them
// (not MHB-after the read, and not hidden by a write between it and the
// read in MHB order) or the visible initial value gives another value.
// When ctx is done it returns what it has; the caller sees ctx and stops.
func freeReads(ctx context.Context, m *encode.MCM) []bool {
	ev := m.T.Events
	free := make([]bool, len(ev))
	for q := range ev {
		if ev[q].Kind != program.Read {
			continue
		}
		if ctx.Err() != nil {
			break // a read costs O(visible writes): thousands in a spin loop
		}
		initVisible := visibleTo(m, int32(q), func(w int32) {
			if ev[w].Value != ev[q].Value {
				free[q] = true
			}
		})
		if initVisible && m.T.InitValue(ev[q].Loc) != ev[q].Value {
			free[q] = true
		}
	}
	return free
}
