package explore

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"time"

	"mcr/program"
	"mcr/program/sym"
)

// This file is the concolic driver (issue 16): the input exploration that
// wraps a scheduling exploration. A program that reads inputs
// (__VERIFIER_nondet_*) is explored once per input vector, starting from
// all zeros; each finished execution's path condition c_1..c_n (in trace
// order) gives, for each i, the query c_1 ∧ ... ∧ c_{i-1} ∧ ¬c_i, whose
// solutions are new input vectors.
//
// Completeness: every feasible (path, interleaving) pair is reached when
// each explored execution asks its flips under every set of kept
// constraints that some execution of the same class (reads-from class for
// rf, read-value map for mcr) would put before them: inputcuts.go gives
// the argument and the sets. With dfs that is the trace prefix, as in
// sequential concolic testing per schedule.

// ConcolicExecution is implemented by executions of programs that read
// inputs: Concolic returns the execution's path (nil if the program reads
// none).
type ConcolicExecution interface {
	Concolic() *sym.Path
}

// InputOptions control the input exploration.
type InputOptions struct {
	// Solver decides the queries (Z3, the explicit solver, or a chain).
	Solver sym.Solver
	// MaxInputs bounds the input vectors explored (0: DefaultMaxInputs).
	MaxInputs int
	// Exhaustive says that the scheduling algorithm explores every
	// interleaving (dfs): a flip keeps the constraints before it in the
	// trace. Otherwise the algorithm explores at least one execution per
	// reads-from class (rf), and a flip keeps every set of constraints
	// some order of the class puts before it (inputcuts.go).
	Exhaustive bool
	// ValueBased says that the scheduling algorithm explores at least one
	// execution per read-value map (mcr), not per reads-from class: a
	// flip keeps every combination of per-thread prefixes, and the search
	// stops, incomplete (InputsSharedStore), at the first execution that
	// stores an input-derived value in shared memory.
	ValueBased bool
	// Note is added to the statistics' algorithm name (e.g. why rf
	// explores the schedules instead of the algorithm asked for).
	Note string
	// Fallback explores the schedules again, as an algorithm that covers
	// every reads-from class (rf) under FallbackConfig, when a ValueBased
	// search stops because a read's value may not tell its term
	// (InputsSharedStore) or at a trylock it explores one outcome of
	// (TrylocksNotExplored). Nil: the search stays incomplete.
	Fallback       *Algorithm
	FallbackConfig Config
	// Vectors, if set, sees every input vector before it is explored
	// (tests).
	Vectors func([]program.InputValue)
}

// DefaultMaxInputs is the default InputOptions.MaxInputs.
const DefaultMaxInputs = 1000

// Input statistics (Stats.Extra).
const (
	StatInputVectors        = "input_vectors"
	StatInputQueries        = "input_queries"
	StatInputQueriesUnknown = "input_queries_unknown"
	StatInputQueriesSat     = "input_queries_sat"
)

// HasInputs reports whether p reads inputs.
func HasInputs(p program.Program) bool {
	ip, ok := p.(program.InputProgram)
	return ok && ip.HasInputs()
}

// ExploreInputs explores p with a for every input vector the concolic
// search finds; a program without inputs is explored by a alone.
func ExploreInputs(ctx context.Context, a *Algorithm, p program.Program, opts Options, cfg Config, io InputOptions) *Result {
	if !HasInputs(p) {
		return a.Explore(ctx, p, opts, cfg)
	}
	res := exploreInputs(ctx, a, p, opts, cfg, io)
	s := &res.Stats
	if !io.ValueBased || io.Fallback == nil || s.Complete || len(res.Findings) > 0 && !opts.KeepGoing || ctx.Err() != nil {
		return res
	}
	why := ""
	for _, w := range []string{InputsSharedStore, TrylocksNotExplored} {
		if strings.Contains(s.Stopped, w) {
			why = s.Stopped
		}
	}
	if why == "" {
		return res
	}
	fo := io
	fo.ValueBased, fo.Fallback = false, nil
	fo.Note = fmt.Sprintf(" (inputs: scheduling explored again with %s: %s stopped: %s)", io.Fallback.Name, a.Name, why)
	r := exploreInputs(ctx, io.Fallback, p, opts, io.FallbackConfig, fo)
	r.Stats.Executions += s.Executions
	r.Stats.Events += s.Events
	return r
}

func exploreInputs(ctx context.Context, a *Algorithm, p program.Program, opts Options, cfg Config, io InputOptions) *Result {
	ip := p.(program.InputProgram)
	if io.MaxInputs <= 0 {
		io.MaxInputs = DefaultMaxInputs
	}
	if io.Solver == nil {
		io.Solver = sym.Explicit{}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d := &driver{ctx: ctx, cancel: cancel, io: io, seenVec: map[string]bool{}, seenQuery: map[[32]byte]bool{}, concSeen: map[[32]byte]map[int64]bool{}, findings: map[string]bool{}}
	start := time.Now()
	d.res.Stats = Stats{Algorithm: a.Name + io.Note, Complete: true}
	d.push(map[program.InputID]int64{})
	for len(d.work) > 0 || len(d.deferred) > 0 || len(d.plans) > 0 {
		if d.shared != "" {
			break
		}
		if ctx.Err() != nil {
			d.incomplete(StopReason(ctx))
			d.res.Stats.Stopped = StopReason(ctx)
			break
		}
		if len(d.work) == 0 {
			d.solveDeferred()
			continue
		}
		if d.vectors >= io.MaxInputs {
			d.incomplete(fmt.Sprintf("input vector bound reached (%d, --max-inputs): %d input vectors not explored", io.MaxInputs, len(d.work)))
			break
		}
		vec := d.work[0]
		d.work = d.work[1:]
		d.vectors++
		in := vectorList(vec)
		if io.Vectors != nil {
			io.Vectors(in)
		}
		q := ip.WithInputs(in)
		o := opts
		d.queries = d.queries[:0]
		d.vec = vec
		d.validate = opts.Validate
		o.Observe = func(x program.Execution) {
			if opts.Observe != nil {
				opts.Observe(x)
			}
			d.observe(x)
		}
		r := a.Explore(ctx, q, o, cfg)
		if d.shared != "" {
			d.incomplete(d.shared)
			d.res.Stats.Stopped = d.shared
			d.merge(r, in, opts)
			break
		}
		stop := d.merge(r, in, opts)
		for _, qu := range d.queries {
			if ctx.Err() != nil {
				break
			}
			d.solve(qu, vec)
		}
		if stop {
			break
		}
	}
	s := &d.res.Stats
	s.Extra = addExtra(s.Extra, StatInputVectors, float64(d.vectors))
	s.Extra = addExtra(s.Extra, StatInputQueries, float64(d.nq))
	s.Extra = addExtra(s.Extra, StatInputQueriesSat, float64(d.nsat))
	s.Extra = addExtra(s.Extra, StatInputQueriesUnknown, float64(d.nunknown))
	if d.validate {
		s.Extra = addExtra(s.Extra, "input_path_errors", float64(d.badPaths))
	}
	s.Elapsed = time.Since(start)
	s.Seconds = s.Elapsed.Seconds()
	sort.SliceStable(d.res.Findings, func(i, j int) bool { return d.res.Findings[i].Key() < d.res.Findings[j].Key() })
	return &d.res
}

func addExtra(m map[string]float64, k string, v float64) map[string]float64 {
	if m == nil {
		m = map[string]float64{}
	}
	m[k] += v
	return m
}

type driver struct {
	// ctx is the search's: observe polls it, for one long execution's
	// path can hold tens of thousands of constraints (a loop cut by the
	// event bound) and must not hold --timeout up
	ctx       context.Context
	cancel    context.CancelFunc
	shared    string // why a value-based search stopped (InputsSharedStore)
	io        InputOptions
	work      []map[program.InputID]int64
	seenVec   map[string]bool
	seenQuery map[[32]byte]bool
	// concSeen: per concretisation point (path prefix and term), the
	// values seen there
	concSeen map[[32]byte]map[int64]bool
	queries  []pendingQuery
	// deferred: the queries of kept sets other than the trace's own order
	// (inputcuts.go), asked when no input vector is left to explore: a
	// search that finds a violation finds it about as early as with the
	// trace's order alone, and says complete only after all of them
	deferred []pendingQuery
	plans    []deferredPlan // executions whose other kept sets wait
	retained int            // their decisions and events
	vectors  int
	nq       int
	nsat     int
	nunknown int
	res      Result
	findings map[string]bool
	vec      map[program.InputID]int64 // the vector being explored
	validate bool                      // Options.Validate: check every path against vec
	// badPaths counts constraints that do not hold under the inputs
	// their execution read (the shadow disagrees with the interpreter)
	badPaths int
}

func (d *driver) incomplete(why string) {
	d.res.Stats.Complete = false
	if d.res.Stats.Unmodelled == "" {
		d.res.Stats.Unmodelled = "inputs: " + why
	}
}

// vectorList renders a vector as a sorted list (its canonical form).
func vectorList(vec map[program.InputID]int64) []program.InputValue {
	out := make([]program.InputValue, 0, len(vec))
	for id, v := range vec {
		out = append(out, program.InputValue{Thread: id.Thread, K: id.K, Value: v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Thread != out[j].Thread {
			return out[i].Thread < out[j].Thread
		}
		return out[i].K < out[j].K
	})
	return out
}

func (d *driver) push(vec map[program.InputID]int64) {
	// zero values are the default: drop them so that equal vectors have
	// one form
	for id, v := range vec {
		if v == 0 {
			delete(vec, id)
		}
	}
	k := fmt.Sprint(vectorList(vec))
	if d.seenVec[k] {
		return
	}
	d.seenVec[k] = true
	d.work = append(d.work, vec)
}

// observe takes the queries of one finished execution: for each
// decision, its flip under each set of kept constraints the search needs
// (inputcuts.go).
func (d *driver) observe(x program.Execution) {
	cx, ok := x.(ConcolicExecution)
	if !ok {
		return
	}
	path := cx.Concolic()
	if path == nil {
		return
	}
	if path.Incomplete != "" {
		d.incomplete(path.Incomplete)
	}
	if d.io.ValueBased && d.shared == "" {
		if why := valuesTellTerms(d.ctx, x.Trace(), path); why != "" {
			d.shared = InputsSharedStore + " (" + why + ")"
			d.cancel()
			return
		}
	}
	cs := path.Constraints
	if len(cs) == 0 {
		return
	}
	if d.validate {
		env := func(v *sym.Var) int64 { return v.Norm(d.vec[v.ID()]) }
		memo := map[*sym.Term]int64{}
		for i := range cs {
			if i%256 == 255 && d.ctx.Err() != nil {
				return
			}
			if !cs[i].Holds(env, memo) {
				d.badPaths++
				if d.res.Stats.Stopped == "" {
					d.res.Stats.Stopped = fmt.Sprintf("internal error: the %s constraint at line %d does not hold under the inputs that took it: %s", cs[i].What, cs[i].Pos.Line, cs[i].Key())
				}
				d.res.Stats.Complete = false
			}
		}
	}
	order := causalOrder
	switch {
	case d.io.Exhaustive:
		order = traceOrder
	case d.io.ValueBased:
		order = programOrder
	}
	if order != traceOrder && len(cs) > maxCutConstraints && len(d.threadsOf(cs)) > 1 {
		d.incomplete(tooMany(fmt.Sprintf("not enumerated for an execution with more than %d input-dependent decisions", maxCutConstraints)))
		order = traceOrder
	}
	plan := newFlipPlan(d.ctx, order, x.Trace(), cs)
	if plan == nil {
		return // the search is over: ExploreInputs says it is incomplete
	}
	for i := range cs {
		if i%256 == 255 && d.ctx.Err() != nil {
			return
		}
		_, h := plan.traceCut(i)
		d.ask(plan, i, nil, h, d.vec, true)
	}
	if plan.order != traceOrder {
		// the other kept sets, enumerated when no vector is left
		if d.retained += len(cs) + len(x.Trace().Events); d.retained > maxRetained {
			d.incomplete(tooMany(fmt.Sprintf("not kept for more than %d decisions and events", maxRetained)))
			return
		}
		d.plans = append(d.plans, deferredPlan{plan, d.vec})
	}
}

// maxRetained bounds the decisions and events of the executions whose
// other kept sets wait to be enumerated.
const maxRetained = 20_000_000

// deferredPlan is an execution whose kept sets beyond the trace's order
// are still to be asked, with its input vector.
type deferredPlan struct {
	plan *flipPlan
	base map[program.InputID]int64
}

// ask queues flip i of plan under the kept set cut (nil: the trace's
// order) with hash h, unless the same query was asked: primary queries
// are asked after their vector's exploration, the others when no vector
// is left.
func (d *driver) ask(plan *flipPlan, i int, cut []int32, h setHash, base map[program.InputID]int64, primary bool) {
	c := &plan.cs[i]
	prefix := h.bytes()
	fh := sha256.New()
	fh.Write(prefix)
	fh.Write([]byte("|flip|"))
	var extra []sym.Constraint
	if c.Conc {
		// A concretisation: ask for a value of its term not seen with
		// this set yet (flipping only the current one would swing
		// between two values).
		t := c.Term.A
		fk := sha256.Sum256([]byte(string(prefix) + "|conc|" + plan.concText(i)))
		seen := d.concSeen[fk]
		if seen == nil {
			seen = map[int64]bool{}
			d.concSeen[fk] = seen
		}
		seen[c.Value] = true
		vals := make([]int64, 0, len(seen))
		for v := range seen {
			vals = append(vals, v)
		}
		sort.Slice(vals, func(a, b int) bool { return vals[a] < vals[b] })
		for _, v := range vals {
			fmt.Fprintf(fh, "%d,", v)
			if v != c.Value {
				extra = append(extra, sym.Constraint{Term: sym.Bin(sym.OpEq, t, sym.Const(v)), Taken: false, Pos: c.Pos, Thread: c.Thread, Events: c.Events, What: c.What})
			}
		}
	} else {
		fh.Write(plan.keys[i][:])
	}
	var qk [32]byte
	copy(qk[:], fh.Sum(nil))
	if d.seenQuery[qk] {
		return
	}
	d.seenQuery[qk] = true
	q := pendingQuery{plan: plan, i: i, cut: cut, extra: extra, base: base}
	if primary {
		d.queries = append(d.queries, q)
	} else {
		d.deferred = append(d.deferred, q)
	}
}

// threadsOf returns the threads with constraints in cs.
func (d *driver) threadsOf(cs []sym.Constraint) map[program.ThreadID]bool {
	m := map[program.ThreadID]bool{}
	for i := range cs {
		m[cs[i].Thread] = true
	}
	return m
}

// pendingQuery is a flip query not built yet: flip i of plan's path, the
// kept set cut (nil in trace order) and the values a concretisation must
// not take again.
type pendingQuery struct {
	plan  *flipPlan
	i     int
	cut   []int32
	extra []sym.Constraint
	base  map[program.InputID]int64 // deferred: the vector of its execution
}

// solveDeferred asks deferred queries, enumerating the kept sets of
// retained executions as needed, until one gives a new input vector or
// none is left.
func (d *driver) solveDeferred() {
	for len(d.work) == 0 && d.ctx.Err() == nil {
		if len(d.deferred) == 0 {
			if len(d.plans) == 0 {
				return
			}
			dp := d.plans[0]
			d.plans[0] = deferredPlan{}
			d.plans = d.plans[1:]
			d.retained -= len(dp.plan.cs) + len(dp.plan.tr.Events)
			budget := maxCuts
			for i := range dp.plan.cs {
				if i%256 == 255 && d.ctx.Err() != nil {
					return
				}
				if !dp.plan.cuts(i, &budget, func(cut []int32, h setHash) {
					d.ask(dp.plan, i, append([]int32(nil), cut...), h, dp.base, false)
				}) {
					d.incomplete(tooMany(fmt.Sprintf("more than %d sets of kept decisions in one execution", maxCuts)))
					break
				}
			}
			continue
		}
		q := d.deferred[0]
		d.deferred[0] = pendingQuery{}
		d.deferred = d.deferred[1:]
		d.solve(q, q.base)
	}
}

func (q pendingQuery) query() *sym.Query {
	keep := q.plan.keep(q.i, q.cut)
	if len(q.extra) > 0 {
		keep = append(keep[:len(keep):len(keep)], q.extra...)
	}
	return &sym.Query{Keep: keep, Flip: q.plan.cs[q.i]}
}

// InputsUnordered begins the reason a search with inputs is incomplete
// when the orders in which decisions of concurrent threads can precede
// each other are too many to ask (inputcuts.go).
const InputsUnordered = "input-dependent branches in concurrent threads"

// InputsSharedStore is the reason a value-based search (mcr) with inputs
// stops: a read's value may not tell its term (valuesTellTerms).
const InputsSharedStore = "a read's value does not tell its input term"

// valuesTellTerms reports why, in tr, a read's value may not tell its
// term, or "": a read could read its value (by must-happen-before alone)
// from two writes, or a write and the initial value, with different
// terms. Otherwise any execution with the same events and read values as
// tr reads the same terms too (by induction along it: a read takes its
// value from one of those writes, whose term is the same as in tr), so its
// threads take the same decisions; an explorer that covers every
// read-value map then covers every path (inputcuts.go).
func valuesTellTerms(ctx context.Context, tr *program.Trace, path *sym.Path) string {
	if path.StoreUnknown != "" {
		return path.StoreUnknown
	}
	if len(path.StoreTerms) == 0 {
		return ""
	}
	symLocs := map[program.Loc]bool{}
	for i := range path.StoreTerms {
		symLocs[tr.Events[i].Loc] = true
	}
	writes := map[program.Loc][]int{}
	for i := range tr.Events {
		if e := &tr.Events[i]; e.Kind == program.Write && symLocs[e.Loc] {
			writes[e.Loc] = append(writes[e.Loc], i)
		}
	}
	cl := program.NewTraceIndex(tr).Clocks(0)
	hb := func(a, b int) bool { return cl.Of(b)[tr.Events[a].Thread] > tr.Events[a].Index }
	texts := map[*sym.Term]string{}
	term := func(w int) string {
		t := path.StoreTerms[int32(w)]
		if t == nil {
			return ""
		}
		if s, ok := texts[t]; ok {
			return s
		}
		texts[t] = t.String()
		return texts[t]
	}
	for r := range tr.Events {
		if r%256 == 255 && ctx.Err() != nil {
			return "" // the search is over, incomplete
		}
		e := &tr.Events[r]
		if e.Kind != program.Read || !symLocs[e.Loc] {
			continue
		}
		ws := writes[e.Loc]
		first, seen := "", false
		agree := func(t string) bool {
			if !seen {
				first, seen = t, true
			}
			return t == first
		}
		initOK := tr.InitValue(e.Loc) == e.Value
		for _, w := range ws {
			if hb(w, r) {
				initOK = false
			}
			if tr.Events[w].Value != e.Value || hb(r, w) {
				continue
			}
			hidden := false
			for _, w2 := range ws {
				if w2 != w && hb(w, w2) && hb(w2, r) {
					hidden = true
					break
				}
			}
			if !hidden && !agree(term(w)) {
				return fmt.Sprintf("the read at line %d can read %d from writes with different terms", e.Pos.Line, e.Value)
			}
		}
		if initOK && !agree("") {
			return fmt.Sprintf("the read at line %d can read %d from the initial value and from a write of an input-derived value", e.Pos.Line, e.Value)
		}
	}
	return ""
}

// decision names an input-dependent decision for messages: its kind and
// line, and the input it depends on when there is one (a timed wait's
// timeout, a nondet call's type).
func decision(c sym.Constraint) string {
	s := fmt.Sprintf("the %s at line %d", c.What, c.Pos.Line)
	vars := map[program.InputID]*sym.Var{}
	sym.Vars(c.Term, map[*sym.Term]bool{}, vars)
	if len(vars) == 1 {
		for _, v := range vars {
			s += " (input: " + v.Type + ")"
		}
	}
	return s
}

// solve decides one query; a solution is a new input vector (vec with the
// query's inputs set).
func (d *driver) solve(pq pendingQuery, vec map[program.InputID]int64) {
	d.nq++
	q := pq.query()
	st, model, why := d.io.Solver.Solve(q.Slice())
	switch st {
	case sym.Sat:
		d.nsat++
		nv := make(map[program.InputID]int64, len(vec)+len(model))
		for k, v := range vec {
			nv[k] = v
		}
		for k, v := range model {
			nv[k] = v
		}
		d.push(nv)
	case sym.Unknown:
		d.nunknown++
		d.incomplete(fmt.Sprintf("a query flipping the %s at line %d was not decided: %s", q.Flip.What, q.Flip.Pos.Line, why))
	}
}

// merge adds one vector's result; it reports whether to stop.
func (d *driver) merge(r *Result, in []program.InputValue, opts Options) bool {
	s, t := &d.res.Stats, &r.Stats
	base := s.Executions
	s.Executions += t.Executions
	s.RFClasses += t.RFClasses
	s.Outcomes += t.Outcomes
	s.Blocked += t.Blocked
	s.BlockedClasses += t.BlockedClasses
	s.Bounded += t.Bounded
	s.Events += t.Events
	if s.BoundedBy == "" {
		s.BoundedBy = t.BoundedBy
	}
	if t.Unmodelled != "" && s.Unmodelled == "" {
		s.Unmodelled = t.Unmodelled
	}
	if !t.Complete {
		s.Complete = false
		if s.Stopped == "" {
			s.Stopped = t.Stopped
		}
	}
	for k, v := range t.Extra {
		s.Extra = addExtra(s.Extra, k, v)
	}
	for _, f := range r.Findings {
		if d.findings[f.Key()] {
			continue
		}
		d.findings[f.Key()] = true
		f.Execution += base
		f.Inputs = in
		d.res.Findings = append(d.res.Findings, f)
	}
	return len(r.Findings) > 0 && !opts.KeepGoing || t.Stopped != "" && t.Stopped != "finding"
}

// FindingProgram is p with the input vector of finding f: the program its
// schedule replays on.
func FindingProgram(p program.Program, f *Finding) program.Program {
	return program.WithInputs(p, f.Inputs)
}

// ValidateInputs is Validate for a program that reads inputs: it runs
// the concolic search with dfs (at most limit executions; 0: no limit)
// and compares the findings. Outcomes are not compared: concolic
// exploration covers paths, not values, and two searches may pick
// different input values for one path.
func ValidateInputs(ctx context.Context, p program.Program, res *Result, keepGoing bool, limit int, io InputOptions) *Validation {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := 0
	io.Exhaustive, io.Note = true, ""
	d := ExploreInputs(ctx, &DFSAlgorithm, p, Options{KeepGoing: true, Observe: func(program.Execution) {
		if n++; limit > 0 && n >= limit {
			cancel()
		}
	}}, Config{}, io)
	v := &Validation{Interleavings: d.Stats.Executions, Complete: d.Stats.Complete}
	for _, k := range InvariantCounters {
		v.Broken += int(res.Stats.Extra[k])
	}
	v.Broken += int(res.Stats.Extra["input_path_errors"])
	v.compareFindings(d, res, keepGoing)
	return v
}
