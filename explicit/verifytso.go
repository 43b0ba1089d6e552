package explicit

// This file implements VerifyTSO, Algorithm 1 of seed 004
// (004_fe58e94b2666f77b.txt, Section 4.1): deciding VTSO-rf by enumerating
// the lower sets of the memory-writes (W^M(X), PO), one representative
// trace each that is maximal in thread events. With k threads and n events
// there are at most n^k such lower sets: O(k * n^(k+1)) time (Theorem 3.1).
//
// Thread events are executed as soon as they are TSO-executable (lines
// 4-5): a read when its remote memory-write is in memory, a fence (and
// every event that drains the buffer: acquire, release, fork, join, RMW)
// when its thread's buffer is empty. Memory-writes are enumerated (lines
// 7-10) when TSO-executable: their location is not held by an earlier
// memory-write that a remaining read must still see (a), and every remote
// read of them has its own earlier writes to the location in memory (b).
//
// Extensions (Remark 1 and INSTANCES.md): a lock is a location; a release
// is an atomic write, blocked while its lock is held, an acquire reads the
// release it follows (and needs the lock free). An RMW pair executes with
// an empty buffer as one step "read, write, memory-write", enumerated with
// the memory-writes. A failed trylock (program.LockFail; 002_29f9f830801bf5b9.txt
// Section 7) drains its buffer and needs its lock held by the acquire it
// reads (view.failOK); the release of that section waits for it
// (view.sectionWanted), as it comes after it in every witness. Closure
// (closure.go, Section 4.3) restricts every step to P-minimal ones.

import (
	"context"

	"mcr/program"
)

// VerifyTSO is the VerifyTSO decider (TSO, reads-from).
type VerifyTSO struct {
	NoClosure bool // switch closure off (ablation, seed 004 Section 6)
}

// Name implements program.Decider.
func (d *VerifyTSO) Name() string { return "verifytso" }

// Decide implements program.Decider.
func (d *VerifyTSO) Decide(ctx context.Context, inst *program.Instance) (program.InstanceAnswer, error) {
	return program.NewInstanceAnswer(d.decide(ctx, inst))
}

// decide is Decide's search: a witness and true, or false if there is none.
func (d *VerifyTSO) decide(ctx context.Context, inst *program.Instance) (program.Witness, bool, error) {
	if inst.Model != program.TSO {
		return nil, false, unsupported("verifytso", inst)
	}
	if inst.Constraint == program.GoodWrites { // verifyrelaxed_good.go
		return decideGoodRelaxed(ctx, inst, "verifytso")
	}
	if err := inst.Check(); err != nil {
		return nil, false, err
	}
	r, ok, err := newRelaxed(inst, d.NoClosure, "verifytso", ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	return r.verifyTSO()
}

// relaxed is the state shared by VerifyTSO and VerifyPSO. A search state
// is one vector: the k per-thread prefix lengths, then the number of
// flushed writes of each store-buffer chain (the chain layout of
// closureRelaxed, so that it is also the done vector of the closure).
type relaxed struct {
	v         *view
	p         *porder // closure, or nil
	tick      ticker
	readersOf [][]int32 // per location or lock: its reads or acquires
	tr        trail
}

func newRelaxed(inst *program.Instance, noClosure bool, name string, ctx context.Context) (*relaxed, bool, error) {
	v := newView(inst)
	v.ctx = ctx
	r := &relaxed{v: v, tick: ticker{ctx: ctx, name: name}, readersOf: make([][]int32, v.d)}
	for e := range int32(v.n) {
		switch v.kind[e] {
		case program.Read:
			// Seed 004 Section 4 assumes wlog that a read of an own write
			// reads the last own write to the location before it, and a
			// read of init has none; otherwise there is no witness.
			s := v.src[e][0]
			if s == program.InitSource && v.ownPrev[e] >= 0 || s >= 0 && v.th[s] == v.th[e] && s != v.ownPrev[e] {
				return nil, false, nil
			}
			fallthrough
		case program.Acquire:
			r.readersOf[v.loc[e]] = append(r.readersOf[v.loc[e]], e)
		}
	}
	if !noClosure {
		p, ok, err := closureRelaxed(v)
		if err != nil || !ok {
			return nil, false, err
		}
		r.p = p
	}
	return r, true, nil
}

// flushed reports whether write w's memory-write is in state st.
func (r *relaxed) flushed(w int32, st []int32) bool {
	return st[r.v.k+int(r.v.chainOf[w])] > r.v.ord[w]
}

// visible reports whether source s is in memory in st: init, a flushed
// write, an executed release.
func (r *relaxed) visible(s int32, st []int32) bool {
	switch {
	case s < 0:
		return true
	case r.v.kind[s] == program.Release:
		return r.v.done(s, st)
	}
	return r.flushed(s, st)
}

// held reports whether location (or lock) l is held in st: a remaining
// read of it has its source in memory (which is then the last
// memory-write of l: no memory-write is executed while l is held).
func (r *relaxed) held(l int32, st []int32) bool {
	for _, e := range r.readersOf[l] {
		if !r.v.done(e, st) && r.visible(r.v.src[e][0], st) {
			return true
		}
	}
	return false
}

// emptyBuffers reports whether thread t has no executed, unflushed write.
func (r *relaxed) emptyBuffers(t int32, st []int32) bool {
	v := r.v
	for _, c := range v.thChain[t] {
		ws := v.chains[c]
		if f := st[v.k+int(c)]; int(f) < len(ws) && v.done(ws[f], st) {
			return false
		}
	}
	return true
}

// minimal reports whether node a may come next under closure.
func (r *relaxed) minimal(a int32, st []int32) bool {
	return r.p == nil || r.p.minimal(a, st)
}

// threadExecutable reports whether e, the next event of its thread, is a
// thread event executable in st (an RMW read is not: it goes with its
// memory-write).
func (r *relaxed) threadExecutable(e int32, st []int32) bool {
	v := r.v
	t := v.th[e]
	if v.rmw[e] || !v.lowerOK(e, st) || !r.minimal(e, st) {
		return false
	}
	if v.drains(e) && !r.emptyBuffers(t, st) {
		return false
	}
	if j := v.joinOf[e]; j >= 0 && !r.emptyBuffers(j, st) {
		return false
	}
	l := v.loc[e]
	switch v.kind[e] {
	case program.Read:
		// (1) A remote source must be in memory.
		if s := v.src[e][0]; s >= 0 && v.th[s] != t && !r.flushed(s, st) {
			return false
		}
	case program.Acquire:
		return v.lockFree(l, st) && r.visible(v.src[e][0], st)
	case program.Release:
		return !r.held(l, st) && !v.sectionWanted(e, st)
	case program.LockFail:
		return v.failOK(e, st)
	}
	return true
}

// flushExecutable reports whether the memory-write of w, the oldest
// unflushed write of its chain, is executable in st (conditions (2a) and
// (2b)); w must be executed.
func (r *relaxed) flushExecutable(w int32, st []int32) bool {
	v := r.v
	if !v.done(w, st) || !r.minimal(v.flushNode(w), st) || r.held(v.loc[w], st) {
		return false
	}
	for _, rd := range v.readers[w] {
		if o := v.ownPrev[rd]; v.th[rd] != v.th[w] && o >= 0 && !r.flushed(o, st) {
			return false
		}
	}
	return true
}

// rmwExecutable reports whether the RMW pair at e (the next event of its
// thread) can execute as "read, write, memory-write" in st.
func (r *relaxed) rmwExecutable(e int32, st []int32) bool {
	v := r.v
	t := v.th[e]
	if !v.lowerOK(e, st) || !r.minimal(e, st) || !r.emptyBuffers(t, st) || !r.visible(v.src[e][0], st) {
		return false
	}
	st[t] += 2
	ok := r.minimal(e+1, st) && r.flushExecutable(e+1, st)
	st[t] -= 2
	return ok
}

// flush appends the memory-write of w to st.
func (r *relaxed) flush(w int32, st []int32, node int32) int32 {
	st[r.v.k+int(r.v.chainOf[w])]++
	return r.tr.add(node, w, true)
}

// execute appends thread event e (and, for an RMW read, its write and
// memory-write) to st.
func (r *relaxed) execute(e int32, st []int32, node int32) int32 {
	t := r.v.th[e]
	st[t]++
	node = r.tr.add(node, e, false)
	if r.v.rmw[e] {
		st[t]++
		node = r.tr.add(node, e+1, false)
		node = r.flush(e+1, st, node)
	}
	return node
}

func (r *relaxed) complete(st []int32) bool {
	v := r.v
	for t := range int32(v.k) {
		if st[t] < v.end(t) {
			return false
		}
	}
	for c, ws := range v.chains {
		if int(st[v.k+c]) < len(ws) {
			return false
		}
	}
	return true
}

// next returns the next event of thread t in st, or -1.
func (r *relaxed) next(t int32, st []int32) int32 {
	if st[t] == r.v.end(t) {
		return -1
	}
	return r.v.start[t] + st[t]
}

type relaxedState struct {
	st   []int32
	node int32
}

func (r *relaxed) verifyTSO() (program.Witness, bool, error) {
	v := r.v
	// Line 1: S <- {ε}; Done <- {∅}.
	root := relaxedState{st: make([]int32, v.k+len(v.chains)), node: -1}
	done := map[string]bool{}
	var kb []byte
	done[string(key(kb, root.st[v.k:]))] = true
	stack := []relaxedState{root}
	// Line 2: while S is not empty.
	for len(stack) > 0 {
		if err := r.tick.tick(); err != nil {
			return nil, false, err
		}
		// Line 3: extract σ.
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		// Lines 4-5: execute thread events while some is TSO-executable.
		for progress := true; progress; {
			progress = false
			for t := range int32(v.k) {
				if e := r.next(t, x.st); e >= 0 && r.threadExecutable(e, x.st) {
					x.node = r.execute(e, x.st, x.node)
					progress = true
				}
			}
		}
		// Line 6: witness found.
		if r.complete(x.st) {
			return r.tr.witness(v, x.node), true, nil
		}
		// Lines 7-10: extend by each TSO-executable memory-write (an RMW
		// pair brings its own) whose lower set of W^M is new.
		push := func(y relaxedState) {
			kb = key(kb, y.st[v.k:])
			if !done[string(kb)] {
				done[string(kb)] = true
				stack = append(stack, y)
			}
		}
		for c, ws := range v.chains {
			f := x.st[v.k+c]
			if int(f) == len(ws) {
				continue
			}
			if w := ws[f]; !v.inst.Events[w].Is(program.RMWWrite) && r.flushExecutable(w, x.st) {
				y := relaxedState{st: append([]int32(nil), x.st...)}
				y.node = r.flush(w, y.st, x.node)
				push(y)
			}
		}
		for t := range int32(v.k) {
			if e := r.next(t, x.st); e >= 0 && v.rmw[e] && r.rmwExecutable(e, x.st) {
				y := relaxedState{st: append([]int32(nil), x.st...)}
				y.node = r.execute(e, y.st, x.node)
				push(y)
			}
		}
	}
	// Line 11: no witness.
	return nil, false, nil
}
