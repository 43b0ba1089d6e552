package apo

// This file states the realizability of an annotated partial order as a
// good-writes consistency instance under SC (program/INSTANCES.md; seed
// 000 Section 4), so that every other decider of the project (VerifySC,
// naive, Z3) can answer the same question and every witness goes through
// program.ValidateWitness.
//
// Threads, events, values and good writes carry over as they are; a
// location none of a read's good writes is initial, so no read may read
// the initial value. An instance has only program order, so each ordering
// a <_P b between threads that the thread order does not imply becomes a
// fresh flag location f: a writes f = 1 right after a, and b reads f = 1
// (good: that write only) right before b. A witness of the instance orders
// a before b; conversely a linearization of P becomes a witness by placing
// each flag write right after its event and each flag read right before.

import (
	"context"
	"fmt"

	"mcr/program"
)

// Encoding is an annotated partial order as an instance, with the map
// back and forth.
type Encoding struct {
	APO  *APO
	Inst *program.Instance
	// At is each APO event's identity in Inst.
	At []program.EventID
	// pre and post are, per APO event, the flag reads before it and the
	// flag writes after it in its thread.
	pre, post [][]program.EventID
}

// ToInstance returns p as a good-writes SC instance (the header comment
// says how). p must pass CheckRelaxed (conflicting leaf events may be
// unordered: the instance asks the same question); the error is
// CheckRelaxed's or NewInstance's.
func ToInstance(p *APO, name string) (*Encoding, error) {
	if err := p.CheckRelaxed(); err != nil {
		return nil, err
	}
	n := p.Len()
	enc := &Encoding{APO: p, At: make([]program.EventID, n), pre: make([][]program.EventID, n), post: make([][]program.EventID, n)}
	in, out := p.crossEdges()
	k := p.Threads()
	threads := make([]string, k)
	events := make([][]program.Event, k)
	for t := range k {
		threads[t] = fmt.Sprintf("T%d", t)
	}
	locs := make([]string, len(p.writes))
	for l := range locs {
		locs[l] = fmt.Sprintf("x%d", l)
	}
	flag := map[[2]int32]program.Loc{} // edge -> its location
	for _, es := range out {
		for _, e := range es {
			flag[e] = program.Loc(len(locs))
			locs = append(locs, fmt.Sprintf("f%d_%d", e[0], e[1]))
		}
	}
	at := func(t int32) program.EventID {
		return program.EventID{Thread: program.ThreadID(t), Index: int32(len(events[t]))}
	}
	sources := map[program.EventID][]program.EventID{}
	flagWrite := map[[2]int32]program.EventID{}
	// The flag reads' sources are filled in after the layout: a flag read
	// may come before its write in the numbering.
	flagRead := map[[2]int32]program.EventID{}
	for i, e := range p.Events {
		for _, edge := range in[i] {
			id := at(e.Thread)
			enc.pre[i] = append(enc.pre[i], id)
			flagRead[edge] = id
			events[e.Thread] = append(events[e.Thread], program.Event{Kind: program.Read, Loc: flag[edge], Value: 1})
		}
		enc.At[i] = at(e.Thread)
		kind := [...]program.Kind{Read: program.Read, Write: program.Write, Local: program.Fence}[e.Kind]
		events[e.Thread] = append(events[e.Thread], program.Event{Kind: kind, Loc: program.Loc(e.Loc), Value: e.Value})
		for _, edge := range out[i] {
			id := at(e.Thread)
			enc.post[i] = append(enc.post[i], id)
			flagWrite[edge] = id
			events[e.Thread] = append(events[e.Thread], program.Event{Kind: program.Write, Loc: flag[edge], Value: 1})
		}
	}
	for edge, r := range flagRead {
		sources[r] = []program.EventID{flagWrite[edge]}
	}
	for i := range p.Events {
		for _, w := range p.Good[i] {
			sources[enc.At[i]] = append(sources[enc.At[i]], enc.At[w])
		}
	}
	inst, err := program.NewInstance(program.SC, program.GoodWrites, threads, locs, events, sources)
	if err != nil {
		return nil, err
	}
	inst.Name = name
	enc.Inst = inst
	return enc, nil
}

// crossEdges returns the orderings between threads that generate P with
// the thread order: for each event b and other thread t, the last event a
// of t with a <_P b, unless b's thread predecessor already has a below it.
// in[b] and out[a] list the edges (a, b).
func (p *APO) crossEdges() (in, out [][][2]int32) {
	n := p.Len()
	in, out = make([][][2]int32, n), make([][][2]int32, n)
	k := p.Threads()
	prev := make([]int32, k) // the last event seen per thread
	for t := range prev {
		prev[t] = -1
	}
	// lastBelow returns the last event of thread t before b, or -1.
	lastBelow := func(b int32, t int) int32 {
		best := int32(-1)
		for a := range int32(n) {
			if int(p.Events[a].Thread) == t && p.Before(a, b) {
				best = a // numbers grow along a thread
			}
		}
		return best
	}
	for i := range p.Events {
		b := int32(i)
		tb := p.Events[b].Thread
		for t := range k {
			if int32(t) == tb {
				continue
			}
			a := lastBelow(b, t)
			if a < 0 {
				continue
			}
			if pb := prev[tb]; pb >= 0 && p.Before(a, pb) {
				continue
			}
			in[b] = append(in[b], [2]int32{a, b})
			out[a] = append(out[a], [2]int32{a, b})
		}
		prev[tb] = b
	}
	return in, out
}

// WitnessOf returns the instance witness of a linearization t of the
// APO: each flag read right before its event, each flag write right after.
func (enc *Encoding) WitnessOf(t []int32) program.Witness {
	var w program.Witness
	for _, e := range t {
		for _, id := range enc.pre[e] {
			w = append(w, program.Step{Event: id})
		}
		w = append(w, program.Step{Event: enc.At[e]})
		for _, id := range enc.post[e] {
			w = append(w, program.Step{Event: id})
		}
	}
	return w
}

// Decider returns Realize as a program.Decider for enc.Inst alone (any
// other instance is program.ErrUnsupported): it realizes enc.APO and
// returns the witness as WitnessOf gives it, for the deciders' common path
// (program.CheckedDecide, `mcr crosscheck --kind apo`).
func (enc *Encoding) Decider() program.Decider { return realizeDecider{enc} }

type realizeDecider struct{ enc *Encoding }

func (realizeDecider) Name() string { return "realize" }

func (d realizeDecider) Decide(ctx context.Context, inst *program.Instance) (program.InstanceAnswer, error) {
	if inst != d.enc.Inst {
		return program.InstanceAnswer{}, fmt.Errorf("%w: realize decides only the instance of its annotated partial order", program.ErrUnsupported)
	}
	if err := ctx.Err(); err != nil {
		return program.InstanceAnswer{}, err
	}
	lin, ok, err := Realize(d.enc.APO)
	return program.NewInstanceAnswer(d.enc.WitnessOf(lin), ok, err)
}
