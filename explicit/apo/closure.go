package apo

// This file implements Closure, Algorithm 1 of 003_0c44ef4d03fff5a7.txt
// Section 4.2, with its closure methods Rule1, Rule2 and Rule3 (Algorithms
// 2-4), and the definition of closed annotated partial orders it reaches
// (Section 4.1, Items 1-3).
//
// Why one write per side suffices. For a read r on x, the writes on x are
// two chains: the root's (X1 is totally ordered) and the leaves' (Mwidth 1
// on X2), and r is ordered with every write of its own part. So the
// visible writes of r (VisibleW_P(r)) hold at most one local write, the last
// one before r, and a segment of the remote chain; MinW_P(r) and MaxW_P(r)
// have at most one write per part. That is what makes the "unique event"
// of Algorithms 2-4 unique.

import "fmt"

// Insertion is one ordering From -> To that Closure inserted, by Rule
// (1, 2 or 3: Rule1-Rule3, Algorithms 2-4) for the read Read.
type Insertion struct {
	Rule           int
	Read, From, To int32
}

func (s Insertion) String() string {
	return fmt.Sprintf("%d->%d (Rule%d of %d)", s.From, s.To, s.Rule, s.Read)
}

// Closure returns the closure of p (Section 4.1: the weakest strengthening
// of p that is closed, unique by Lemma 4.2), computed by Algorithm 1, and
// true; or nil and false if p has none (p is not feasible, hence not
// realizable, Lemma 4.3). p is not changed. It returns an error wrapping
// ErrMalformed if p fails Check.
func Closure(p *APO) (*APO, bool, error) {
	q, _, ok, err := ClosureSteps(p)
	return q, ok, err
}

// ClosureSteps is Closure that also returns the orderings inserted, in
// order (the numbered dashed edges of Figure 5a).
//
// Algorithm 1: Q starts as P; while some read r violates Item 1, 2 or 3
// of the definition of closed, call Rule1(r), Rule2(r) or Rule3(r) for the
// first item it violates; each inserts an ordering every linearization of P
// has (a necessary ordering). An insertion that closes a cycle, or a Rule1
// that finds no good visible write, means the closure is ⊥. Each round
// inserts one new ordering, so there are at most n^2 rounds.
func ClosureSteps(p *APO) (*APO, []Insertion, bool, error) {
	if err := p.Check(); err != nil {
		return nil, nil, false, err
	}
	q := p.Clone()
	var steps []Insertion
	ok, err := q.fixpoint(func(r int32) (int32, int32, bool, error) {
		s, ok, err := q.repair(r)
		if err != nil || !ok {
			return 0, 0, false, err
		}
		if s.Rule == 0 {
			return -1, -1, true, nil
		}
		steps = append(steps, s)
		return s.From, s.To, true, nil
	})
	if err != nil || !ok {
		return nil, steps, false, err
	}
	return q, steps, true, nil
}

// fixpoint asks step for one ordering per read, read after read, and
// inserts it, until a round inserts none (true) or step reports ⊥ (false,
// or its error) or an insertion closes a cycle (⊥). step returns from = -1
// when the read needs no ordering.
func (q *APO) fixpoint(step func(r int32) (int32, int32, bool, error)) (bool, error) {
	for {
		changed := false
		for i := range q.Events {
			r := int32(i)
			if q.Events[r].Kind != Read {
				continue
			}
			from, to, ok, err := step(r)
			if err != nil || !ok {
				return false, err
			}
			if from < 0 {
				continue
			}
			if !q.order.Add(from, to) {
				return false, nil // a cycle: ⊥
			}
			changed = true
		}
		if !changed {
			return true, nil
		}
	}
}

// repair checks Items 1-3 for r and returns the ordering the rule of the
// first violated item inserts (Rule 0 if r violates none), or false if
// Rule1 finds no good visible write (Algorithm 2, line 2: ⊥). An error
// means an invariant the paper's argument guarantees did not hold (a bug,
// reported rather than trusted).
func (q *APO) repair(r int32) (Insertion, bool, error) {
	vis := q.Visible(r)
	s := Insertion{Read: r}
	switch {
	case !q.item1(r, vis):
		w, ok := q.rule1(r, vis)
		s.Rule, s.From, s.To = 1, w, r
		return s, ok, nil
	case !q.item2(r, vis):
		s.Rule, s.From, s.To = 2, r, q.rule2(r, vis)
	default:
		wb, ok := q.item3Violation(r, vis)
		if !ok {
			return Insertion{}, true, nil
		}
		s.Rule, s.From, s.To = 3, wb, q.rule3(wb, vis)
	}
	if s.To < 0 {
		return s, false, fmt.Errorf("apo: Rule%d for read %d: no maximal visible write on the other part (Items 1-2 should guarantee one)", s.Rule, r)
	}
	return s, true, nil
}

// Visible returns VisibleW_P(r) (Section 2.3): the writes w on r's
// location with not r < w and no write w' on the location with
// w < w' < r. Closure gives ⊥ if none of them is good for r, and it only
// shrinks as P is strengthened.
func (q *APO) Visible(r int32) []int32 {
	ws := q.writes[q.Events[r].Loc]
	var out []int32
	for _, w := range ws {
		if !q.Before(r, w) && !q.hidden(w, r) {
			out = append(out, w)
		}
	}
	return out
}

// hidden reports whether some write w' on w's location has w < w' < r.
func (q *APO) hidden(w, r int32) bool {
	for _, w2 := range q.writes[q.Events[w].Loc] {
		if q.Before(w, w2) && q.Before(w2, r) {
			return true
		}
	}
	return false
}

// isMin and isMax report whether w is minimal (maximal) in Q|vis.
func (q *APO) isMin(w int32, vis []int32) bool {
	for _, v := range vis {
		if q.Before(v, w) {
			return false
		}
	}
	return true
}

func (q *APO) isMax(w int32, vis []int32) bool {
	for _, v := range vis {
		if q.Before(w, v) {
			return false
		}
	}
	return true
}

func (q *APO) good(r, w int32) bool {
	for _, g := range q.Good[r] {
		if g == w {
			return true
		}
	}
	return false
}

// item1: some w in GoodW(r) ∩ MinW_Q(r) has w < r.
func (q *APO) item1(r int32, vis []int32) bool {
	for _, w := range vis {
		if q.good(r, w) && q.isMin(w, vis) && q.Before(w, r) {
			return true
		}
	}
	return false
}

// item2: MaxW_Q(r) ∩ GoodW(r) is not empty.
func (q *APO) item2(r int32, vis []int32) bool {
	for _, w := range vis {
		if q.good(r, w) && q.isMax(w, vis) {
			return true
		}
	}
	return false
}

// item3Violation returns a write w̄ in BadW(r) ∩ MinW_Q(r) with w̄ < r
// and no w in GoodW(r) ∩ VisibleW_Q(r) with w̄ < w, if there is one
// (Item 3 is violated).
func (q *APO) item3Violation(r int32, vis []int32) (int32, bool) {
	for _, wb := range vis {
		if q.good(r, wb) || !q.isMin(wb, vis) || !q.Before(wb, r) {
			continue
		}
		covered := false
		for _, w := range vis {
			if q.good(r, w) && q.Before(wb, w) {
				covered = true
				break
			}
		}
		if !covered {
			return wb, true
		}
	}
	return 0, false
}

// rule1 is Algorithm 2: Y = GoodW(r) ∩ VisibleW_Q(r); ⊥ if Y is empty;
// else w = min_Q(Y), to be ordered before r. Since Item 1 is violated, Y
// holds remote writes only (the one visible local write, the last one
// before r, is minimal and before r, so it is bad), and they form a chain:
// the minimum is unique.
func (q *APO) rule1(r int32, vis []int32) (int32, bool) {
	var y []int32
	for _, w := range vis {
		if q.good(r, w) {
			y = append(y, w)
		}
	}
	for _, w := range y {
		if q.isMin(w, y) {
			return w, true
		}
	}
	return 0, false
}

// rule2 is Algorithm 3: w = the unique event of MaxW_Q(r) remote to r
// (in X_{3-I(r)}), to be ordered after r. It exists since Item 1 holds:
// the good minimal write before r would otherwise be maximal too.
func (q *APO) rule2(r int32, vis []int32) int32 {
	return q.maxOf(3-q.Part(r), vis)
}

// rule3 is Algorithm 4: given w̄ (the bad minimal write before r that no
// good visible write follows), w = the unique event of MaxW_Q(r) in
// X_{3-I(w̄)}, to be ordered after w̄. It exists and is good since Items
// 1 and 2 hold: every visible write on w̄'s part after w̄ is bad, so the
// good maximal write is on the other part.
func (q *APO) rule3(wb int32, vis []int32) int32 {
	return q.maxOf(3-q.Part(wb), vis)
}

// maxOf returns the maximal visible write in part (a chain), or -1 if
// there is none (the callers' invariants say there always is one).
func (q *APO) maxOf(part int8, vis []int32) int32 {
	for _, w := range vis {
		if q.Part(w) == part && q.isMax(w, vis) {
			return w
		}
	}
	return -1
}

// IsClosed reports whether p is closed: every read satisfies Items 1-3 of
// the definition (Section 4.1). p must pass Check.
func IsClosed(p *APO) bool {
	for i := range p.Events {
		r := int32(i)
		if p.Events[r].Kind != Read {
			continue
		}
		if s, ok, err := p.repair(r); err != nil || !ok || s.Rule != 0 {
			return false
		}
	}
	return true
}
