package program

// This file implements ValidateWitness, the one independent validator every
// decider's answer passes through. It replays the witness on an explicit
// operational machine (per-thread positions, store buffers, memory, lock
// holders) that shares no code with the deciders of package explicit.

import (
	"fmt"
	"slices"
)

// ValidateWitness checks that w is a witness of inst: it contains every
// event once (and under TSO/PSO every write's flush once, after the write),
// follows program order, fork and join, lock semantics (no acquire of a
// held lock), RMW atomicity and the store-buffer semantics of the memory
// model, and every read reads from one of its sources (every constrained
// acquire finds one of its releases last). The error names the first
// offending step and why.
func ValidateWitness(inst *Instance, w Witness) error {
	if err := inst.Check(); err != nil {
		return fmt.Errorf("invalid instance: %w", err)
	}
	m := newMachine(inst)
	for k, s := range w {
		if err := m.check(s); err != nil {
			return fmt.Errorf("witness step %d (%s): %v", k, inst.StepString(s), err)
		}
		m.apply(s)
	}
	return m.finish()
}

// machine is the operational semantics of an instance (INSTANCES.md).
type machine struct {
	inst     *Instance
	next     []int32   // per thread: index of its next event
	forkedBy []int32   // per thread: dense number of the fork creating it, -1 if none
	buf      [][]int32 // per thread: executed, unflushed writes in program order
	mem      []int32   // per location: the last flushed write, or InitSource
	lastRel  []int32   // per lock: the last release, or InitSource
	holder   []int32   // per lock: the holding thread, or -1
	holdAcq  []int32   // per lock: the acquire that holds it, or -1
	atomic   []Step    // steps that must come next (the rest of an RMW)
	free     bool      // ignore Sources (used to generate executions)
}

func newMachine(inst *Instance) *machine {
	k, d := len(inst.Threads), len(inst.Locs)
	m := &machine{inst: inst, next: make([]int32, k), forkedBy: make([]int32, k), buf: make([][]int32, k),
		mem: make([]int32, d), lastRel: make([]int32, d), holder: make([]int32, d), holdAcq: make([]int32, d)}
	for t := range m.forkedBy {
		m.forkedBy[t] = -1
	}
	for i := range inst.Events {
		if e := &inst.Events[i]; e.Kind == Fork {
			m.forkedBy[e.Value] = int32(i)
		}
	}
	for l := range d {
		m.mem[l], m.lastRel[l], m.holder[l], m.holdAcq[l] = InitSource, InitSource, -1, -1
	}
	return m
}

func (m *machine) relaxed() bool { return m.inst.Model != SC }

// Drains reports whether e executes only when its thread's store buffers
// are empty (TSO/PSO; INSTANCES.md): fences, lock events, fork, join and
// the reads of read-modify-writes and compare-and-swaps, successful or
// not. They are locked instructions on x86 (seq_cst), which drain the
// buffer; a failed CAS writes nothing but drains all the same. So do the
// reads flagged Drain (awaits), as the executor runs them. Every decider
// and the validator ask this one predicate.
func Drains(e *Event) bool {
	switch e.Kind {
	case Fence, Acquire, Release, LockFail, Fork, Join:
		return true
	case Read:
		return e.Flags&(RMW|CAS|Drain) != 0
	}
	return false
}

// source returns what read i (of thread t) would read now: the thread's
// latest unflushed write to the location, else memory.
func (m *machine) source(i int32) int32 {
	e := &m.inst.Events[i]
	b := m.buf[e.Thread]
	for j := len(b) - 1; j >= 0; j-- {
		if m.inst.Events[b[j]].Loc == e.Loc {
			return b[j]
		}
	}
	return m.mem[e.Loc]
}

func (m *machine) executed(i int32) bool {
	e := &m.inst.Events[i]
	return m.next[e.Thread] > e.Index
}

func (m *machine) check(s Step) error {
	inst := m.inst
	if len(m.atomic) > 0 && s != m.atomic[0] {
		return fmt.Errorf("breaks an atomic read-modify-write: %s must come next", inst.StepString(m.atomic[0]))
	}
	i := inst.Dense(s.Event)
	if i < 0 {
		return fmt.Errorf("no such event")
	}
	e := &inst.Events[i]
	t := e.Thread
	if s.Flush {
		if !m.relaxed() {
			return fmt.Errorf("flush step under SC")
		}
		if e.Kind != Write {
			return fmt.Errorf("flush of a %s", e.Kind)
		}
		b := m.buf[t]
		at := slices.Index(b, i)
		if at < 0 {
			if m.executed(i) {
				return fmt.Errorf("write already flushed")
			}
			return fmt.Errorf("write not executed yet")
		}
		for _, j := range b[:at] {
			if inst.Model == TSO || inst.Events[j].Loc == e.Loc {
				return fmt.Errorf("older write %s is still in the buffer (FIFO)", inst.Ref(inst.Events[j].ID()))
			}
		}
		return nil
	}
	if n := m.next[t]; e.Index != n {
		if e.Index < n {
			return fmt.Errorf("event executed twice")
		}
		return fmt.Errorf("program order: %s is at event %d", inst.ThreadName(t), n)
	}
	if f := m.forkedBy[t]; f >= 0 && !m.executed(f) {
		return fmt.Errorf("thread %s not forked yet (%s)", inst.ThreadName(t), inst.Describe(f))
	}
	if m.relaxed() && Drains(e) && len(m.buf[t]) > 0 {
		return fmt.Errorf("%s needs an empty store buffer, %s is not flushed", e.Kind, inst.Ref(inst.Events[m.buf[t][0]].ID()))
	}
	switch e.Kind {
	case Read:
		src := m.source(i)
		if !m.free && !slices.Contains(inst.Sources[i], src) {
			return fmt.Errorf("read of %s reads from %s, allowed: %s", inst.LocName(e.Loc), inst.SourceRef(src), m.refs(inst.Sources[i]))
		}
	case Write:
		if e.Is(RMWWrite) && (len(m.atomic) == 0 || m.atomic[0].Event != s.Event) {
			return fmt.Errorf("rmw write half without its read just before")
		}
	case Acquire:
		if h := m.holder[e.Loc]; h >= 0 {
			return fmt.Errorf("acquires %s, held by %s", inst.LocName(e.Loc), inst.ThreadName(ThreadID(h)))
		}
		if src := inst.Sources[i]; !m.free && src != nil && !slices.Contains(src, m.lastRel[e.Loc]) {
			return fmt.Errorf("acquire of %s follows %s, allowed: %s", inst.LocName(e.Loc), inst.SourceRef(m.lastRel[e.Loc]), m.refs(src))
		}
	case Release:
		if m.holder[e.Loc] != int32(t) {
			return fmt.Errorf("releases %s, which %s does not hold", inst.LocName(e.Loc), inst.ThreadName(t))
		}
	case LockFail:
		// A failed trylock needs the lock held by another thread, under
		// the acquire it reads from (002_29f9f830801bf5b9.txt Section 7:
		// a trylock is an RMW of the lock, a failed one a failed CAS
		// that reads the acquire's write).
		a := m.holdAcq[e.Loc]
		if a < 0 {
			return fmt.Errorf("failed trylock of %s, which is free", inst.LocName(e.Loc))
		}
		if src := inst.Sources[i]; !m.free && src != nil && !slices.Contains(src, a) {
			return fmt.Errorf("failed trylock of %s falls in the section of %s, allowed: %s", inst.LocName(e.Loc), inst.Ref(inst.Events[a].ID()), m.refs(src))
		}
	case Join:
		j := ThreadID(e.Value)
		if n := int32(len(inst.Thread(j))); m.next[j] < n {
			return fmt.Errorf("joins %s, which is at event %d of %d", inst.ThreadName(j), m.next[j], n)
		}
		if m.relaxed() && len(m.buf[j]) > 0 {
			return fmt.Errorf("joins %s, whose write %s is not flushed", inst.ThreadName(j), inst.Ref(inst.Events[m.buf[j][0]].ID()))
		}
	}
	return nil
}

func (m *machine) apply(s Step) {
	inst := m.inst
	i := inst.Dense(s.Event)
	e := &inst.Events[i]
	t := e.Thread
	if len(m.atomic) > 0 {
		m.atomic = m.atomic[1:]
	}
	if s.Flush {
		at := slices.Index(m.buf[t], i)
		m.buf[t] = slices.Delete(m.buf[t], at, at+1)
		m.mem[e.Loc] = i
		return
	}
	m.next[t]++
	switch e.Kind {
	case Read:
		if e.Is(RMW) {
			w := inst.Events[i+1].ID()
			m.atomic = append(m.atomic[:0], Step{Event: w})
			if m.relaxed() {
				m.atomic = append(m.atomic, Step{Event: w, Flush: true})
			}
		}
	case Write:
		if m.relaxed() {
			m.buf[t] = append(m.buf[t], i)
		} else {
			m.mem[e.Loc] = i
		}
	case Acquire:
		m.holder[e.Loc], m.holdAcq[e.Loc] = int32(t), i
	case Release:
		m.holder[e.Loc], m.holdAcq[e.Loc] = -1, -1
		m.lastRel[e.Loc] = i
	}
}

func (m *machine) finish() error {
	inst := m.inst
	if len(m.atomic) > 0 {
		return fmt.Errorf("witness ends inside a read-modify-write: %s missing", inst.StepString(m.atomic[0]))
	}
	for t := range inst.Threads {
		th := inst.Thread(ThreadID(t))
		if n := m.next[t]; int(n) < len(th) {
			return fmt.Errorf("witness ends with %s at event %d of %d: %s never executes", inst.Threads[t], n, len(th), inst.Describe(inst.Start[t]+n))
		}
		if len(m.buf[t]) > 0 {
			return fmt.Errorf("witness ends with write %s never flushed", inst.Ref(inst.Events[m.buf[t][0]].ID()))
		}
	}
	return nil
}

func (m *machine) refs(src []int32) string {
	if src == nil {
		return "any"
	}
	out := "["
	for j, s := range src {
		if j > 0 {
			out += " "
		}
		out += m.inst.SourceRef(s)
	}
	return out + "]"
}

// enabled appends to dst every step that can come next, ignoring Sources
// when the machine is free.
func (m *machine) enabled(dst []Step) []Step {
	inst := m.inst
	for t := range inst.Threads {
		if n := m.next[t]; inst.Start[t]+n < inst.Start[t+1] {
			s := Step{Event: EventID{ThreadID(t), n}}
			if m.check(s) == nil {
				dst = append(dst, s)
			}
		}
		for at, j := range m.buf[t] {
			first := true
			for _, o := range m.buf[t][:at] {
				if inst.Model == TSO || inst.Events[o].Loc == inst.Events[j].Loc {
					first = false
					break
				}
			}
			if first && (len(m.atomic) == 0 || m.atomic[0] == Step{Event: inst.Events[j].ID(), Flush: true}) {
				dst = append(dst, Step{Event: inst.Events[j].ID(), Flush: true})
			}
		}
	}
	return dst
}
