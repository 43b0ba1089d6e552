package explicit

// This file implements VisibleW(r) of RVF-SMC's lines 17-18 (rvfsmc.go,
// seed 000 Algorithm 2): the sources a pending read may read, grouped by
// value, with the ones a mutex rules out removed.

import (
	"slices"

	"mcr/program"
)

// fewWrites is the number of writes of a location up to which sources
// decides visibility pair by pair.
const fewWrites = 16

// sources returns VisibleW(r) \ forbids(r) over the events of tr, grouped
// by the value they write (lines 17-18), in trace order with init first,
// and how many values the forbidden visible sources write: mutations an
// elder sibling of r's made already (counted as duplicates avoided).
// forbid is C(r) (nil if undefined); a thread beyond its end had no events
// when C(r) was set, so it forbids none of them. Each release of a lock is
// a group of its own.
func (s *rvfSMC) sources(tr *program.Trace, mhb *syncOrder, r program.Event, forbid []int32) (groups [][]program.EventID, avoided int) {
	lock := r.Kind == program.Acquire
	var ws []int32
	for i := range tr.Events {
		e := &tr.Events[i]
		if e.Loc == r.Loc && (lock && e.Kind == program.Release || !lock && e.Kind == program.Write) {
			ws = append(ws, int32(i))
		}
	}
	// Visible: not hidden by a later write before r. r is pending, not in
	// tr: pendingR stands for it; no event of tr happens after it.
	var vis func(i int32) bool
	initVisible := true
	if len(ws) <= fewWrites {
		// Visible's definition at first hand: w is hidden iff another
		// write w2 with w <= w2 must happen before r; init iff any write
		// must. O(writes²) without allocations, where
		// program.VisibleWrites' index, search and map cost more for a
		// location written a few times (lastzero: at most twice).
		var buf [fewWrites]bool
		hidden := buf[:len(ws)]
		for j, w2 := range ws {
			if !mhb.beforeNext(w2, r.Thread) {
				continue
			}
			initVisible = false
			for k, w := range ws {
				if k != j && !hidden[k] && w <= w2 && mhb.atMost(w, w2) {
					hidden[k] = true
				}
			}
		}
		vis = func(i int32) bool {
			k, _ := slices.BinarySearch(ws, i)
			return !hidden[k]
		}
	} else {
		// O(writes · threads) per read.
		const pendingR = -2
		order := func(a, b int32) bool {
			switch {
			case a == pendingR:
				return false
			case b == pendingR:
				return mhb.beforeNext(a, r.Thread)
			}
			return mhb.atMost(a, b)
		}
		visW := map[int32]bool{}
		initVisible = program.VisibleWrites(ws, pendingR, order, func(w int32) program.ThreadID { return tr.Events[w].Thread },
			func(w int32) { visW[w] = true })
		vis = func(i int32) bool { return visW[i] }
	}
	visible := func(i int32) bool { return i < 0 && initVisible || i >= 0 && vis(i) }
	outshadowed := shadowedInSection(tr, mhb.At, r)
	var vals, forbidden []int64
	skip := func(v int64) {
		if lock || !slices.Contains(forbidden, v) {
			forbidden = append(forbidden, v)
		}
	}
	add := func(id program.EventID, v int64) {
		if !lock {
			if k := slices.Index(vals, v); k >= 0 {
				groups[k] = append(groups[k], id)
				return
			}
		}
		vals = append(vals, v)
		groups = append(groups, []program.EventID{id})
	}
	if visible(-1) {
		if forbid == nil {
			add(program.InitID, tr.InitValue(r.Loc))
		} else {
			skip(tr.InitValue(r.Loc))
		}
	}
	for _, i := range ws {
		e := &tr.Events[i]
		switch {
		case !visible(i), outshadowed(i):
		case forbid != nil && int(e.Thread) < len(forbid) && e.Index < forbid[e.Thread]:
			skip(e.Value)
		default:
			add(e.ID(), e.Value)
		}
	}
	return groups, len(forbidden)
}

// shadowedInSection returns, for the pending read r (not in tr), a test of
// whether a write w of another thread can be ruled out as r's source by a
// mutex alone: r's thread holds a mutex l, w lies in a critical section of
// l of its own thread, and either w's section writes w's location again
// after w, or r's section wrote it before r. The two sections run one
// after the other in every execution, so r comes before w, or after a
// write that hides w from it. VisibleWrites sees only must-happen-before,
// which leaves every write of a loop inside another thread's critical
// section visible: two threads incrementing a counter 1,000 times under
// one mutex made 2,000,000 value groups of VerifySC queries, none of them
// realizable (issue 17).
//
// The table costs one pass over tr per held mutex, and only for a read
// whose thread holds one.
func shadowedInSection(tr *program.Trace, at [][]int32, r program.Event) func(w int32) bool {
	if r.Kind != program.Read || int(r.Thread) >= len(at) {
		return func(int32) bool { return false }
	}
	var held []program.Loc // the mutexes r's thread holds at r
	mine := at[r.Thread]
	for _, i := range mine {
		held = afterLockEvent(held, &tr.Events[i])
	}
	if len(held) == 0 {
		return func(int32) bool { return false }
	}
	var shadowed map[int32]bool // writes of other threads ruled out
	for _, l := range held {
		// Does r's section of l write r's location before r?
		wrote := false
		for j := len(mine) - 1; j >= 0; j-- {
			e := &tr.Events[mine[j]]
			if e.Kind == program.Acquire && e.Loc == l {
				break
			}
			if e.Kind == program.Write && e.Loc == r.Loc {
				wrote = true
				break
			}
		}
		// Each other thread backwards: a release of l opens a section (seen
		// from its end), the acquire closes it; later tells whether the
		// section writes r's location after the current event.
		for t, at := range at {
			if program.ThreadID(t) == r.Thread {
				continue
			}
			inside, later := false, false
			for j := len(at) - 1; j >= 0; j-- {
				e := &tr.Events[at[j]]
				switch {
				case e.Kind == program.Release && e.Loc == l:
					inside, later = true, false
				case e.Kind.IsLock() && e.Loc == l: // acquire (or failed trylock): the section's start
					inside = false
				case e.Kind == program.Write && e.Loc == r.Loc:
					if inside && (wrote || later) {
						if shadowed == nil {
							shadowed = map[int32]bool{}
						}
						shadowed[at[j]] = true
					}
					later = true
				}
			}
		}
	}
	return func(w int32) bool { return shadowed[w] }
}
