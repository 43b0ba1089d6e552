package encode

// This file implements the order skeleton of the consistency encodings: the
// order variables (one per witness step), the unconditional order
// constraints between them (program order, fork and join, buffer-write
// before memory-write, FIFO store buffers, draining events), and their
// transitive closure, which the rules of consistency_rules.go use to drop
// atoms whose truth value the skeleton already decides.
//
// The event model is that of 004_fe58e94b2666f77b.txt Section 2.1 as
// program/INSTANCES.md extends it: under TSO/PSO a Write event is the
// buffer-write wB and its memory-write wM is a step of its own; under SC
// the memory-write is the write itself. Fence, Acquire, Release, Fork,
// Join, RMW reads and CAS reads (program.Drains) drain their thread's
// buffers; a Join also needs the joined thread's buffers empty; an RMW
// read, its write half and that
// write's memory-write are consecutive (000_1fb260b9b3a323b2.txt Appendix
// A), so they are one step here and share one variable.

import (
	"slices"

	"mcr/program"
)

// skeleton is the order skeleton of one instance. Node v is the Z3
// variable Var(v); nodes of thread events come first, in event order, then
// the memory-write nodes.
type skeleton struct {
	inst    *program.Instance
	relaxed bool // TSO or PSO: writes have memory-write nodes of their own

	// node is, per event (dense number), its node; an RMW write half has
	// the node of its read.
	node []int32
	// mem is, per Write event, the node of its memory-write (node[w] under
	// SC and for RMW write halves); -1 for other events.
	mem []int32
	// steps lists per node the witness steps it stands for, in order (one,
	// "r, w, flush w" for an RMW pair).
	steps [][]program.Step
	// succ lists per node the nodes it must precede (the unconditional
	// constraints O_a < O_b).
	succ [][]int32

	// words is the number of uint64 words of one row of reach; row v holds
	// the nodes that every witness places strictly after v.
	words int
	reach []uint64
}

// newSkeleton returns the skeleton of a checked instance, not closed yet
// (see close).
func newSkeleton(inst *program.Instance) *skeleton {
	n := len(inst.Events)
	s := &skeleton{inst: inst, relaxed: inst.Model != program.SC, node: make([]int32, n), mem: make([]int32, n)}
	for i := range inst.Events {
		e := &inst.Events[i]
		s.mem[i] = -1
		if e.Is(program.RMWWrite) { // Check guarantees the read half is i-1
			v := s.node[i-1]
			s.node[i], s.mem[i] = v, v
			s.steps[v] = append(s.steps[v], program.Step{Event: e.ID()})
			if s.relaxed {
				s.steps[v] = append(s.steps[v], program.Step{Event: e.ID(), Flush: true})
			}
			continue
		}
		s.node[i] = s.newNode(program.Step{Event: e.ID()})
		if e.Kind == program.Write {
			s.mem[i] = s.node[i]
		}
	}
	if s.relaxed {
		for i := range inst.Events {
			if e := &inst.Events[i]; e.Kind == program.Write && !e.Is(program.RMWWrite) {
				s.mem[i] = s.newNode(program.Step{Event: e.ID(), Flush: true})
				s.edge(s.node[i], s.mem[i])
			}
		}
	}
	s.threadEdges()
	return s
}

// newNode adds a node for step st.
func (s *skeleton) newNode(st program.Step) int32 {
	s.steps = append(s.steps, []program.Step{st})
	s.succ = append(s.succ, nil)
	return int32(len(s.steps) - 1)
}

// edge adds the constraint O_a < O_b.
func (s *skeleton) edge(a, b int32) {
	if a != b {
		s.succ[a] = append(s.succ[a], b)
	}
}

// threadEdges adds program order, fork and join, and under TSO/PSO the
// FIFO order of each store buffer and the flushes that draining events
// wait for. Only the last pending write of each buffer needs an edge to a
// draining event; the others precede it by FIFO.
func (s *skeleton) threadEdges() {
	inst := s.inst
	k := len(inst.Threads)
	// pending[t] holds per buffer of thread t (TSO: one; PSO: one per
	// location) its last write not yet known to be flushed, in the order
	// the buffers were first used (a slice, so that the formula does not
	// depend on map order).
	type last struct {
		buf program.Loc
		w   int32
	}
	pending := make([][]last, k)
	for t := range k {
		for i := inst.Start[t]; i < inst.Start[t+1]; i++ {
			e := &inst.Events[i]
			if i > inst.Start[t] {
				s.edge(s.node[i-1], s.node[i])
			}
			if !s.relaxed {
				continue
			}
			if e.Kind == program.Write {
				buf := program.Loc(0)
				if inst.Model == program.PSO {
					buf = e.Loc
				}
				at := slices.IndexFunc(pending[t], func(p last) bool { return p.buf == buf })
				if at < 0 {
					pending[t] = append(pending[t], last{buf, i})
				} else {
					s.edge(s.mem[pending[t][at].w], s.mem[i])
					pending[t][at].w = i
				}
			}
			if program.Drains(e) {
				for _, p := range pending[t] {
					s.edge(s.mem[p.w], s.node[i])
				}
				pending[t] = pending[t][:0]
			}
		}
	}
	for i := range inst.Events {
		e := &inst.Events[i]
		c := program.ThreadID(e.Value)
		if (e.Kind != program.Fork && e.Kind != program.Join) || inst.Start[c] == inst.Start[c+1] {
			continue
		}
		if e.Kind == program.Fork {
			s.edge(s.node[i], s.node[inst.Start[c]])
			continue
		}
		s.edge(s.node[inst.Start[c+1]-1], s.node[i])
		if s.relaxed {
			for _, p := range pending[c] {
				s.edge(s.mem[p.w], s.node[i])
			}
		}
	}
}

// reduced calls fn for every edge of succ that no other path implies (the
// transitive reduction, plus duplicates dropped): propagation leaves many
// implied edges, and Z3 need not see them.
func (s *skeleton) reduced(fn func(a, b int32)) {
	for a, out := range s.succ {
		for k, b := range out {
			implied := false
			for j, c := range out {
				if c == b && j < k || c != b && s.before(c, b) {
					implied = true
					break
				}
			}
			if !implied {
				fn(int32(a), b)
			}
		}
	}
}

// topo returns the nodes in a topological order of succ, and false if succ
// has a cycle.
func (s *skeleton) topo() ([]int32, bool) {
	n := len(s.succ)
	indeg := make([]int32, n)
	for _, out := range s.succ {
		for _, b := range out {
			indeg[b]++
		}
	}
	order := make([]int32, 0, n)
	for v := range n {
		if indeg[v] == 0 {
			order = append(order, int32(v))
		}
	}
	for k := 0; k < len(order); k++ {
		for _, b := range s.succ[order[k]] {
			if indeg[b]--; indeg[b] == 0 {
				order = append(order, b)
			}
		}
	}
	return order, len(order) == n
}

// close computes reach, the transitive closure of succ, in reverse
// topological order; it returns false if succ has a cycle (fork and join
// that wait for each other): then the instance has no witness. No node may
// be added afterwards.
func (s *skeleton) close() bool {
	order, ok := s.topo()
	if !ok {
		return false
	}
	n := len(s.succ)
	s.words = (n + 63) / 64
	s.reach = make([]uint64, n*s.words)
	for k := n - 1; k >= 0; k-- {
		v := int(order[k])
		row := s.row(v)
		for _, b := range s.succ[v] {
			row[b/64] |= 1 << (b % 64)
			for j, x := range s.row(int(b)) {
				row[j] |= x
			}
		}
	}
	return true
}

func (s *skeleton) row(v int) []uint64 { return s.reach[v*s.words : (v+1)*s.words] }

// add adds the constraint O_a < O_b and updates reach; it returns false if
// the skeleton already places b before a (a cycle: no witness).
func (s *skeleton) add(a, b int32) bool {
	if a == b || s.before(b, a) {
		return false
	}
	if s.before(a, b) {
		return true
	}
	s.edge(a, b)
	rb := s.row(int(b))
	for x := range s.succ {
		if x != int(a) && !s.before(int32(x), a) {
			continue
		}
		row := s.row(x)
		row[b/64] |= 1 << (b % 64)
		for j, y := range rb {
			row[j] |= y
		}
	}
	return true
}

// before reports whether every witness places node a strictly before node
// b.
func (s *skeleton) before(a, b int32) bool {
	return s.reach[int(a)*s.words+int(b)/64]>>(b%64)&1 != 0
}
