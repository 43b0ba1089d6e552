// Package apo implements annotated partial orders, their closure and their
// realization, Section 4 of 003_0c44ef4d03fff5a7.txt (VC-DPOR, Chatterjee,
// Pavlogiannis and Toman, OOPSLA 2019).
//
// An annotated partial order P = (X1, X2, P, val, S, GoodW) is a partial
// order over the events of a root thread (X1, thread 0 here) and of leaf
// threads (X2, every other thread), with a value per event, a side S(r) in
// {1, 2} per root read (does it read a local or a remote write) and a set of
// good writes per read. A linearization is a total order that refines P in
// which every read observes (is preceded most recently on its location by)
// one of its good writes. P must have width 1 on X1 and Mazurkiewicz width 1
// on X2: the root's events are totally ordered, and so is every pair of
// conflicting leaf events.
//
//	function   file          source (seed 003)
//	Closure    closure.go    Algorithm 1 with Rule1-Rule3 (Algorithms 2-4), Lemmas 4.2-4.4
//	Realize    realize.go    Section 4.3 (closure, then the witness of Lemma 4.1)
//	IsClosed   closure.go    the three items of "closed annotated partial orders" (Section 4.1)
//	Linearizes realize.go    the definition of a linearization (Section 4.1)
//	ToInstance instance.go   the same question as a good-writes consistency instance
//
// Everything here is polynomial: with n events, Closure inserts at most n^2
// orderings, each found in O(n^2) and inserted in O(n^2/64).
package apo

import (
	"errors"
	"fmt"
	"slices"
)

// Kind is the kind of an event: the model of Section 2.1 has reads and
// writes; Local events (thread begin and end, spawn, join) conflict with
// nothing and only carry the orderings of dynamic thread creation
// (Section 6, implementation detail 1).
type Kind uint8

const (
	Read Kind = iota
	Write
	Local
)

func (k Kind) String() string {
	return [...]string{"r", "w", "l"}[k]
}

// Event is one event of an annotated partial order.
type Event struct {
	Thread int32 // 0 is the root thread p1 (X1); every other thread is a leaf (X2)
	Kind   Kind
	Loc    int32 // the global variable, 0 or more
	Value  int64 // val(e): the value read or written
}

// APO is an annotated partial order (Section 4.1). Events are dense
// numbers 0..n-1; the events of one thread appear in thread order (an
// event's thread predecessor has a smaller number), and the partial order
// always contains the thread order.
type APO struct {
	// Events holds the events; do not change them after New.
	Events []Event
	// Side holds S(r) (1: a local write, 2: a remote write) for the reads
	// of the root thread, 0 for every other event.
	Side []int8
	// Good holds GoodW(r) per read, sorted, without duplicates; nil for
	// writes.
	Good [][]int32

	shared  bool // Side and Good may be another APO's too (Clone): own copies them
	order   *Order
	threads int       // number of threads (max Thread + 1)
	writes  [][]int32 // per location: its writes in increasing number
}

// ErrMalformed is wrapped by the errors of New and Check.
var ErrMalformed = errors.New("malformed annotated partial order")

// New returns the annotated partial order over events whose order is the
// thread order (the events of each thread in number order), with no good
// writes and no sides yet. Threads and locations must be non-negative.
func New(events []Event) (*APO, error) {
	p := &APO{Events: slices.Clone(events), Side: make([]int8, len(events)), Good: make([][]int32, len(events)),
		order: NewOrder(len(events))}
	last := map[int32]int32{}
	for i, e := range events {
		if e.Thread < 0 || e.Loc < 0 || e.Kind > Local {
			return nil, fmt.Errorf("%w: event %d: bad thread, location or kind", ErrMalformed, i)
		}
		p.threads = max(p.threads, int(e.Thread)+1)
		for int(e.Loc) >= len(p.writes) {
			p.writes = append(p.writes, nil)
		}
		if e.Kind == Write {
			p.writes[e.Loc] = append(p.writes[e.Loc], int32(i))
		}
		if j, ok := last[e.Thread]; ok {
			p.order.Add(j, int32(i))
		}
		last[e.Thread] = int32(i)
	}
	return p, nil
}

// Clone returns a copy that shares only the immutable events.
func (p *APO) Clone() *APO {
	q := *p
	q.Events = slices.Clip(p.Events) // Append copies it; p may append in place
	q.writes = slices.Clone(p.writes)
	for l := range q.writes {
		q.writes[l] = slices.Clip(q.writes[l])
	}
	p.shared, q.shared = true, true // Side and Good: copied by the first to change them
	q.order = p.order.Clone()
	return &q
}

// own gives p its own Side and Good (with room for a few more events)
// if a clone may share them.
func (p *APO) own() {
	if !p.shared {
		return
	}
	p.Side = append(make([]int8, 0, len(p.Side)+4), p.Side...)
	p.Good = append(make([][]int32, 0, len(p.Good)+4), p.Good...)
	p.shared = false
}

// Len returns the number of events.
func (p *APO) Len() int { return len(p.Events) }

// Threads returns the number of threads (the largest Thread plus one).
func (p *APO) Threads() int { return p.threads }

// Part returns I_P(e): 1 if e is a root event (X1), 2 if a leaf event (X2).
func (p *APO) Part(e int32) int8 {
	if p.Events[e].Thread == 0 {
		return 1
	}
	return 2
}

// Before reports e1 <_P e2.
func (p *APO) Before(e1, e2 int32) bool { return p.order.Before(e1, e2) }

// Order adds e1 <_P e2 (and what transitivity implies). It returns false,
// and leaves P unchanged, if that would close a cycle.
func (p *APO) Order(e1, e2 int32) bool { return p.order.Add(e1, e2) }

// SetGood sets GoodW(r) and, for a root read, S(r) (side is ignored for a
// leaf read). Check verifies the result.
func (p *APO) SetGood(r int32, side int8, good []int32) {
	g := slices.Clone(good)
	slices.Sort(g)
	p.own()
	p.Good[r] = slices.Compact(g)
	if p.Part(r) == 1 {
		p.Side[r] = side
	}
}

// SetValue sets val(e). e must be p's own: appended after p's last Clone
// (Events is shared with clones, Clone clips it, so an Append copies it).
func (p *APO) SetValue(e int32, v int64) {
	p.Events[e].Value = v
}

// Writes returns the writes to location loc in increasing number (shared:
// do not change it).
func (p *APO) Writes(loc int32) []int32 {
	if int(loc) >= len(p.writes) {
		return nil
	}
	return p.writes[loc]
}

// Conflict reports e1 ⋈ e2: the same location, at least one a write.
func (p *APO) Conflict(e1, e2 int32) bool {
	a, b := &p.Events[e1], &p.Events[e2]
	return a.Kind != Local && b.Kind != Local && a.Loc == b.Loc && (a.Kind == Write || b.Kind == Write)
}

// Append adds event e after every event of its thread (thread order) and
// returns its number; the order grows by e with those orderings only.
// O(n^2/64).
func (p *APO) Append(e Event) int32 {
	n := int32(len(p.Events))
	last := int32(-1)
	for i := n - 1; i >= 0; i-- {
		if p.Events[i].Thread == e.Thread {
			last = i
			break
		}
	}
	// A clone's Events has no room (Clone clips it), so appending here
	// never writes where another APO reads; Side and Good are p's own.
	p.Events = append(p.Events, e)
	p.own()
	p.Side = append(p.Side, 0)
	p.Good = append(p.Good, nil)
	p.order = p.order.Grow(int(n) + 1)
	p.threads = max(p.threads, int(e.Thread)+1)
	if e.Kind == Write {
		for int(e.Loc) >= len(p.writes) {
			p.writes = append(p.writes, nil)
		}
		p.writes[e.Loc] = append(p.writes[e.Loc], n) // clipped in clones, like Events
	}
	if last >= 0 {
		p.order.Add(last, n)
	}
	return n
}

// Check verifies items (4)-(6) of the definition of annotated partial
// orders (Section 4.1): every read has a non-empty good-writes set of
// writes to its location with its value, on side S(r) for a root read; the
// order is total on X1 (by construction) and on every conflicting pair of
// X2. It returns an error wrapping ErrMalformed.
func (p *APO) Check() error {
	if err := p.CheckRelaxed(); err != nil {
		return err
	}
	if a, b, ok := p.unorderedLeafPair(); ok {
		return fmt.Errorf("%w: leaf events %d and %d conflict but are unordered (Mwidth(P|X2) > 1)", ErrMalformed, a, b)
	}
	return nil
}

// CheckRelaxed is Check without item (6) on X2: conflicting leaf events
// may be unordered (the never-good / unobservable relaxation of Section 6,
// implementation detail 3; see relaxed.go).
func (p *APO) CheckRelaxed() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
	}
	for i := range p.Events {
		r, e := int32(i), &p.Events[i]
		if e.Kind != Read {
			if p.Good[r] != nil || p.Side[r] != 0 {
				return fail("%s event %d has good writes or a side", e.Kind, r)
			}
			continue
		}
		if len(p.Good[r]) == 0 {
			return fail("read %d has no good writes", r)
		}
		if p.Part(r) == 1 && p.Side[r] != 1 && p.Side[r] != 2 {
			return fail("root read %d has side %d, want 1 or 2", r, p.Side[r])
		}
		if p.Part(r) == 2 && p.Side[r] != 0 {
			return fail("leaf read %d has a side", r)
		}
		for k, w := range p.Good[r] {
			if w < 0 || int(w) >= len(p.Events) || (k > 0 && w <= p.Good[r][k-1]) {
				return fail("read %d: good writes out of range, unsorted or repeated", r)
			}
			we := &p.Events[w]
			if we.Kind != Write || we.Loc != e.Loc || we.Value != e.Value {
				return fail("read %d: good write %d is not a write of value %d to location %d", r, w, e.Value, e.Loc)
			}
			if p.Part(r) == 1 && p.Part(w) != p.Side[r] {
				return fail("root read %d: good write %d is not on side %d", r, w, p.Side[r])
			}
		}
	}
	return nil
}

// unorderedLeafPair returns two conflicting leaf events that P leaves
// unordered, if there are any (then Mwidth(P|X2) > 1). It looks only at
// pairs on one location with a write among them (O(sum of the squares of
// the accesses per location), not O(n^2) over all pairs).
func (p *APO) unorderedLeafPair() (int32, int32, bool) {
	reads := make([][]int32, len(p.writes))
	for i := range p.Events {
		if e := &p.Events[i]; e.Kind == Read && e.Thread != 0 && int(e.Loc) < len(reads) {
			reads[e.Loc] = append(reads[e.Loc], int32(i))
		}
	}
	unordered := func(x, y int32) bool { return !p.Before(x, y) && !p.Before(y, x) }
	for l, ws := range p.writes {
		for k, w := range ws {
			if p.Part(w) != 2 {
				continue
			}
			for _, v := range ws[k+1:] {
				if p.Part(v) == 2 && unordered(w, v) {
					return min(w, v), max(w, v), true
				}
			}
			for _, r := range reads[l] {
				if unordered(w, r) {
					return min(w, r), max(w, r), true
				}
			}
		}
	}
	return 0, 0, false
}

// String renders the events and good writes, for test messages.
func (p *APO) String() string {
	b := []byte{}
	for i, e := range p.Events {
		b = fmt.Appendf(b, "%d:T%d %s(x%d)=%d", i, e.Thread, e.Kind, e.Loc, e.Value)
		if e.Kind == Read {
			b = fmt.Appendf(b, " good%v", p.Good[i])
			if p.Side[i] != 0 {
				b = fmt.Appendf(b, " S=%d", p.Side[i])
			}
		}
		b = append(b, '\n')
	}
	for a := range p.Events {
		for c := range p.Events {
			if p.Events[a].Thread != p.Events[c].Thread && p.coveredEdge(int32(a), int32(c)) {
				b = fmt.Appendf(b, "%d<%d ", a, c)
			}
		}
	}
	return string(b)
}

// coveredEdge reports whether a <_P b is a covering pair (nothing between).
func (p *APO) coveredEdge(a, b int32) bool {
	if !p.Before(a, b) {
		return false
	}
	for c := range p.Events {
		if p.Before(a, int32(c)) && p.Before(int32(c), b) {
			return false
		}
	}
	return true
}
