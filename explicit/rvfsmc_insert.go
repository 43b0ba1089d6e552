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

// moved returns a witness of (X', GoodW') in which r reads a write w of
// group that later writes of its location hide from every gap inserted
// tries: σ̃'s events but a set F, then r (with its write half), then F,
// each part in σ̃'s order, F being the writes of r's location between w
// and r's thread's last event, closed forward under program order, fork
// (a forked thread's events), join (of a thread with events in F) and
// reads-from (a read or acquire of a write or release in F). Every event
// outside F keeps its latest write and lock holder, and F runs after r;
// the schedule is checked event by event (validSchedule) rather than
// argued, and r is sunk as in inserted. It returns nil if r's thread has
// an event in F or the check fails: the decider is asked then.
func (q *rvfQuery) moved(group []program.EventID, half bool, good map[program.EventID][]program.EventID) program.Schedule {
	r := &q.r
	evs := q.tr.Events
	lo := q.h.Last(r.Thread) + 1
	if lo == 0 && int(r.Thread) < len(q.h.Fork) {
		lo = q.h.Fork[r.Thread] + 1
	}
	var seed func(i int32) bool // F's own events, before the closure
	at := func(i int32) bool {  // r goes before F's event i (the first for which this holds)
		return evs[i].Kind.IsAccess() && evs[i].Loc == r.Loc
	}
	switch r.Kind {
	case program.Read:
		// w: the latest write of group before lo (-1: init); F starts with
		// the writes that hide it.
		w := int32(-2)
		for i := lo - 1; i >= 0; i-- {
			if e := &evs[i]; e.Kind == program.Write && e.Loc == r.Loc && slices.Contains(group, e.ID()) {
				w = i
				break
			}
		}
		if w == -2 {
			if !slices.Contains(group, program.InitID) {
				return nil
			}
			w = -1
		}
		seed = func(i int32) bool {
			return i > w && i < lo && evs[i].Kind == program.Write && evs[i].Loc == r.Loc
		}
	case program.Acquire:
		// An acquire holds its mutex to the end: r follows the release w
		// of group at once, and F starts with the critical section w ends,
		// so that the other sections can go before it.
		if group[0] == program.InitID {
			return nil
		}
		w := q.h.pos(group[0])
		a := int32(-1)
		for _, i := range q.h.At[evs[w].Thread][:evs[w].Index] {
			if evs[i].Kind == program.Acquire && evs[i].Loc == r.Loc {
				a = i
			}
		}
		if a < 0 {
			return nil
		}
		seed = func(i int32) bool { return i == a }
		at = func(i int32) bool { return i == w+1 }
	default:
		return nil
	}
	// F in one forward pass: every reason to be in F points backwards.
	inF := make([]bool, len(evs))
	tainted := make([]bool, q.h.K)
	last := byLocKey[int32]{} // the latest write (release) of each location (mutex)
	any := false
	for i := range evs {
		e := &evs[i]
		f := tainted[e.Thread] || seed(int32(i))
		switch e.Kind {
		case program.Read, program.Acquire:
			if src, ok := last.get(locKey{e.Loc, e.Kind == program.Acquire}); ok && inF[src] {
				f = true
			}
		case program.Join:
			if u := e.Value; u >= 0 && int(u) < len(tainted) && tainted[u] {
				f = true
			}
		case program.Write, program.Release:
			last.set(locKey{e.Loc, e.Kind == program.Release}, int32(i))
		}
		if f {
			inF[i], tainted[e.Thread], any = true, true, true
			if e.Kind == program.Fork && e.Value >= 0 && int(e.Value) < len(tainted) {
				tainted[e.Value] = true
			}
		}
	}
	if !any || int(r.Thread) < len(tainted) && tainted[r.Thread] {
		return nil
	}
	// The order: outside F, r, F; r sunk to F's first access of its location.
	order := make([]int32, 0, len(evs)+1)
	for i := range evs {
		if !inF[i] {
			order = append(order, int32(i))
		}
	}
	const atR = -1
	placed := false
	for i := range evs {
		if !inF[i] {
			continue
		}
		if !placed && at(int32(i)) {
			order, placed = append(order, atR), true
		}
		order = append(order, int32(i))
	}
	if !placed {
		order = append(order, atR)
	}
	if !q.validSchedule(order, group, half, good) {
		return nil
	}
	out := make(program.Schedule, 0, len(q.plain)+1)
	for _, i := range order {
		switch {
		case i == atR:
			out = append(out, r.ID())
		case !evs[i].Is(program.RMWWrite):
			out = append(out, evs[i].ID())
		}
	}
	return out
}

// validSchedule reports whether order (trace positions, -1 standing for r
// with its write half if half) is a witness of (X', GoodW') with GoodW'(r)
// = group: program order, forks, joins, locks (a failed trylock finds its
// mutex held) and every read's (acquire's) latest write (release) in its
// good writes.
func (q *rvfQuery) validSchedule(order []int32, group []program.EventID, half bool, good map[program.EventID][]program.EventID) bool {
	evs := q.tr.Events
	r := &q.r
	done := make([]int32, q.h.K) // per thread: events placed
	last := byLocKey[program.EventID]{}
	holder := map[program.Loc]program.ThreadID{}
	latest := func(k locKey) program.EventID {
		if id, ok := last.get(k); ok {
			return id
		}
		return program.InitID
	}
	prev := int32(-2)
	for _, i := range order {
		if i >= 0 && evs[i].Is(program.RMWWrite) && prev != i-1 {
			return false // an RMW's halves run together
		}
		prev = i
		if i < 0 {
			lock := r.Kind == program.Acquire
			if _, held := holder[r.Loc]; done[r.Thread] != r.Index || lock && held || !slices.Contains(group, latest(locKey{r.Loc, lock})) {
				return false
			}
			if lock {
				holder[r.Loc] = r.Thread
			}
			if half {
				last.set(locKey{r.Loc, false}, program.EventID{Thread: r.Thread, Index: r.Index + 1})
			}
			continue
		}
		e := &evs[i]
		if done[e.Thread] != e.Index {
			return false
		}
		if e.Index == 0 && int(e.Thread) < len(q.h.Fork) && q.h.Fork[e.Thread] >= 0 {
			f := &evs[q.h.Fork[e.Thread]]
			if done[f.Thread] <= f.Index {
				return false
			}
		}
		done[e.Thread]++
		switch e.Kind {
		case program.Read:
			if !slices.Contains(good[e.ID()], latest(locKey{e.Loc, false})) {
				return false
			}
		case program.Write:
			last.set(locKey{e.Loc, false}, e.ID())
		case program.Acquire:
			if _, held := holder[e.Loc]; held || !slices.Contains(good[e.ID()], latest(locKey{e.Loc, true})) {
				return false
			}
			holder[e.Loc] = e.Thread
		case program.Release:
			delete(holder, e.Loc)
			last.set(locKey{e.Loc, true}, e.ID())
		case program.LockFail:
			if t, held := holder[e.Loc]; !held || t == e.Thread {
				return false
			}
		case program.Join:
			if u := e.Value; u >= 0 && (int(u) >= len(done) || int(done[u]) < len(q.h.At[u])) {
				return false
			}
		}
	}
	return true
}

// byLocKey is a map keyed by locKey kept as two maps keyed by location,
// which the runtime looks up on its path for 64-bit keys (a struct key
// hashes generically: the maps of moved and validSchedule were a third of
// their time on lastzero).
type byLocKey[V any] [2]map[program.Loc]V

func (m *byLocKey[V]) get(k locKey) (V, bool) {
	v, ok := m[b2i(k.lock)][k.loc]
	return v, ok
}

func (m *byLocKey[V]) set(k locKey, v V) {
	i := b2i(k.lock)
	if m[i] == nil {
		m[i] = map[program.Loc]V{}
	}
	m[i][k.loc] = v
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
