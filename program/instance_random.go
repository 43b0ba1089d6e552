package program

// This file implements the random instance generator used by the
// differential tests and benchmarks: it runs a random program skeleton on
// the operational machine of instance_validate.go, takes the executed events
// with their reads-from (so the instance is realizable), and optionally
// perturbs some sources (so it is often not).

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// RandomOptions shapes RandomInstance.
type RandomOptions struct {
	Threads    int         // number of threads (at least 1)
	Events     int         // events per thread of the skeleton, before truncation
	Vars       int         // memory locations (at least 1)
	Locks      int         // locks (0 = no critical sections)
	Values     int         // distinct values written, 0..Values-1 (0 means 2)
	Model      MemoryModel // memory model of the instance
	Constraint Constraint  // reads-from or good-writes
	// Perturb is the probability that 1 or 2 sources (2 or 3 good-writes
	// sets) are changed after generation (the instance is then often
	// unrealizable); 0 or negative means never.
	Perturb float64
	// NoForks, NoRMW, NoFences leave those events out of the skeleton.
	NoForks, NoRMW, NoFences bool
	// NoCut runs the skeleton as far as it goes; otherwise every step ends
	// the execution with probability 1/100.
	NoCut bool
}

// RandomInstance returns a random instance shaped by o, and whether it was
// perturbed (an unperturbed instance always has a witness). The execution is
// generated under o.Model or, a third of the time, under a weaker model, so
// that unperturbed SC and TSO instances can be unrealizable too; the second
// result is then true as well.
func RandomInstance(rng *rand.Rand, o RandomOptions) (*Instance, bool) {
	if o.Threads < 1 {
		o.Threads = 1
	}
	if o.Vars < 1 {
		o.Vars = 1
	}
	if o.Values < 1 {
		o.Values = 2
	}
	threads, locs, events := skeleton(rng, o)
	gen := o.Model
	weaker := false
	if o.Model < PSO && rng.IntN(3) == 0 {
		gen = MemoryModel(int(o.Model) + 1 + rng.IntN(int(PSO-o.Model)))
		weaker = true
	}
	sk := buildInstance(gen, GoodWrites, threads, locs, events) // no sources yet
	// Run it with free reads, recording sources.
	m := newMachine(sk)
	m.free = true
	src := make([]int32, len(sk.Events))
	var order Witness
	var steps []Step
	for {
		steps = m.enabled(steps[:0])
		if len(steps) == 0 || !o.NoCut && len(m.atomic) == 0 && rng.IntN(100) == 0 {
			break
		}
		s := steps[rng.IntN(len(steps))]
		if !s.Flush {
			i := sk.Dense(s.Event)
			switch e := &sk.Events[i]; e.Kind {
			case Read:
				src[i] = m.source(i)
			case Acquire:
				src[i] = m.lastRel[e.Loc]
			}
		}
		m.apply(s)
		order = append(order, s)
	}
	for t := range m.buf { // flush what the cut left in the buffers
		for len(m.buf[t]) > 0 {
			s := Step{Event: sk.Events[m.buf[t][0]].ID(), Flush: true}
			m.apply(s)
			order = append(order, s)
		}
	}
	// The instance: the executed prefix of every thread.
	keep := make([][]Event, len(threads))
	sources := map[EventID][]EventID{}
	id := func(s int32) EventID {
		if s == InitSource {
			return InitID
		}
		return sk.Events[s].ID()
	}
	for t := range threads {
		for k := range m.next[t] {
			i := sk.Start[t] + k
			e := sk.Events[i]
			if e.Kind == Read {
				if src[i] == InitSource {
					e.Value = sk.InitValue(e.Loc)
				} else {
					e.Value = sk.Events[src[i]].Value
				}
			}
			keep[t] = append(keep[t], e)
			switch e.Kind {
			case Read:
				sources[e.ID()] = []EventID{id(src[i])}
			case Acquire:
				if o.Constraint == ReadsFrom || rng.IntN(2) == 0 {
					sources[e.ID()] = []EventID{id(src[i])}
				}
			}
		}
	}
	inst, err := NewInstance(o.Model, GoodWrites, threads, locs, keep, sources)
	if err != nil {
		panic(fmt.Sprintf("RandomInstance: %v", err))
	}
	inst.Name = "random"
	if rng.IntN(2) == 0 {
		for _, s := range order {
			if inst.Dense(s.Event) >= 0 {
				inst.Guide = append(inst.Guide, s)
			}
		}
	}
	inst.Constraint = o.Constraint
	if o.Constraint == GoodWrites {
		for i := range inst.Events {
			switch e := &inst.Events[i]; e.Kind {
			case Read:
				inst.Sources[i] = widen(rng, inst, int32(i), inst.Sources[i][0])
			case Acquire:
				if inst.Sources[i] != nil && rng.IntN(2) == 0 {
					inst.Sources[i] = widen(rng, inst, int32(i), inst.Sources[i][0])
				}
			}
		}
	}
	perturbed := weaker
	if o.Perturb > 0 && rng.Float64() < o.Perturb {
		times := 1 + rng.IntN(2)
		if o.Constraint == GoodWrites {
			times++ // a perturbed good-writes set often still has a way out
		}
		for range times {
			if perturb(rng, inst) {
				perturbed = true
			}
		}
	}
	if err := inst.Check(); err != nil {
		panic(fmt.Sprintf("RandomInstance: %v", err))
	}
	return inst, perturbed
}

// skeleton returns random per-thread event sequences (sources not set).
func skeleton(rng *rand.Rand, o RandomOptions) (threads, locs []string, events [][]Event) {
	for t := range o.Threads {
		threads = append(threads, fmt.Sprintf("T%d", t))
	}
	for x := range o.Vars {
		locs = append(locs, string(rune('x'+x%3))+fmt.Sprint(x/3))
	}
	for l := range o.Locks {
		locs = append(locs, fmt.Sprintf("l%d", l))
	}
	v := func() Loc { return Loc(rng.IntN(o.Vars)) }
	val := func() int64 { return int64(rng.IntN(o.Values)) }
	events = make([][]Event, o.Threads)
	for t := range events {
		var evs []Event
		for len(evs) < o.Events {
			switch p := rng.IntN(100); {
			case p < 38:
				evs = append(evs, Event{Kind: Read, Loc: v()})
			case p < 72:
				evs = append(evs, Event{Kind: Write, Loc: v(), Value: val()})
			case p < 77 && !o.NoRMW:
				// an RMW, or a successful CAS (the flag changes nothing
				// but the rendering: the pair is atomic either way)
				x := v()
				f := RMW
				if p == 76 {
					f |= CAS
				}
				evs = append(evs, Event{Kind: Read, Loc: x, Flags: f}, Event{Kind: Write, Loc: x, Value: val(), Flags: RMWWrite})
			case p < 80 && !o.NoRMW:
				// a failed CAS: a read that drains the buffers (Drains)
				evs = append(evs, Event{Kind: Read, Loc: v(), Flags: CAS})
			case p < 86 && !o.NoFences:
				evs = append(evs, Event{Kind: Fence})
			case p < 100 && o.Locks > 0:
				l := Loc(o.Vars + rng.IntN(o.Locks))
				evs = append(evs, Event{Kind: Acquire, Loc: l})
				for range 1 + rng.IntN(2) {
					if rng.IntN(2) == 0 {
						evs = append(evs, Event{Kind: Read, Loc: v()})
					} else {
						evs = append(evs, Event{Kind: Write, Loc: v(), Value: val()})
					}
				}
				if rng.IntN(8) != 0 || len(evs) < o.Events {
					evs = append(evs, Event{Kind: Release, Loc: l})
				}
			}
		}
		events[t] = evs
	}
	if o.NoForks || o.Threads < 2 || rng.IntN(2) == 0 {
		return threads, locs, events
	}
	// T0 forks every other thread at a random point and joins some later.
	for c := 1; c < o.Threads; c++ {
		main := events[0]
		at := rng.IntN(len(main) + 1)
		for at > 0 && at < len(main) && main[at].Is(RMWWrite) {
			at--
		}
		main = slices.Insert(main, at, Event{Kind: Fork, Value: int64(c)})
		if rng.IntN(2) == 0 {
			j := at + 1 + rng.IntN(len(main)-at)
			for j < len(main) && main[j].Is(RMWWrite) {
				j++
			}
			main = slices.Insert(main, j, Event{Kind: Join, Value: int64(c)})
		}
		events[0] = main
		if rng.IntN(2) == 0 {
			events[c] = slices.Insert(events[c], 0, Event{Kind: Begin})
			events[c] = append(events[c], Event{Kind: End})
		}
	}
	return threads, locs, events
}

// widen turns the single source s of event i into a good-writes set: half
// the time every same-valued write (the value-based sets of
// 000_1fb260b9b3a323b2.txt), else s plus a random subset of them.
func widen(rng *rand.Rand, inst *Instance, i, s int32) []int32 {
	e := &inst.Events[i]
	var cands []int32
	if e.Kind == Read {
		cands = inst.sameValueWrites(e.Loc, e.Value)
	} else {
		cands = inst.releases(e.Loc)
	}
	if rng.IntN(2) == 0 && e.Kind == Read {
		return cands
	}
	set := []int32{s}
	for _, c := range cands {
		if rng.IntN(3) == 0 {
			set = append(set, c)
		}
	}
	return normalizeSources(set)
}

func (inst *Instance) releases(l Loc) []int32 {
	out := []int32{InitSource}
	for j := range inst.Events {
		if e := &inst.Events[j]; e.Kind == Release && e.Loc == l {
			out = append(out, int32(j))
		}
	}
	return out
}

// perturb changes the source of one random read or constrained acquire to
// another candidate, keeping the instance well-formed. It reports whether
// it changed anything.
func perturb(rng *rand.Rand, inst *Instance) bool {
	var targets []int32
	for i := range inst.Events {
		if k := inst.Events[i].Kind; k == Read || k == Acquire && inst.Sources[i] != nil {
			targets = append(targets, int32(i))
		}
	}
	if len(targets) == 0 {
		return false
	}
	i := targets[rng.IntN(len(targets))]
	e := &inst.Events[i]
	var cands []int32
	if e.Kind == Read {
		cands = append(cands, InitSource)
		for j := range inst.Events {
			if w := &inst.Events[j]; w.Kind == Write && w.Loc == e.Loc && int32(j) != i+1 {
				cands = append(cands, int32(j))
			}
		}
	} else {
		cands = inst.releases(e.Loc)
	}
	cands = slices.DeleteFunc(cands, func(c int32) bool { return slices.Contains(inst.Sources[i], c) })
	if len(cands) == 0 {
		return false
	}
	c := cands[rng.IntN(len(cands))]
	if e.Kind == Acquire {
		inst.Sources[i] = []int32{c}
		if inst.Constraint == GoodWrites && rng.IntN(2) == 0 {
			inst.Sources[i] = widen(rng, inst, i, c)
		}
		return true
	}
	if c == InitSource {
		e.Value = inst.InitValue(e.Loc)
	} else {
		e.Value = inst.Events[c].Value
	}
	if inst.Constraint == ReadsFrom {
		inst.Sources[i] = []int32{c}
		return true
	}
	old := inst.Sources[i]
	set := widen(rng, inst, i, c)
	set = slices.DeleteFunc(set, func(s int32) bool { return s != c && slices.Contains(old, s) })
	inst.Sources[i] = set
	return true
}
