package explicit

// This file implements NaiveVerify, the baseline decider: plain enumeration
// of the lower sets of (X, PO) with the memory contents, for SC, TSO and
// PSO, with no heuristics. It is the naive lower-set algorithm that seed 002
// Section 5.3 (Algorithm 3) and seed 004 Section 3 take as their point of
// comparison ("NaiveVerifyTSO/PSO", n^{2k} and n^{k(d+1)} lower sets), here
// with the memory map of seed 000 Section 4.1 added to the state so that it
// also decides good-writes instances.
//
// A state is: per thread the number of executed events; per store-buffer
// chain the number of flushed writes; per location the last write in memory
// and per lock the last release (dense numbers, -1 for init). Every step the
// operational semantics of INSTANCES.md allows is tried, and states are
// memoised.

import (
	"context"

	"mcr/program"
)

// Naive is the lower-set enumeration decider for every memory model and
// constraint kind.
type Naive struct{}

// Name implements program.Decider.
func (Naive) Name() string { return "naive" }

// Decide implements program.Decider.
func (Naive) Decide(ctx context.Context, inst *program.Instance) (program.InstanceAnswer, error) {
	return program.NewInstanceAnswer(NaiveVerify(ctx, inst))
}

// NaiveVerify decides inst by exhaustive enumeration of witness states.
func NaiveVerify(ctx context.Context, inst *program.Instance) (program.Witness, bool, error) {
	if err := inst.Check(); err != nil {
		return nil, false, err
	}
	v := newView(inst)
	s := &naive{v: v, tick: ticker{ctx: ctx, name: "naive"}}
	return s.run()
}

type naive struct {
	v    *view
	tick ticker
	// eagerSteps closes every state under eager thread steps: the
	// good-writes search of VerifyTSO/VerifyPSO (verifyrelaxed_good.go).
	eagerSteps bool
}

// nstate is one search state; node is its trail node.
type nstate struct {
	prefix, flushed, mem []int32
	node                 int32
}

func (s *naive) clone(x *nstate) *nstate {
	return &nstate{prefix: append([]int32(nil), x.prefix...), flushed: append([]int32(nil), x.flushed...),
		mem: append([]int32(nil), x.mem...), node: x.node}
}

func (s *naive) run() (program.Witness, bool, error) {
	v := s.v
	root := &nstate{prefix: make([]int32, v.k), flushed: make([]int32, len(v.chains)), mem: make([]int32, v.d), node: -1}
	for l := range root.mem {
		root.mem[l] = program.InitSource
	}
	var tr trail
	if s.eagerSteps {
		s.eager(root, &tr)
	}
	seen := map[string]bool{}
	var kb []byte
	stack := []*nstate{root}
	seen[string(key(kb, root.prefix, root.flushed, root.mem))] = true
	for len(stack) > 0 {
		if err := s.tick.tick(); err != nil {
			return nil, false, err
		}
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.complete(x) {
			return tr.witness(v, x.node), true, nil
		}
		for _, y := range s.successors(x, &tr) {
			if s.eagerSteps {
				s.eager(y, &tr)
			}
			kb = key(kb, y.prefix, y.flushed, y.mem)
			if !seen[string(kb)] {
				seen[string(kb)] = true
				stack = append(stack, y)
			}
		}
	}
	return nil, false, nil
}

func (s *naive) complete(x *nstate) bool {
	for t := range s.v.k {
		if x.prefix[t] < s.v.end(int32(t)) {
			return false
		}
	}
	for c, ws := range s.v.chains {
		if int(x.flushed[c]) < len(ws) {
			return false
		}
	}
	return true
}

// buffered reports whether write w is executed but not flushed.
func (s *naive) buffered(x *nstate, w int32) bool {
	return s.v.done(w, x.prefix) && x.flushed[s.v.chainOf[w]] <= s.v.ord[w]
}

// emptyBuffers reports whether thread t has no unflushed write.
func (s *naive) emptyBuffers(x *nstate, t int32) bool {
	for _, c := range s.v.thChain[t] {
		ws := s.v.chains[c]
		if int(x.flushed[c]) < len(ws) && s.v.done(ws[x.flushed[c]], x.prefix) {
			return false
		}
	}
	return true
}

// successors returns the states one step (or one atomic RMW) after x.
func (s *naive) successors(x *nstate, tr *trail) []*nstate {
	v := s.v
	relaxed := v.inst.Model != program.SC
	var out []*nstate
	for t := range int32(v.k) {
		if x.prefix[t] == v.end(t) {
			continue
		}
		e := v.start[t] + x.prefix[t]
		if !v.lowerOK(e, x.prefix) || relaxed && v.drains(e) && !s.emptyBuffers(x, t) {
			continue
		}
		if j := v.joinOf[e]; j >= 0 && relaxed && !s.emptyBuffers(x, j) {
			continue
		}
		l := v.loc[e]
		switch v.kind[e] {
		case program.Read:
			src := x.mem[l]
			if w := v.ownPrev[e]; relaxed && w >= 0 && s.buffered(x, w) {
				src = w
			}
			if !contains(v.src[e], src) {
				continue
			}
		case program.Acquire:
			if !v.lockFree(l, x.prefix) || v.src[e] != nil && !contains(v.src[e], x.mem[l]) {
				continue
			}
		case program.LockFail:
			if !v.failOK(e, x.prefix) {
				continue
			}
		}
		y := s.clone(x)
		y.node = tr.add(y.node, e, false)
		y.prefix[t]++
		switch v.kind[e] {
		case program.Write:
			if !relaxed {
				y.mem[l] = e
			}
		case program.Release:
			y.mem[l] = e
		case program.Read:
			if v.rmw[e] { // the write half follows at once, and is flushed at once
				w := e + 1
				y.node = tr.add(y.node, w, false)
				y.prefix[t]++
				y.mem[l] = w
				if relaxed {
					y.node = tr.add(y.node, w, true)
					y.flushed[v.chainOf[w]]++
				}
			}
		}
		out = append(out, y)
	}
	for c, ws := range v.chains {
		if int(x.flushed[c]) == len(ws) {
			continue
		}
		w := ws[x.flushed[c]]
		if !v.done(w, x.prefix) {
			continue
		}
		y := s.clone(x)
		y.node = tr.add(y.node, w, true)
		y.flushed[c]++
		y.mem[v.loc[w]] = w
		out = append(out, y)
	}
	return out
}
