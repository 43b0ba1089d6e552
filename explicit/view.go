package explicit

// This file implements the dense view of an instance that every decider
// works on (per-event data in parallel slices), the store-buffer chains of
// TSO/PSO, and the trail that turns a search path back into a witness.

import (
	"context"
	"encoding/binary"
	"fmt"

	"mcr/program"
)

// view is the dense form of a checked instance. Events are numbered as in
// program.Instance; thread t's events are start[t]..start[t+1]-1.
type view struct {
	inst    *program.Instance
	n, k, d int
	th      []int32 // thread of each event
	idx     []int32 // index of each event within its thread
	kind    []program.Kind
	loc     []int32
	rmw     []bool    // read half of an RMW pair (its write half is the next event)
	start   []int32   // per thread, k+1 entries
	src     [][]int32 // allowed sources (program.Instance.Sources)
	forkOf  []int32   // per thread: the fork event that creates it, or -1
	joinOf  []int32   // per event: the thread a join waits for, or -1
	readers [][]int32 // per write, release or acquire: the reads, acquires or failed trylocks that may read it
	initRd  [][]int32 // per location or lock: the reads or acquires that may read init
	crit    [][]crit  // per lock: its critical sections
	ownPrev []int32   // per read: the latest write of its thread to its location before it, or -1
	sec     []int32   // per acquire or release: its critical section (index into crit of its lock), else -1
	anyFail [][]int32 // per lock: its failed trylocks without sources (good writes: any holder)

	// Store-buffer chains (TSO: one per thread; PSO: one per thread and
	// location; SC: none): the writes of each chain in program order.
	chains  [][]int32
	chainOf []int32   // per write: its chain
	ord     []int32   // per write: its position in its chain
	thChain [][]int32 // per thread: its chains

	flushBase []int32 // see flushNode

	ctx context.Context // checked once per fixpoint pass of closure and saturation
}

// stopped returns the context's error, if any, naming the phase.
func (v *view) stopped(phase string) error {
	if v.ctx == nil {
		return nil
	}
	if err := v.ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", phase, err)
	}
	return nil
}

// crit is a critical section: acquire and release events (rel = -1 if the
// thread never releases).
type crit struct{ acq, rel int32 }

func newView(inst *program.Instance) *view {
	n, k, d := len(inst.Events), len(inst.Threads), len(inst.Locs)
	v := &view{inst: inst, n: n, k: k, d: d, th: make([]int32, n), idx: make([]int32, n), kind: make([]program.Kind, n),
		loc: make([]int32, n), rmw: make([]bool, n), start: inst.Start, src: inst.Sources, forkOf: make([]int32, k),
		joinOf: make([]int32, n), readers: make([][]int32, n), initRd: make([][]int32, d), crit: make([][]crit, d),
		ownPrev: make([]int32, n), chainOf: make([]int32, n), ord: make([]int32, n), thChain: make([][]int32, k),
		sec: make([]int32, n), anyFail: make([][]int32, d)}
	for t := range v.forkOf {
		v.forkOf[t] = -1
	}
	lastW := make(map[[2]int32]int32) // (thread, loc) -> latest write so far
	open := make(map[[2]int32]int)    // (thread, lock) -> index in crit of the open section
	chainID := make(map[[2]int32]int32)
	for i := range inst.Events {
		e := &inst.Events[i]
		v.th[i], v.idx[i], v.kind[i], v.loc[i] = int32(e.Thread), e.Index, e.Kind, int32(e.Loc)
		v.rmw[i] = e.Kind == program.Read && e.Is(program.RMW)
		v.joinOf[i], v.ownPrev[i], v.chainOf[i], v.ord[i], v.sec[i] = -1, -1, -1, -1, -1
		tl := [2]int32{v.th[i], v.loc[i]}
		switch e.Kind {
		case program.Fork:
			v.forkOf[e.Value] = int32(i)
		case program.Join:
			v.joinOf[i] = int32(e.Value)
		case program.Read:
			if w, ok := lastW[tl]; ok {
				v.ownPrev[i] = w
			}
		case program.Write:
			lastW[tl] = int32(i)
			if inst.Model != program.SC {
				key := [2]int32{v.th[i], -1}
				if inst.Model == program.PSO {
					key = tl
				}
				c, ok := chainID[key]
				if !ok {
					c = int32(len(v.chains))
					chainID[key] = c
					v.chains = append(v.chains, nil)
					v.thChain[v.th[i]] = append(v.thChain[v.th[i]], c)
				}
				v.chainOf[i], v.ord[i] = c, int32(len(v.chains[c]))
				v.chains[c] = append(v.chains[c], int32(i))
			}
		case program.Acquire:
			open[tl] = len(v.crit[e.Loc])
			v.sec[i] = int32(open[tl])
			v.crit[e.Loc] = append(v.crit[e.Loc], crit{acq: int32(i), rel: -1})
		case program.Release:
			v.crit[e.Loc][open[tl]].rel = int32(i)
			v.sec[i] = int32(open[tl])
		case program.LockFail:
			if v.src[i] == nil {
				v.anyFail[e.Loc] = append(v.anyFail[e.Loc], int32(i))
			}
		}
		for _, s := range v.src[i] {
			if s == program.InitSource {
				v.initRd[e.Loc] = append(v.initRd[e.Loc], int32(i))
			} else {
				v.readers[s] = append(v.readers[s], int32(i))
			}
		}
	}
	return v
}

// end returns the number of events of thread t.
func (v *view) end(t int32) int32 { return v.start[t+1] - v.start[t] }

// done reports whether event e (or init, e < 0) is among the executed
// events given by the per-thread prefix lengths.
func (v *view) done(e int32, prefix []int32) bool {
	return e < 0 || prefix[v.th[e]] > v.idx[e]
}

// lowerOK reports whether e, the next event of its thread, may follow the
// prefix as far as fork and join go: its thread is forked, and a join's
// thread has run to its end.
func (v *view) lowerOK(e int32, prefix []int32) bool {
	if v.idx[e] == 0 {
		if f := v.forkOf[v.th[e]]; f >= 0 && !v.done(f, prefix) {
			return false
		}
	}
	if j := v.joinOf[e]; j >= 0 && prefix[j] < v.end(j) {
		return false
	}
	return true
}

// lockFree reports whether lock l is free after the prefix.
func (v *view) lockFree(l int32, prefix []int32) bool {
	for _, c := range v.crit[l] {
		p := prefix[v.th[c.acq]]
		if p > v.idx[c.acq] && (c.rel < 0 || p <= v.idx[c.rel]) {
			return false
		}
	}
	return true
}

// holder returns the acquire whose section of lock l is open after the
// prefix, or -1 if l is free.
func (v *view) holder(l int32, prefix []int32) int32 {
	for _, c := range v.crit[l] {
		p := prefix[v.th[c.acq]]
		if p > v.idx[c.acq] && (c.rel < 0 || p <= v.idx[c.rel]) {
			return c.acq
		}
	}
	return -1
}

// failOK reports whether failed trylock e may execute after the prefix:
// its lock is held, under an acquire it may read (one of its sources; any
// if it has none). 002_29f9f830801bf5b9.txt Section 7: a trylock is an RMW
// of its lock, and a failed one reads the acquire whose section it falls
// in. Every explicit decider asks this one predicate.
func (v *view) failOK(e int32, prefix []int32) bool {
	h := v.holder(v.loc[e], prefix)
	return h >= 0 && (v.src[e] == nil || contains(v.src[e], h))
}

// sectionWanted reports whether release rel must wait: an unexecuted
// failed trylock may still read the acquire of the section rel closes (it
// names that acquire, or it has no sources). Closing the section would
// disable it for good, so a decider that executes releases eagerly
// (VerifyTSO, the good-writes search) holds them back.
func (v *view) sectionWanted(rel int32, prefix []int32) bool {
	l := v.loc[rel]
	for _, f := range v.readers[v.crit[l][v.sec[rel]].acq] {
		if !v.done(f, prefix) {
			return true
		}
	}
	for _, f := range v.anyFail[l] {
		if !v.done(f, prefix) {
			return true
		}
	}
	return false
}

// drains reports whether e executes only with its thread's buffers empty
// under TSO/PSO (program.INSTANCES.md).
func (v *view) drains(e int32) bool {
	return program.Drains(&v.inst.Events[e])
}

// allDone reports whether every source of event e has been executed (init
// counts as executed): with good writes, a read whose sources are all
// executed and which has not executed itself holds its location (seed 000
// Section 4.1).
func (v *view) allDone(e int32, prefix []int32) bool {
	for _, s := range v.src[e] {
		if !v.done(s, prefix) {
			return false
		}
	}
	return true
}

func contains(set []int32, x int32) bool {
	for _, s := range set {
		if s == x {
			return true
		}
	}
	return false
}

// trail records the steps of a search as a tree: each node is one step
// with a parent, so that a path is kept in O(1) per step.
type trail struct {
	parent []int32
	code   []int32 // event<<1 | flush
}

func (tr *trail) add(parent, e int32, flush bool) int32 {
	c := e << 1
	if flush {
		c |= 1
	}
	tr.parent = append(tr.parent, parent)
	tr.code = append(tr.code, c)
	return int32(len(tr.parent) - 1)
}

// witness returns the steps from the root to node (-1 is the empty path).
func (tr *trail) witness(v *view, node int32) program.Witness {
	var rev []int32
	for ; node >= 0; node = tr.parent[node] {
		rev = append(rev, tr.code[node])
	}
	w := make(program.Witness, len(rev))
	for i, c := range rev {
		e := c >> 1
		w[len(rev)-1-i] = program.Step{Event: program.EventID{Thread: program.ThreadID(v.th[e]), Index: v.idx[e]}, Flush: c&1 == 1}
	}
	return w
}

// key encodes int32 vectors as a map key.
func key(buf []byte, parts ...[]int32) []byte {
	buf = buf[:0]
	for _, p := range parts {
		for _, x := range p {
			buf = binary.AppendVarint(buf, int64(x))
		}
	}
	return buf
}

// ticker checks ctx every few thousand states.
type ticker struct {
	ctx  context.Context
	name string
	n    int
}

func (t *ticker) tick() error {
	t.n++
	if t.n&4095 == 1 { // the first tick too: a query asked after ctx ended stops at once
		if err := t.ctx.Err(); err != nil {
			return fmt.Errorf("%s: stopped after %d states: %w", t.name, t.n, err)
		}
	}
	return nil
}

// unsupported returns the error for an instance a decider does not handle.
func unsupported(name string, inst *program.Instance) error {
	return fmt.Errorf("%s: %w: %s instance under %s", name, program.ErrUnsupported, inst.Constraint, inst.Model)
}
