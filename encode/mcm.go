// Package encode holds the SMT encodings of mcr: the maximal causal model
// (MCM) of a trace as integer-difference-logic constraints over order
// variables (001_aa53da3bf10d3f4e.txt Section 3.2), the seed and property
// queries built on it (Sections 3.3-3.4), and their decoding to schedules.
// The cgo binding to libz3 lives in encode/z3.
package encode

import (
	"mcr/program"
)

// This file implements the trace structure the encodings share, on top of
// the trace's program.TraceIndex: per-event must-happen-before
// predecessors, writes per location, lock critical sections and RMW
// pairs. It is computed once per trace.

// MCM is the precomputed structure of one trace.
type MCM struct {
	T *program.Trace
	// X is the trace's index: program order, forks, reads-from, clocks.
	X *program.TraceIndex
	// HB are the must-happen-before clocks (program order, fork->begin,
	// end->join): Φ_mhb.
	HB *program.Clocks
	// Pred lists each event's immediate MHB predecessors (program-order
	// predecessor, the fork of a begin, the end of a joined thread).
	Pred [][]int32
	// Writes lists the writes per location, in trace order.
	Writes map[program.Loc][]int32
	// WriteIndex groups Writes by thread, per location: which writes a
	// read may read from (program.WriteIndex.Visible with Before).
	WriteIndex map[program.Loc]*program.WriteIndex
	// Accesses lists reads and writes per location, in trace order.
	Accesses map[program.Loc][]int32
	// Sections lists the critical sections per lock (TraceIndex.Sections).
	Sections map[program.Loc][]Section
	// RMWWrite maps the read half of a read-modify-write to its write half.
	RMWWrite map[int32]int32
}

// Section is a critical section of a lock.
type Section = program.Section

// NewMCM computes the structure of t.
func NewMCM(t *program.Trace) *MCM {
	x := program.NewTraceIndex(t)
	m := &MCM{T: t, X: x, HB: x.Clocks(0), Pred: make([][]int32, len(t.Events)),
		Writes: map[program.Loc][]int32{}, Accesses: map[program.Loc][]int32{},
		Sections: x.Sections(), RMWWrite: map[int32]int32{}}
	for i := range t.Events {
		e := &t.Events[i]
		pos := int32(i)
		m.Pred[i] = x.MHBPreds(pos, nil)
		if e.Kind.IsAccess() {
			m.Accesses[e.Loc] = append(m.Accesses[e.Loc], pos)
			if e.Kind == program.Write {
				m.Writes[e.Loc] = append(m.Writes[e.Loc], pos)
			}
			if e.Is(program.RMW) && i+1 < len(t.Events) {
				m.RMWWrite[pos] = pos + 1
			}
		}
	}
	m.WriteIndex = make(map[program.Loc]*program.WriteIndex, len(m.Writes))
	thread := func(w int32) program.ThreadID { return t.Events[w].Thread }
	for l, ws := range m.Writes {
		m.WriteIndex[l] = program.NewWriteIndex(ws, thread)
	}
	return m
}

// Before reports a <_mhb b.
func (m *MCM) Before(a, b int32) bool { return m.HB.Before(int(a), int(b)) }

// Closure returns the MHB lower set of the given events (their causal
// past, themselves included) as a membership slice.
func (m *MCM) Closure(events ...int32) []bool {
	in := make([]bool, len(m.T.Events))
	stack := append([]int32(nil), events...)
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e < 0 || in[e] {
			continue
		}
		in[e] = true
		stack = append(stack, m.Pred[e]...)
	}
	return in
}
