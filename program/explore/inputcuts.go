package explore

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"

	"mcr/program"
	"mcr/program/sym"
)

// This file implements the choice of the constraints a flip query keeps
// (issue 16): for a decision d of an execution's path, the sets K of
// other constraints such that K ∧ ¬d is asked.
//
// Why these sets. Let E* be a feasible execution under inputs v*, σ* a
// linearisation of it and c_1, c_2, ... its constraints in σ*'s order.
// Among the explored executions take one, E, that contains the prefix Y
// of σ* up to c_i (the same events, reads-from and decision outcomes) with
// i largest. If E* itself is not reached, the prefix up to c_{i+1} runs
// under E's inputs too, up to c_{i+1}, which takes its other outcome
// there, and some explored execution E' contains it (the scheduling
// exploration covers every class). If E' asks K = {c_1..c_i} ∧ ¬c_{i+1},
// which v* satisfies, the answer runs Y and c_{i+1} as E* does: a longer
// prefix, a contradiction. So every feasible path is reached provided the
// explored execution asks the query of every set K that some
// linearisation of it places before d:
//
//   - dfs explores every interleaving, so the trace's own order suffices
//     (traceOrder: K = the constraints before d in the trace; the
//     sequential concolic argument, per schedule);
//   - rf explores one execution per reads-from class, in an order of its
//     own choosing: K ranges over every set that is closed under the
//     causal order (program order, fork/join, reads-from, lock order) and
//     holds d's causal past but nothing of its causal future
//     (causalOrder): per other thread a prefix of its constraints, from
//     those before d (lo) to those not after it (hi);
//   - a value-based explorer (mcr) explores one execution per read-value
//     map, whose reads-from may differ from E*'s (a read takes the same
//     value from another write), so even the causal order is not E*'s:
//     K ranges over every choice of per-thread prefixes (programOrder).
//     That needs every read's value to tell its term, which holds until
//     an input-derived value is stored in shared memory
//     (sym.Path.SharedStore); the driver checks it.
//
// Two reductions keep the number of sets small, neither losing a path:
//   - a thread whose constraints in the range share no input, directly or
//     through other constraints, with d takes its largest prefix only (a
//     solution keeps the other inputs' values, sym.Query.Slice, so those
//     constraints hold as they did; a larger K is then as good);
//   - a query is asked once per set, not per order (its key is the sum of
//     its members' hashes), and the search's queries are deduplicated.
// The query under the trace's own order is asked after its vector's
// exploration, as with dfs; the other sets of an execution are enumerated
// and asked only when no input vector is left to explore (the driver keeps
// the execution's plan until then), so that a violation is found about as
// early as with the trace's order alone, and the search says complete only
// after all of them.
// A concretisation's query takes every set (no first reduction): its
// values seen are kept per set and must be met again by the same set.
// More than maxCuts sets in one execution make the search incomplete.

// flipOrder says which sets of kept constraints a search needs.
type flipOrder uint8

const (
	traceOrder flipOrder = iota
	causalOrder
	programOrder
)

// maxCuts bounds the kept sets of one execution's flips.
const maxCuts = 1 << 14

// maxCutConstraints bounds the constraints of an execution whose kept sets
// are enumerated beyond the trace order (the work is quadratic in them).
const maxCutConstraints = 8192

// setHash is a set's hash: the sum of its members' (truncated SHA-256).
type setHash [2]uint64

func (h *setHash) add(o setHash) { h[0] += o[0]; h[1] += o[1] }

func (h setHash) bytes() []byte {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], h[0])
	binary.LittleEndian.PutUint64(b[8:], h[1])
	return b[:]
}

// flipPlan holds one execution's path arranged by thread.
type flipPlan struct {
	order flipOrder
	cs    []sym.Constraint
	// threads lists, per thread with constraints (a slot), its
	// constraints' indices into cs in program order
	threads [][]int32
	slot    []int32 // per constraint: its thread's slot
	pos     []int32 // per constraint: its index in its thread's list
	// sums[t][j]: the hash of the first j constraints of slot t
	sums [][]setHash
	comp []int32 // per constraint: its component of the inputs it shares
	// keys: per constraint, the SHA-256 of its canonical text
	keys [][32]byte
	tr   *program.Trace
	conc map[int]string // concretisations' term texts, by constraint
	ix   *program.TraceIndex
	cl   *program.Clocks
}

// newFlipPlan arranges cs; it returns nil if ctx ends first (the texts of
// a long path's terms take a while).
func newFlipPlan(ctx context.Context, order flipOrder, tr *program.Trace, cs []sym.Constraint) *flipPlan {
	p := &flipPlan{order: order, cs: cs, tr: tr, slot: make([]int32, len(cs)), pos: make([]int32, len(cs)), keys: make([][32]byte, len(cs))}
	slots := map[program.ThreadID]int32{}
	for i := range cs {
		if i%64 == 63 && ctx.Err() != nil {
			return nil
		}
		s, ok := slots[cs[i].Thread]
		if !ok {
			s = int32(len(p.threads))
			slots[cs[i].Thread] = s
			p.threads = append(p.threads, nil)
			p.sums = append(p.sums, []setHash{{}})
		}
		p.slot[i], p.pos[i] = s, int32(len(p.threads[s]))
		p.threads[s] = append(p.threads[s], int32(i))
		k := sha256.Sum256([]byte(cs[i].Key()))
		p.keys[i] = k
		h := p.sums[s][len(p.sums[s])-1]
		h.add(setHash{binary.LittleEndian.Uint64(k[:8]), binary.LittleEndian.Uint64(k[8:16])})
		p.sums[s] = append(p.sums[s], h)
	}
	if len(p.threads) < 2 {
		p.order = traceOrder // one thread: one order
	}
	return p
}

// prepare computes what the sets beyond the trace's order need: the
// causal order and the components.
func (p *flipPlan) prepare() {
	if p.comp != nil || p.order == traceOrder {
		return
	}
	if p.order == causalOrder {
		p.ix = program.NewTraceIndex(p.tr)
		p.cl = p.ix.Clocks(program.LockOrder | program.ReadsFromOrder)
	}
	p.components()
}

// components sets comp: constraints are connected when they share an input.
func (p *flipPlan) components() {
	parent := map[program.InputID]program.InputID{}
	var find func(a program.InputID) program.InputID
	find = func(a program.InputID) program.InputID {
		for parent[a] != a {
			parent[a] = parent[parent[a]]
			a = parent[a]
		}
		return a
	}
	first := make([]program.InputID, len(p.cs))
	has := make([]bool, len(p.cs))
	seen := map[*sym.Term]bool{}
	for i := range p.cs {
		vars := map[program.InputID]*sym.Var{}
		clear(seen)
		sym.Vars(p.cs[i].Term, seen, vars)
		for id := range vars {
			if _, ok := parent[id]; !ok {
				parent[id] = id
			}
			if !has[i] {
				first[i], has[i] = id, true
				continue
			}
			parent[find(id)] = find(first[i])
		}
	}
	ids := map[program.InputID]int32{}
	p.comp = make([]int32, len(p.cs))
	for i := range p.cs {
		p.comp[i] = -1
		if has[i] {
			r := find(first[i])
			c, ok := ids[r]
			if !ok {
				c = int32(len(ids))
				ids[r] = c
			}
			p.comp[i] = c
		}
	}
}

// event returns the trace position of event k of thread t, or -1.
func (p *flipPlan) event(t program.ThreadID, k int32) int {
	if k < 0 || int(t) >= len(p.ix.At) || int(k) >= len(p.ix.At[t]) {
		return -1
	}
	return int(p.ix.At[t][k])
}

// pastCount is the number of slot s's constraints in the causal past of
// constraint i: those before an event of their thread that happens
// before the event preceding i.
func (p *flipPlan) pastCount(i int, s int32) int {
	e := p.event(p.cs[i].Thread, p.cs[i].Events-1)
	if e < 0 {
		return 0
	}
	th := p.threads[s]
	n := p.cl.Of(e)[p.cs[th[0]].Thread] // events of s's thread up to e
	return sort.Search(len(th), func(j int) bool { return p.cs[th[j]].Events >= n })
}

// notAfter is the number of slot s's constraints not in the causal future
// of constraint i (its thread's next event does not happen before them).
func (p *flipPlan) notAfter(i int, s int32) int {
	c := &p.cs[i]
	th := p.threads[s]
	return sort.Search(len(th), func(j int) bool {
		e := p.event(p.cs[th[j]].Thread, p.cs[th[j]].Events-1)
		return e >= 0 && p.cl.Of(e)[c.Thread] > c.Events
	})
}

// bounds returns the range of slot s's prefix lengths kept with flip i
// (causal or program order).
func (p *flipPlan) bounds(i int, s int32) (lo, hi int) {
	switch {
	case s == p.slot[i]:
		return int(p.pos[i]), int(p.pos[i])
	case p.order == programOrder:
		return 0, len(p.threads[s])
	}
	return p.pastCount(i, s), p.notAfter(i, s)
}

// shares reports whether a constraint of slot s in [lo, hi) shares an
// input with flip i (directly or through other constraints).
func (p *flipPlan) shares(i int, s int32, lo, hi int) bool {
	if p.comp[i] < 0 {
		return false
	}
	for _, j := range p.threads[s][lo:hi] {
		if p.comp[j] == p.comp[i] {
			return true
		}
	}
	return false
}

// traceCut returns the kept set of flip i in the trace's own order.
func (p *flipPlan) traceCut(i int) ([]int32, setHash) {
	cut := make([]int32, len(p.threads))
	var h setHash
	for s, th := range p.threads {
		cut[s] = int32(sort.Search(len(th), func(j int) bool { return int(th[j]) >= i }))
		h.add(p.sums[s][cut[s]])
	}
	return cut, h
}

// cuts calls emit with each kept set of flip i other than the trace's own
// order (its per-slot prefix lengths, which emit must not keep, and its
// hash) while *budget lasts; it reports false when the budget ran out.
func (p *flipPlan) cuts(i int, budget *int, emit func(cut []int32, h setHash)) bool {
	p.prepare()
	n := len(p.threads)
	cut := make([]int32, n)
	lo, hi := make([]int32, n), make([]int32, n)
	var vary []int32
	trace, _ := p.traceCut(i)
	for s := int32(0); s < int32(n); s++ {
		l, h := p.bounds(i, s)
		lo[s], hi[s], cut[s] = int32(l), int32(h), int32(h)
		if l < h && (p.cs[i].Conc || p.shares(i, s, l, h)) {
			vary = append(vary, s)
			cut[s] = int32(l)
		}
	}
	sum := func(cut []int32) setHash {
		var h setHash
		for s := range cut {
			h.add(p.sums[s][cut[s]])
		}
		return h
	}
	for {
		if p.closed(vary, cut, lo) && !slices.Equal(cut, trace) {
			if *budget <= 0 {
				return false
			}
			*budget--
			emit(cut, sum(cut))
		}
		// the next combination (an odometer over the varying slots)
		k := 0
		for ; k < len(vary); k++ {
			s := vary[k]
			if cut[s] < hi[s] {
				cut[s]++
				break
			}
			cut[s] = lo[s]
		}
		if k == len(vary) {
			return true
		}
	}
}

// closed reports whether the kept prefixes of the varying slots hold the
// causal past of each one's last kept constraint (causal order only; the
// other orders take every combination).
func (p *flipPlan) closed(vary, cut, lo []int32) bool {
	if p.order != causalOrder {
		return true
	}
	for _, a := range vary {
		if cut[a] == lo[a] {
			continue
		}
		last := int(p.threads[a][cut[a]-1])
		for _, b := range vary {
			if b != a && int32(p.pastCount(last, b)) > cut[b] {
				return false
			}
		}
	}
	return true
}

// concText returns the text of concretisation i's term.
func (p *flipPlan) concText(i int) string {
	if t, ok := p.conc[i]; ok {
		return t
	}
	if p.conc == nil {
		p.conc = map[int]string{}
	}
	p.conc[i] = p.cs[i].Term.A.String()
	return p.conc[i]
}

// keep returns the constraints of a kept set (nil: the trace's order).
func (p *flipPlan) keep(i int, cut []int32) []sym.Constraint {
	if cut == nil {
		return p.cs[:i:i]
	}
	n := 0
	for _, c := range cut {
		n += int(c)
	}
	out := make([]sym.Constraint, 0, n)
	for s, c := range cut {
		for _, j := range p.threads[s][:c] {
			out = append(out, p.cs[j])
		}
	}
	return out
}

// tooMany is the reason a search is incomplete when an execution's kept
// sets are too many to ask.
func tooMany(what string) string {
	return fmt.Sprintf("%s (the orders in which other threads' decisions can precede one are %s); use --algo dfs", InputsUnordered, what)
}
