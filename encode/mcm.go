// Package encode holds the SMT encodings of mcr: the maximal causal model
// (MCM) of a trace as integer-difference-logic constraints over order
// variables (001_aa53da3bf10d3f4e.txt Section 3.2), the seed and property
// queries built on it (Sections 3.3-3.4), and their decoding to schedules.
// The cgo binding to libz3 lives in encode/z3.
package encode

import (
	"mcr/program"
)

// This file implements the trace structure the encodings share: per-event
// must-happen-before predecessors, writes per location, lock critical
// sections and RMW pairs. It is computed once per trace.

// MCM is the precomputed structure of one trace.
type MCM struct {
	T *program.Trace
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
	// Sections lists the critical sections per lock: acquire and release
	// positions, release -1 if the trace ends inside the section.
	Sections map[program.Loc][]Section
	// SectionOf maps an acquire's position to its section.
	SectionOf map[int32]Section
	// RMWWrite maps the read half of a read-modify-write to its write half.
	RMWWrite map[int32]int32
}

// Section is a critical section of a lock.
type Section struct {
	Acq, Rel int32
}

// NewMCM computes the structure of t.
func NewMCM(t *program.Trace) *MCM {
	m := &MCM{T: t, HB: program.MustHappenBefore(t), Pred: make([][]int32, len(t.Events)),
		Writes: map[program.Loc][]int32{}, Accesses: map[program.Loc][]int32{},
		Sections: map[program.Loc][]Section{}, SectionOf: map[int32]Section{}, RMWWrite: map[int32]int32{}}
	last := make(map[program.ThreadID]int32)
	forkOf := map[program.ThreadID]int32{}
	endOf := map[program.ThreadID]int32{}
	open := map[program.ThreadID]map[program.Loc]int32{}
	for i := range t.Events {
		e := &t.Events[i]
		pos := int32(i)
		if p, ok := last[e.Thread]; ok {
			m.Pred[i] = append(m.Pred[i], p)
		} else if f, ok := forkOf[e.Thread]; ok {
			m.Pred[i] = append(m.Pred[i], f)
		}
		last[e.Thread] = pos
		switch e.Kind {
		case program.Read, program.Write:
			m.Accesses[e.Loc] = append(m.Accesses[e.Loc], pos)
			if e.Kind == program.Write {
				m.Writes[e.Loc] = append(m.Writes[e.Loc], pos)
			}
			if e.Is(program.RMW) && i+1 < len(t.Events) {
				m.RMWWrite[pos] = pos + 1
			}
		case program.Fork:
			forkOf[program.ThreadID(e.Value)] = pos
		case program.End:
			endOf[e.Thread] = pos
		case program.Join:
			if end, ok := endOf[program.ThreadID(e.Value)]; ok {
				m.Pred[i] = append(m.Pred[i], end)
			}
		case program.Acquire:
			if open[e.Thread] == nil {
				open[e.Thread] = map[program.Loc]int32{}
			}
			open[e.Thread][e.Loc] = pos
		case program.Release:
			if a, ok := open[e.Thread][e.Loc]; ok {
				s := Section{a, pos}
				m.Sections[e.Loc] = append(m.Sections[e.Loc], s)
				m.SectionOf[a] = s
				delete(open[e.Thread], e.Loc)
			}
		}
	}
	m.WriteIndex = make(map[program.Loc]*program.WriteIndex, len(m.Writes))
	thread := func(w int32) program.ThreadID { return t.Events[w].Thread }
	for l, ws := range m.Writes {
		m.WriteIndex[l] = program.NewWriteIndex(ws, thread)
	}
	for _, locks := range open {
		for l, a := range locks {
			s := Section{a, -1}
			m.Sections[l] = append(m.Sections[l], s)
			m.SectionOf[a] = s
		}
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
