package explicit

// This file answers most realizable mutations of RVF-SMC (rvfsmc.go, seed
// 000 Algorithm 2, lines 19-22) without a VerifySC query: a cheap positive
// answer, the counterpart of the closure's cheap negative one
// (rvfsmc_closure.go).
//
// The instance of a mutation is (X', GoodW') = (E(σ̃) ∪ {r}, GoodW ∪
// {(r, G)}), r a read pending after σ̃ (the next event of its thread). σ̃
// is a witness of (X, GoodW) (σ extended by events that are not reads).
// Put r into σ̃ at a gap p after every event of its thread and after its
// fork, where the latest write of r's location before p is in G (init if
// there is none): every other event keeps the events before it, so every
// read of X keeps its latest write and every lock its holder, and r
// reads a write of G. If r has a write half (an RMW, or a CAS that
// succeeds on G's value), the half comes right after it, and no read of
// the location may come after p before the next write of it (that read
// would read the half, a write no good-writes set holds). So σ̃ with r at
// p is a witness of (X', GoodW'), the answer VerifySC gives ("yes"), with
// its witness. As sinkLast does with the decider's witnesses, p is the
// latest such gap before the next access of the location: what a run of
// the witness leaves after r is as short as it can be.
//
// When no gap qualifies (r's thread ran past every write of G, or G is
// init and the location was written before r's thread's last event), the
// decider is asked as before. On lastzero (N=11) the gap answers all
// 10,946 positive queries, each of which cost an instance, a view, a
// closure and a search (issue 17). Under explore.Options.Validate the
// decider is asked too and a "no" counts as a decider error.

import (
	"slices"

	"mcr/program"
)

// inserted returns σ̃ without RMW write halves (q.plain) with r put at a
// gap where it reads a write of group (see the file comment), nil if
// there is none. half says whether r has a write half.
func (q *rvfQuery) inserted(group []program.EventID, half bool) program.Schedule {
	r := &q.r
	if r.Kind != program.Read {
		return nil // acquires: a lock held to the end conflicts with later acquires
	}
	evs := q.tr.Events
	lo := q.h.Last(r.Thread) + 1 // the first gap after r's thread
	if lo == 0 && int(r.Thread) < len(q.h.Fork) {
		lo = q.h.Fork[r.Thread] + 1
	}
	// latest is the latest write of r's location before the gap at lo.
	latest := program.InitID
	for i := lo - 1; i >= 0; i-- {
		if e := &evs[i]; e.Kind == program.Write && e.Loc == r.Loc {
			latest = e.ID()
			break
		}
	}
	p := int32(-1)
	for i := lo; int(i) <= len(evs); i++ {
		inside := int(i) < len(evs) && evs[i].Is(program.RMWWrite) // between an RMW's halves
		if !inside && slices.Contains(group, latest) {
			p = i
			break
		}
		if int(i) < len(evs) && evs[i].Kind == program.Write && evs[i].Loc == r.Loc {
			latest = evs[i].ID()
		}
	}
	if p < 0 {
		return nil
	}
	// Sink r to the next access of its location (that access is a read,
	// an RMW's read half, or a write: never the write half of another
	// thread's RMW whose read half was passed).
	for int(p) < len(evs) && !(evs[p].Kind.IsAccess() && evs[p].Loc == r.Loc) {
		p++
	}
	if half && int(p) < len(evs) && evs[p].Kind == program.Read {
		return nil // that read would read r's write half
	}
	out := make(program.Schedule, 0, len(q.plain)+1)
	for i := range evs[:p] {
		if !evs[i].Is(program.RMWWrite) {
			out = append(out, evs[i].ID())
		}
	}
	out = append(out, r.ID())
	for i := range evs[p:] {
		if e := &evs[int(p)+i]; !e.Is(program.RMWWrite) {
			out = append(out, e.ID())
		}
	}
	return out
}
