package sym

import (
	"fmt"
	"math"
	"sort"

	"mcr/program"
)

// Explicit decides a query without an SMT solver, in three steps:
//  1. candidates: assignments built from a few values per input (0, 1,
//     -1, the extremes of its type, the constants of the query and their
//     neighbours); one that satisfies the query proves it Sat;
//  2. ranges: each input's interval under the query's bounds on it alone
//     (x < 5, x >= 0, x == 3 among the kept constraints);
//  3. enumeration of every assignment over those intervals when there
//     are at most Limit (the --input-domain flag) of them: Sat or Unsat.
//
// Otherwise the answer is Unknown.
type Explicit struct {
	Limit uint64
}

// DefaultDomain is the default Explicit.Limit.
const DefaultDomain = 4096

// maxCandidates bounds the candidate assignments of step 1.
const maxCandidates = 4096

// Solve implements Solver.
func (e Explicit) Solve(q *Query) (Status, map[program.InputID]int64, string) {
	vars := q.Vars()
	lim := e.Limit
	if lim == 0 {
		lim = DefaultDomain
	}
	vals := make(map[program.InputID]int64, len(vars))
	env := func(v *Var) int64 { return vals[v.ID()] }
	holds := func() bool {
		memo := map[*Term]int64{}
		if q.Flip.Holds(env, memo) {
			return false
		}
		for k := range q.Keep {
			if !q.Keep[k].Holds(env, memo) {
				return false
			}
		}
		return true
	}
	model := func() map[program.InputID]int64 {
		m := make(map[program.InputID]int64, len(vars))
		for _, v := range vars {
			m[v.ID()] = vals[v.ID()]
		}
		return m
	}
	// the intervals
	ivs := make([]interval, len(vars))
	neg := q.Flip
	neg.Taken = !neg.Taken
	for i, v := range vars {
		// bounds on the input itself, and on each conversion of it (an
		// unsigned input stored in an int): a conversion's interval
		// carries over to the input when it is non-negative and within
		// the input's range
		views := map[view]interval{}
		for k := 0; k <= len(q.Keep); k++ {
			c := &neg
			if k < len(q.Keep) {
				c = &q.Keep[k]
			}
			if vw, iv, ok := bound(c, v); ok {
				if cur, seen := views[vw]; seen {
					iv = cur.meet(iv)
				}
				views[vw] = iv
			}
		}
		ivs[i] = typeRange(v)
		for vw, iv := range views {
			if vw.direct {
				ivs[i] = ivs[i].meet(iv)
				continue
			}
			iv = iv.meet(viewRange(vw))
			if iv.empty() {
				return Unsat, nil, ""
			}
			if vw.w >= v.W && iv.lo >= 0 && iv.hi <= typeRange(v).hi {
				ivs[i] = ivs[i].meet(iv)
			}
		}
		if ivs[i].empty() {
			return Unsat, nil, ""
		}
	}
	// 1. candidates
	consts := map[int64]bool{}
	collectConsts(q, consts)
	cands := make([][]int64, len(vars))
	total := 1
	for i := range vars {
		cands[i] = candidates(ivs[i], consts)
		total *= len(cands[i])
		if total > maxCandidates {
			total = maxCandidates
		}
	}
	for n := 0; n < total; n++ {
		r := n
		for i, v := range vars {
			vals[v.ID()] = cands[i][r%len(cands[i])]
			r /= len(cands[i])
		}
		if holds() {
			return Sat, model(), ""
		}
	}
	// 2. and 3. enumeration over the intervals
	size := uint64(1)
	for _, iv := range ivs {
		d := iv.size()
		if d == 0 || d > lim || size > lim/d {
			return Unknown, nil, fmt.Sprintf("the query's %d inputs have more than %d value combinations within their bounds (--input-domain)", len(vars), lim)
		}
		size *= d
	}
	for n := uint64(0); n < size; n++ {
		r := n
		for i, v := range vars {
			d := ivs[i].size()
			vals[v.ID()] = ivs[i].lo + int64(r%d)
			r /= d
		}
		if holds() {
			return Sat, model(), ""
		}
	}
	return Unsat, nil, ""
}

// interval is [lo, hi] of normalised values.
type interval struct{ lo, hi int64 }

func (a interval) empty() bool { return a.lo > a.hi }

func (a interval) meet(b interval) interval {
	return interval{max(a.lo, b.lo), min(a.hi, b.hi)}
}

// size is the number of values, 0 if it does not fit (or is empty).
func (a interval) size() uint64 {
	if a.empty() {
		return 0
	}
	d := uint64(a.hi) - uint64(a.lo)
	if d == math.MaxUint64 {
		return 0
	}
	return d + 1
}

var full = interval{math.MinInt64, math.MaxInt64}

func typeRange(v *Var) interval {
	switch {
	case v.Bool:
		return interval{0, 1}
	case v.W >= 8:
		return full // unsigned: values from 2^63 on are negative int64s
	case v.Signed:
		h := int64(1)<<(8*v.W-1) - 1
		return interval{-h - 1, h}
	}
	return interval{0, int64(1)<<(8*v.W) - 1}
}

// view is how a bound sees an input: directly, or converted to w bytes.
type view struct {
	direct bool
	w      uint8
	signed bool
}

func viewRange(vw view) interval {
	switch {
	case vw.w >= 8:
		return full
	case vw.signed:
		h := int64(1)<<(8*vw.w-1) - 1
		return interval{-h - 1, h}
	}
	return interval{0, int64(1)<<(8*vw.w) - 1}
}

// bound is the interval the constraint c confines a view of v to when c
// bounds it alone (view cmp constant); ok false if c is no such bound.
func bound(c *Constraint, v *Var) (view, interval, bool) {
	vw := view{direct: true}
	iv := bound1(c, v, &vw)
	return vw, iv, iv != full
}

func bound1(c *Constraint, v *Var, vw *view) interval {
	t, taken := c.Term, c.Taken
	// (x != 0) and (x == 0) around a comparison
	for (t.Op == OpNe || t.Op == OpEq) && t.B.Op == OpConst && t.B.Val == 0 && isCmp(t.A.Op) {
		if t.Op == OpEq {
			taken = !taken
		}
		t = t.A
	}
	if !isCmp(t.Op) {
		return full
	}
	isV := func(x *Term) bool {
		if x.Op == OpConv && x.A.Op == OpVar && x.A.Var.ID() == v.ID() {
			*vw = view{w: x.W, signed: x.Signed}
			return true
		}
		return x.Op == OpVar && x.Var.ID() == v.ID()
	}
	op := t.Op
	var k int64
	flipped := false
	switch {
	case isV(t.A) && t.B.Op == OpConst:
		k = t.B.Val
	case isV(t.B) && t.A.Op == OpConst:
		k, flipped = t.A.Val, true
	default:
		return full
	}
	unsignedOp := op == OpULt || op == OpULe
	nonNeg := v.Bool || !v.Signed && v.W < 8
	if !vw.direct {
		nonNeg = !vw.signed && vw.w < 8
	}
	if unsignedOp && (k < 0 || !nonNeg) {
		return full // unsigned order agrees with the signed one only on non-negative values
	}
	if !taken {
		// not (a < b) is b <= a, not (a <= b) is b < a
		switch op {
		case OpEq:
			return full
		case OpNe:
			op = OpEq
		case OpSLt, OpULt:
			op, flipped = OpSLe, !flipped
		case OpSLe, OpULe:
			op, flipped = OpSLt, !flipped
		}
	} else if op == OpULt {
		op = OpSLt
	} else if op == OpULe {
		op = OpSLe
	}
	switch op {
	case OpEq:
		return interval{k, k}
	case OpNe:
		return full
	case OpSLt:
		if flipped { // k < v
			if k == math.MaxInt64 {
				return interval{1, 0}
			}
			return interval{k + 1, math.MaxInt64}
		}
		if k == math.MinInt64 {
			return interval{1, 0}
		}
		return interval{math.MinInt64, k - 1}
	case OpSLe:
		if flipped {
			return interval{k, math.MaxInt64}
		}
		return interval{math.MinInt64, k}
	}
	return full
}

func isCmp(op Op) bool {
	switch op {
	case OpEq, OpNe, OpSLt, OpSLe, OpULt, OpULe:
		return true
	}
	return false
}

func collectConsts(q *Query, out map[int64]bool) {
	seen := map[*Term]bool{}
	var walk func(t *Term)
	walk = func(t *Term) {
		if t == nil || seen[t] || len(out) > 64 {
			return
		}
		seen[t] = true
		if t.Op == OpConst {
			out[t.Val] = true
			return
		}
		walk(t.A)
		walk(t.B)
		walk(t.C)
	}
	for i := range q.Keep {
		walk(q.Keep[i].Term)
	}
	walk(q.Flip.Term)
}

// candidates are a few values of iv worth trying first: 0, 1, -1, the
// query's constants and their neighbours, the interval's ends.
func candidates(iv interval, consts map[int64]bool) []int64 {
	var out []int64
	set := map[int64]bool{}
	add := func(x int64) {
		if x >= iv.lo && x <= iv.hi && !set[x] && len(out) < 24 {
			set[x] = true
			out = append(out, x)
		}
	}
	for _, x := range []int64{0, 1, -1} {
		add(x)
	}
	cs := make([]int64, 0, len(consts))
	for c := range consts {
		cs = append(cs, c)
	}
	// small magnitudes first: a concretised index excludes the values seen
	// so far, and their neighbours nearest 0 are the next ones to try
	abs := func(x int64) uint64 {
		if x < 0 {
			return uint64(-x)
		}
		return uint64(x)
	}
	sort.Slice(cs, func(i, j int) bool {
		if a, b := abs(cs[i]), abs(cs[j]); a != b {
			return a < b
		}
		return cs[i] < cs[j]
	})
	for _, c := range cs {
		add(c)
		if c > math.MinInt64 {
			add(c - 1)
		}
		if c < math.MaxInt64 {
			add(c + 1)
		}
	}
	add(iv.lo)
	add(iv.hi)
	if iv.lo < math.MaxInt64 {
		add(iv.lo + 1)
	}
	if iv.hi > math.MinInt64 {
		add(iv.hi - 1)
	}
	if len(out) == 0 {
		out = []int64{iv.lo}
	}
	return out
}
