package explicit

// This file implements GetWitness of seed 002 (002_29f9f830801bf5b9.txt,
// Section 5) for VSC-rf, in three phases:
//
//	P-I   saturation (saturation.go): shb = Saturate(≤τ ∪ rf); a cycle
//	      means no witness.
//	P-II  ConstructWitness (Algorithm 2): order every unordered pair of
//	      writes to one location as the guiding execution E does, saturate
//	      after each, and if no cycle arises a topological sort is a witness
//	      (Lemma 5.3).
//	P-III ConsistencyDecision (Algorithm 3): reachability in the graph of
//	      configurations (one position per thread), exponential only in the
//	      number of threads.
//
// E is Instance.Guide; without one, a topological sort of shb stands in.
// Locks and RMW pairs are handled as saturation.go describes.

import (
	"context"

	"mcr/program"
)

// GetWitness is the decider of seed 002 Section 5 (SC, reads-from).
type GetWitness struct {
	// Phases, if non-nil, counts which phase answered: [0] P-I (no
	// witness), [1] P-II (witness), [2] P-III.
	Phases *[3]int
	// NoConstruct skips P-II (for tests and ablation).
	NoConstruct bool
}

// Name implements program.Decider.
func (d *GetWitness) Name() string { return "getwitness" }

// Decide implements program.Decider.
func (d *GetWitness) Decide(ctx context.Context, inst *program.Instance) (program.InstanceAnswer, error) {
	return program.NewInstanceAnswer(d.decide(ctx, inst))
}

// decide is Decide's search: a witness and true, or false if there is none.
func (d *GetWitness) decide(ctx context.Context, inst *program.Instance) (program.Witness, bool, error) {
	if inst.Model != program.SC || inst.Constraint != program.ReadsFrom {
		return nil, false, unsupported("getwitness", inst)
	}
	if err := inst.Check(); err != nil {
		return nil, false, err
	}
	count := func(phase int) {
		if d.Phases != nil {
			d.Phases[phase]++
		}
	}
	v := newView(inst)
	v.ctx = ctx
	// P-I: saturation.
	s, ok := newSaturation(v)
	if err := v.stopped("saturation"); err != nil {
		return nil, false, err // newSaturation's false may be the stop
	}
	if ok {
		var err error
		if ok, err = s.saturate(); err != nil {
			return nil, false, err
		}
	}
	if !ok {
		count(0)
		return nil, false, nil
	}
	// P-II: witness construction guided by E.
	w, ok, err := constructWitness(v, s)
	if err != nil {
		return nil, false, err
	}
	if ok && !d.NoConstruct {
		count(1)
		return w, true, nil
	}
	// P-III: the decision procedure.
	count(2)
	return consistencyDecision(ctx, v)
}

// constructWitness is Algorithm 2. It returns false for "unknown".
func constructWitness(v *view, shb *saturation) (program.Witness, bool, error) {
	glue := make([]int32, v.n)
	rank := make([]int32, v.n)
	for e := range int32(v.n) {
		glue[e] = -1
		if v.rmw[e] {
			glue[e] = e + 1
		}
		rank[e] = int32(v.n) + e
	}
	for pos, st := range v.inst.Guide {
		if e := v.inst.Dense(st.Event); !st.Flush && e >= 0 && rank[e] >= int32(v.n) {
			rank[e] = int32(pos)
		}
	}
	if len(v.inst.Guide) == 0 {
		// No E: a linearization of shb is the guide.
		for pos, e := range shb.p.linearize(rank, glue) {
			rank[e] = int32(pos)
		}
	}
	// Line 3: cohb := shb.
	cohb := &saturation{v: v, p: shb.p.clone(), readers: shb.readers, writers: shb.writers}
	p := cohb.p
	// Line 4: for writes eW, e'W to one location unordered by cohb.
	for _, ws := range cohb.writers {
		for i, w1 := range ws {
			for _, w2 := range ws[i+1:] {
				a, b := cohb.last(w1), cohb.first(w2)
				c, d := cohb.last(w2), cohb.first(w1)
				if p.before(a, b) || p.before(c, d) {
					continue
				}
				// Lines 5-6: order them as E does.
				if rank[w2] < rank[w1] {
					a, b = c, d
				}
				if _, ok := p.addEdge(a, b); !ok {
					return nil, false, nil
				}
				// Lines 7-8: saturate; a cycle means "unknown".
				if ok, err := cohb.saturate(); err != nil || !ok {
					return nil, false, err
				}
			}
		}
	}
	// Lines 9-10: a topological sort of cohb is a witness (Lemma 5.3).
	var tr trail
	node := int32(-1)
	for _, e := range p.linearize(rank, glue) {
		node = tr.add(node, e, false)
	}
	return tr.witness(v, node), true, nil
}

// consistencyDecision is Algorithm 3: search the configuration graph (a
// position per thread) for a path from the initial to the final
// configuration. The configuration graph is explored depth first and built
// lazily rather than materialised (BuildGraph, lines 7-22).
func consistencyDecision(ctx context.Context, v *view) (program.Witness, bool, error) {
	tick := ticker{ctx: ctx, name: "getwitness"}
	readersOf := make([][]int32, v.d)
	for e := range int32(v.n) {
		if k := v.kind[e]; k == program.Read || k == program.Acquire || k == program.LockFail {
			readersOf[v.loc[e]] = append(readersOf[v.loc[e]], e)
		}
	}
	// isSC for the write part of e (lines 13-17): no unexecuted reader of
	// its location whose source is init or already executed.
	writeOK := func(e int32, prefix []int32) bool {
		for _, r := range readersOf[v.loc[e]] {
			if r != e && !v.done(r, prefix) && v.done(v.src[r][0], prefix) {
				return false
			}
		}
		return true
	}
	// isSC for the read part of e (lines 18-20): its source is executed.
	readOK := func(e int32, prefix []int32) bool { return v.done(v.src[e][0], prefix) }
	type cfg struct {
		prefix []int32
		node   int32
	}
	var tr trail
	seen := map[string]bool{}
	var kb []byte
	root := cfg{prefix: make([]int32, v.k), node: -1}
	seen[string(key(kb, root.prefix))] = true
	stack := []cfg{root}
	for len(stack) > 0 {
		if err := tick.tick(); err != nil {
			return nil, false, err
		}
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		final := true // line 4: v_target, every thread terminated
		for t := range int32(v.k) {
			if x.prefix[t] < v.end(t) {
				final = false
			}
		}
		if final {
			return tr.witness(v, x.node), true, nil // line 5
		}
		for t := range int32(v.k) {
			if x.prefix[t] == v.end(t) {
				continue
			}
			// Line 11: v2 advances thread t by one event (an RMW by two).
			e := v.start[t] + x.prefix[t]
			if !v.lowerOK(e, x.prefix) {
				continue
			}
			ok := true
			switch v.kind[e] {
			case program.Write, program.Release:
				ok = writeOK(e, x.prefix)
			case program.LockFail:
				ok = readOK(e, x.prefix) // writeOK of the next lock event keeps it inside the section
			case program.Read:
				ok = readOK(e, x.prefix)
				if ok && v.rmw[e] {
					x.prefix[t]++
					ok = writeOK(e+1, x.prefix)
					x.prefix[t]--
				}
			case program.Acquire:
				ok = readOK(e, x.prefix) && writeOK(e, x.prefix)
			}
			if !ok {
				continue
			}
			y := cfg{prefix: append([]int32(nil), x.prefix...), node: tr.add(x.node, e, false)}
			y.prefix[t]++
			if v.rmw[e] {
				y.node = tr.add(y.node, e+1, false)
				y.prefix[t]++
			}
			kb = key(kb, y.prefix)
			if !seen[string(kb)] {
				seen[string(kb)] = true
				stack = append(stack, y)
			}
		}
	}
	return nil, false, nil // line 6
}
