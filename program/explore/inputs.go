package explore

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sort"
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
// Completeness, per fixed schedule as in sequential concolic testing:
// with an algorithm that explores every interleaving (dfs) every feasible
// (schedule, path) pair is reached. An algorithm that explores one
// execution per reads-from class (rf) chooses the order of the class's
// representative itself, so the argument holds only when the
// input-dependent constraints of every explored execution are totally
// ordered by causality (program order, reads-from, lock order); otherwise
// the search is reported incomplete.

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
	// interleaving (dfs): no causality condition on the constraints.
	Exhaustive bool
	// Note is added to the statistics' algorithm name (e.g. why rf
	// explores the schedules instead of the algorithm asked for).
	Note string
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
	ip := p.(program.InputProgram)
	if io.MaxInputs <= 0 {
		io.MaxInputs = DefaultMaxInputs
	}
	if io.Solver == nil {
		io.Solver = sym.Explicit{}
	}
	d := &driver{ctx: ctx, io: io, seenVec: map[string]bool{}, seenQuery: map[[32]byte]bool{}, concSeen: map[[32]byte]map[int64]bool{}, findings: map[string]bool{}}
	start := time.Now()
	d.res.Stats = Stats{Algorithm: a.Name + io.Note, Complete: true}
	d.push(map[program.InputID]int64{})
	for len(d.work) > 0 {
		if ctx.Err() != nil {
			d.incomplete(StopReason(ctx))
			d.res.Stats.Stopped = StopReason(ctx)
			break
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
	io        InputOptions
	work      []map[program.InputID]int64
	seenVec   map[string]bool
	seenQuery map[[32]byte]bool
	// concSeen: per concretisation point (path prefix and term), the
	// values seen there
	concSeen map[[32]byte]map[int64]bool
	queries  []*sym.Query
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

// observe takes the queries of one finished execution.
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
	if !d.io.Exhaustive {
		if why := unordered(x.Trace(), cs); why != "" {
			d.incomplete(why)
		}
	}
	h := sha256.New()
	for i := range cs {
		if i%256 == 255 && d.ctx.Err() != nil {
			return // the search is over: ExploreInputs says it is incomplete
		}
		key := cs[i].Key()
		fh := sha256.New()
		prefix := h.Sum(nil)
		fh.Write(prefix)
		fh.Write([]byte("|flip|"))
		keep := cs[:i:i]
		if c := &cs[i]; c.Conc {
			// A concretisation: ask for a value of its term not seen at
			// this point yet (flipping only the current one would swing
			// between two values).
			t := c.Term.A
			fk := sha256.Sum256([]byte(string(prefix) + "|conc|" + t.String()))
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
			keep = append([]sym.Constraint(nil), keep...)
			for _, v := range vals {
				fmt.Fprintf(fh, "%d,", v)
				if v != c.Value {
					keep = append(keep, sym.Constraint{Term: sym.Bin(sym.OpEq, t, sym.Const(v)), Taken: false, Pos: c.Pos, Thread: c.Thread, Events: c.Events, What: c.What})
				}
			}
		} else {
			fh.Write([]byte(key))
		}
		var qk [32]byte
		copy(qk[:], fh.Sum(nil))
		if !d.seenQuery[qk] {
			d.seenQuery[qk] = true
			d.queries = append(d.queries, &sym.Query{Keep: keep, Flip: cs[i]})
		}
		h.Write([]byte(key))
		h.Write([]byte{0})
	}
}

// InputsUnordered begins the reason rf's search with inputs is incomplete
// when input-dependent decisions of concurrent threads are not ordered by
// causality (unordered).
const InputsUnordered = "input-dependent branches in concurrent threads"

// maxOrderCheck bounds the decision positions whose causal order is checked.
const maxOrderCheck = 512

// unordered reports why the constraints are not totally ordered by
// causality in tr (program order, reads-from, lock order), or "".
func unordered(tr *program.Trace, cs []sym.Constraint) string {
	type at struct {
		t program.ThreadID
		k int32
	}
	var pos []at
	var first []int // the first constraint at each position, for the message
	seen := map[at]bool{}
	threads := map[program.ThreadID]bool{}
	for i := range cs {
		a := at{cs[i].Thread, cs[i].Events}
		threads[a.t] = true
		if !seen[a] {
			seen[a] = true
			pos = append(pos, a)
			first = append(first, i)
		}
	}
	if len(threads) < 2 {
		return ""
	}
	why := func(pair string) string {
		return InputsUnordered + " (not ordered by causality, so rf's choice of order within a class may hide input paths" + pair + "); use --algo dfs"
	}
	if len(pos) > maxOrderCheck {
		return why("")
	}
	ix := program.NewTraceIndex(tr)
	cl := ix.Clocks(program.LockOrder | program.ReadsFromOrder)
	// before: a's decision causally precedes b's: an event of a's thread
	// from index a.k on happens before (or is) b's thread's event b.k-1
	before := func(a, b at) bool {
		if b.k < 1 || int(b.t) >= len(ix.At) || int(b.k-1) >= len(ix.At[b.t]) {
			return false
		}
		return cl.Of(int(ix.At[b.t][b.k-1]))[a.t] > a.k
	}
	for i := range pos {
		for j := i + 1; j < len(pos); j++ {
			a, b := pos[i], pos[j]
			if a.t == b.t {
				continue
			}
			if !before(a, b) && !before(b, a) {
				return why(": " + decision(cs[first[i]]) + " and " + decision(cs[first[j]]))
			}
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
func (d *driver) solve(q *sym.Query, vec map[program.InputID]int64) {
	d.nq++
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
