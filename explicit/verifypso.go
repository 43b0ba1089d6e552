package explicit

// This file implements VerifyPSO, Algorithm 2 of seed 004
// (004_fe58e94b2666f77b.txt, Section 4.2): deciding VPSO-rf by enumerating
// the lower sets of the thread events (L(X), PO), each with at most as many
// traces as there are fence maps: O(k * n^(k+1) * min(n^(k(k-1)), 2^(kd)))
// time, O(k * n^(k+1)) without fences (Theorem 3.2).
//
// Memory-writes follow a minimal strategy: spurious ones (no remaining read
// wants them) are flushed as soon as they are executable (lines 4-5); a
// read of a remote write flushes it just before the read (lines 9-11); a
// fence flushes every pending memory-write of its thread (lines 12-14).
// Two traces with the same thread events and the same fence map are
// equivalent (Lemma 4.3), so Done is keyed on that pair (line 16).
//
// Extensions (Remark 1 and INSTANCES.md): acquire, release, fork, join and
// RMW reads drain the buffers like fences (a join also the joined thread's);
// a release is an atomic write, blocked while its lock is held (or a
// failed trylock still needs its section open: view.sectionWanted); an
// acquire reads the release it follows and needs the lock free; a failed
// trylock drains and needs its lock held by the acquire it reads
// (view.failOK, VerifyTSO's rule); an RMW pair is
// "read, write, memory-write" in one step. Accordingly a thread "has a
// fence ahead" in the fence map when it has any draining event ahead or a
// join of it is ahead. Closure (Section 4.3) restricts steps to P-minimal
// ones. The helpers shared with VerifyTSO are in verifytso.go.
//
// RMW pairs break Lemma 4.3: an RMW flushes its write at once, and
// condition (2b) then needs the earlier writes of the write's remote
// readers in memory by that time, a deadline on other threads' buffers
// that the fence map does not record (testdata/instances/
// pso-rmw-deadline.json is the smallest example we know). With RMW pairs
// Done is therefore keyed on (L(σ), W^M(σ)), the exact state.

import (
	"context"

	"mcr/program"
)

// VerifyPSO is the VerifyPSO decider (PSO, reads-from).
type VerifyPSO struct {
	NoClosure bool // switch closure off (ablation)
}

// Name implements program.Decider.
func (d *VerifyPSO) Name() string { return "verifypso" }

// Decide implements program.Decider.
func (d *VerifyPSO) Decide(ctx context.Context, inst *program.Instance) (program.InstanceAnswer, error) {
	return program.NewInstanceAnswer(d.decide(ctx, inst))
}

// decide is Decide's search: a witness and true, or false if there is none.
func (d *VerifyPSO) decide(ctx context.Context, inst *program.Instance) (program.Witness, bool, error) {
	if inst.Model != program.PSO {
		return nil, false, unsupported("verifypso", inst)
	}
	if inst.Constraint == program.GoodWrites { // verifyrelaxed_good.go
		return decideGoodRelaxed(ctx, inst, "verifypso")
	}
	if err := inst.Check(); err != nil {
		return nil, false, err
	}
	r, ok, err := newRelaxed(inst, d.NoClosure, "verifypso", ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	return (&pso{relaxed: r}).run()
}

type pso struct {
	*relaxed
	chainTL   []int32 // (thread*d + location) -> its store-buffer chain, or -1
	lastDrain []int32 // per thread: index of its last draining event, or -1
	joinsOf   [][]int32
	fmap      []int32 // scratch: the fence map, k*k
	exact     bool    // key Done on (L, W^M): the instance has RMW pairs
}

// doneKey is the Done key of state st: (L(σ), FMap_σ), or (L(σ), W^M(σ))
// with RMW pairs.
func (s *pso) doneKey(kb []byte, st []int32) []byte {
	if s.exact {
		return key(kb, st)
	}
	return key(kb, st[:s.v.k], s.fenceMap(st))
}

func (s *pso) init() {
	v := s.v
	s.chainTL = make([]int32, v.k*v.d)
	for i := range s.chainTL {
		s.chainTL[i] = -1
	}
	for c, ws := range v.chains {
		w := ws[0]
		s.chainTL[int(v.th[w])*v.d+int(v.loc[w])] = int32(c)
	}
	s.lastDrain = make([]int32, v.k)
	s.joinsOf = make([][]int32, v.k)
	for t := range v.k {
		s.lastDrain[t] = -1
	}
	for e := range int32(v.n) {
		s.exact = s.exact || v.rmw[e]
		if v.drains(e) {
			s.lastDrain[v.th[e]] = v.idx[e]
		}
		if j := v.joinOf[e]; j >= 0 {
			s.joinsOf[j] = append(s.joinsOf[j], e)
		}
	}
	s.fmap = make([]int32, v.k*v.k)
}

func (s *pso) run() (program.Witness, bool, error) {
	s.init()
	v := s.v
	// Line 1: S <- {ε}; Done <- {∅}.
	root := relaxedState{st: make([]int32, v.k+len(v.chains)), node: -1}
	done := map[string]bool{}
	var kb []byte
	done[string(s.doneKey(kb, root.st))] = true
	stack := []relaxedState{root}
	// Line 2: while S is not empty.
	for len(stack) > 0 {
		if err := s.tick.tick(); err != nil {
			return nil, false, err
		}
		// Line 3: extract σ.
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		// Lines 4-5: flush spurious PSO-executable memory-writes.
		for progress := true; progress; {
			progress = false
			for c, ws := range v.chains {
				f := x.st[v.k+c]
				if int(f) == len(ws) {
					continue
				}
				if w := ws[f]; s.spurious(w, x.st) && s.flushExecutable(w, x.st) {
					x.node = s.flush(w, x.st, x.node)
					progress = true
				}
			}
		}
		// Line 6: witness found.
		if s.complete(x.st) {
			return s.tr.witness(v, x.node), true, nil
		}
		// Line 7: each PSO-executable thread event e.
		for t := range int32(v.k) {
			e := s.next(t, x.st)
			if e < 0 {
				continue
			}
			// Lines 8-15: σ_e, with the memory-writes e needs first.
			y := relaxedState{st: append([]int32(nil), x.st...), node: x.node}
			if !s.step(e, &y) {
				continue
			}
			// Lines 16-17: continue from σ_e if (L(σ_e), FMap) is new.
			kb = s.doneKey(kb, y.st)
			if !done[string(kb)] {
				done[string(kb)] = true
				stack = append(stack, y)
			}
		}
	}
	// Line 18: no witness.
	return nil, false, nil
}

// spurious reports whether pending write w is wanted by no remaining read.
func (s *pso) spurious(w int32, st []int32) bool {
	if !s.v.done(w, st) {
		return false
	}
	for _, r := range s.v.readers[w] {
		if !s.v.done(r, st) {
			return false
		}
	}
	return true
}

// drain flushes every pending memory-write of thread t in y, each of which
// must be PSO-executable in turn (chains are independent: the conditions
// of a memory-write only concern its own location).
func (s *pso) drain(t int32, y *relaxedState) bool {
	v := s.v
	for _, c := range v.thChain[t] {
		ws := v.chains[c]
		for f := y.st[v.k+int(c)]; int(f) < len(ws) && v.done(ws[f], y.st); f++ {
			if !s.flushExecutable(ws[f], y.st) {
				return false
			}
			y.node = s.flush(ws[f], y.st, y.node)
		}
	}
	return true
}

// step extends y by thread event e if e is PSO-executable, with the
// memory-writes it needs first; false if it is not executable.
func (s *pso) step(e int32, y *relaxedState) bool {
	v := s.v
	t, l := v.th[e], v.loc[e]
	if !v.lowerOK(e, y.st) {
		return false
	}
	// Lines 12-14: a fence (or another draining event) first executes the
	// pending memory-writes of its thread; a join also those of the
	// joined thread.
	if v.drains(e) && !s.drain(t, y) {
		return false
	}
	if j := v.joinOf[e]; j >= 0 && !s.drain(j, y) {
		return false
	}
	switch v.kind[e] {
	case program.Read:
		// Lines 9-11: a read of a remote write not yet in memory flushes
		// it first, if it is next in its buffer and executable.
		src := v.src[e][0]
		if src >= 0 && v.th[src] != t && !s.flushed(src, y.st) {
			c := v.chainOf[src]
			if !v.done(src, y.st) || y.st[v.k+int(c)] != v.ord[src] || !s.flushExecutable(src, y.st) {
				return false
			}
			y.node = s.flush(src, y.st, y.node)
		}
		if src >= 0 && !v.done(src, y.st) {
			return false
		}
	case program.Acquire:
		if !v.lockFree(l, y.st) || !s.visible(v.src[e][0], y.st) {
			return false
		}
	case program.Release:
		if s.held(l, y.st) || v.sectionWanted(e, y.st) {
			return false
		}
	case program.LockFail:
		if !v.failOK(e, y.st) {
			return false
		}
	}
	if !s.minimal(e, y.st) {
		return false
	}
	// Line 15: finally execute e (an RMW: its write and memory-write too).
	if v.rmw[e] {
		y.st[t] += 2
		ok := s.minimal(e+1, y.st) && s.flushExecutable(e+1, y.st)
		y.st[t] -= 2
		if !ok {
			return false
		}
	}
	y.node = s.execute(e, y.st, y.node)
	return true
}

// fenceMap computes FMap_σ (Section 4.2, "Fence maps") into s.fmap:
// FMap(thr, thr') is 1 + the index of the latest remaining read r of thr'
// whose source is in memory, holds its location, is written neither by thr
// nor by thr', while thr has a pending memory-write to that location and a
// draining event (or a join of it) ahead; 0 if there is none.
func (s *pso) fenceMap(st []int32) []int32 {
	v := s.v
	for i := range s.fmap {
		s.fmap[i] = 0
	}
	for e := range int32(v.n) {
		if v.kind[e] != program.Read || v.done(e, st) {
			continue
		}
		src := v.src[e][0]
		if !s.visible(src, st) {
			continue
		}
		for thr := range int32(v.k) {
			if thr == v.th[e] || src >= 0 && thr == v.th[src] || !s.drainAhead(thr, st) {
				continue
			}
			c := s.chainTL[int(thr)*v.d+int(v.loc[e])]
			if c < 0 {
				continue
			}
			if f := st[v.k+int(c)]; int(f) < len(v.chains[c]) && v.done(v.chains[c][f], st) {
				i := int(thr)*v.k + int(v.th[e])
				s.fmap[i] = max(s.fmap[i], v.idx[e]+1)
			}
		}
	}
	return s.fmap
}

// drainAhead reports whether thread t must still empty its buffers: it has
// an unexecuted draining event, or an unexecuted join waits for it.
func (s *pso) drainAhead(t int32, st []int32) bool {
	if s.lastDrain[t] >= st[t] {
		return true
	}
	for _, j := range s.joinsOf[t] {
		if !s.v.done(j, st) {
			return true
		}
	}
	return false
}
