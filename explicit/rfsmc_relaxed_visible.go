package explicit

// This file holds the visibility filter of RF-SMC under TSO and PSO: the
// sources of a read that no witness can give it, dropped before their
// mutation is built and decided (lines 9-11 and 18 of seed 004 Algorithm 3,
// 004_fe58e94b2666f77b.txt). Without it every write of the location was
// proposed and sent to VerifyTSO/VerifyPSO (stack_true with SIZE=4: 91
// queries per execution under TSO against 2.8 under SC, where rfsmc.go's
// visible does the same job).
//
// The argument uses only what every execution of the executor's store
// buffers (program/cfront/storebuf.go) guarantees, in the mutation's fixed
// prefix: a mutation "r reads w" keeps the reads-from of pre_τ̃(r), which
// holds r's causal past P (program order, fork and join, and every read's
// edge from another thread's source, without r's own source edge).
//
//   - Issue order. Events issue in program order, a read issues after the
//     memory-write of a source in another thread (it cannot forward another
//     thread's buffer), a forked thread after its fork, a join after the
//     joined thread's end. So if e' ≤_P e, e' issued no later than e.
//   - Drains. Lock operations (acquire, release), fences, forks, joins and
//     the read of a read-modify-write or compare-and-swap run only with
//     their thread's buffer empty: at their issue every earlier write of
//     their thread is in memory.
//   - Coherence. The memory-writes of one location form a total order
//     (memory order, mo); a write issued after w is in memory reaches memory
//     after w; two writes of one thread to one location reach memory in
//     program order (TSO's FIFO buffer, PSO's buffer per location).
//
// "w' is in memory at the issue of e" (inMemory) when some x <_P e is a
// drain of w''s thread program-order after w', or a read of another thread
// reading w' (it read it from memory). A read r then reads w' or a write
// mo-after w': memory holds w' or later, and r's own buffer holds only
// writes mo-after everything in memory. The same holds when w' is r's own
// thread's write program-order before r (r forwards it or a later own
// write, or reads memory after it drained). Such a w' is seen by r.
// A source w (or init) is hidden from r when some seen w' ≠ w comes after
// it in mo for sure: w' is w's thread's later write, or w is in memory at
// the issue of w'. No execution with the prefix's reads-from lets r read a
// hidden w, so its mutation has no witness and is not proposed.
//
// Only the latest seen source of each thread matters (an earlier one is
// mo-before it). Causal pasts are vector clocks (visIndex: per event, the
// last index of each thread in its causal past), built once per trace, so
// a read costs O(threads) lookups and binary searches.

import (
	"slices"

	"mcr/program"
)

// visIndex holds what hiddenFilter asks of a trace.
type visIndex struct {
	slot map[program.ThreadID]int
	ev   [][]int32           // per slot: trace position of each event index
	vc   [][]int32           // per trace position (thread events): per slot the last index ≤_P it, -1 none
	pred [][]int32           // per trace position: the same without the event's own edges (its program-order predecessor's, or its fork's, clock)
	dr   [][]int32           // per slot, per index i: the last drain at or before i, -1 none
	locs map[slotLoc][]int32 // per slot and location: indices of its writes (releases), ascending
	rdrs map[int32][]int32   // per write position: positions of the reads of other threads reading it
}

type slotLoc struct {
	slot int
	loc  program.Loc
	kind program.Kind
}

// maxClockCells bounds the clocks of one trace (events x threads): beyond
// it hiddenFilter filters nothing (every source goes to the decider).
const maxClockCells = 1 << 24

func (t *relaxedTrace) visibility() *visIndex {
	if t.vis != nil || t.visOff {
		return t.vis
	}
	evs := t.tr.Events
	v := &visIndex{slot: map[program.ThreadID]int{}, vc: make([][]int32, len(evs)), pred: make([][]int32, len(evs)),
		locs: map[slotLoc][]int32{}, rdrs: map[int32][]int32{}}
	for i := range evs {
		if e := &evs[i]; e.Kind != program.Flush {
			if _, ok := v.slot[e.Thread]; !ok {
				v.slot[e.Thread] = len(v.slot)
				v.ev = append(v.ev, nil)
				v.dr = append(v.dr, nil)
			}
		}
	}
	n := len(v.slot)
	if n*len(evs) > maxClockCells {
		t.visOff = true
		return nil
	}
	none := make([]int32, n)
	for k := range none {
		none[k] = -1
	}
	join := func(c, d []int32) {
		for k := range c {
			c[k] = max(c[k], d[k])
		}
	}
	for i := range evs {
		e := &evs[i]
		if e.Kind == program.Flush {
			continue
		}
		sl := v.slot[e.Thread]
		v.ev[sl] = append(v.ev[sl], int32(i))
		base := none
		if e.Index > 0 {
			base = v.vc[v.ev[sl][e.Index-1]]
		} else if f, ok := t.fork[e.Thread]; ok {
			base = v.vc[t.pos[f]]
		}
		v.pred[i] = base
		c := slices.Clone(base)
		c[sl] = e.Index
		if s, ok := t.src[e.ID()]; ok && s >= 0 && evs[s].Thread != e.Thread {
			join(c, v.vc[s])
			if e.Kind == program.Read {
				v.rdrs[s] = append(v.rdrs[s], int32(i))
			}
		}
		if e.Kind == program.Join {
			if end, ok := t.ended[program.ThreadID(e.Value)]; ok {
				join(c, v.vc[t.pos[end]])
			}
		}
		v.vc[i] = c
		last := int32(-1)
		if e.Index > 0 {
			last = v.dr[sl][e.Index-1]
		}
		if drains(e) {
			last = e.Index
		}
		v.dr[sl] = append(v.dr[sl], last)
		if e.Kind == program.Write || e.Kind == program.Release {
			k := slotLoc{sl, e.Loc, e.Kind}
			v.locs[k] = append(v.locs[k], e.Index)
		}
	}
	t.vis = v
	return v
}

// hiddenFilter returns a predicate over the sources (trace positions, -1
// for init) of r, a read or an acquire: true for a source no witness can
// give r. It is nil when r is neither, or when it hides nothing.
func (t *relaxedTrace) hiddenFilter(r program.EventID) func(w int32) bool {
	re := &t.tr.Events[t.pos[r]]
	var kind program.Kind
	switch {
	case re.Kind == program.Read:
		kind = program.Write
	case re.Kind == program.Acquire && !re.Is(program.Try):
		// lock operations are atomic and drain: they happen at their
		// issue, so a release before r in P is before it in lock order
		kind = program.Release
	default:
		return nil // trylocks read acquires too: left to the decider
	}
	v := t.visibility()
	if v == nil {
		return nil
	}
	// latest[sl]: the trace position of the latest source of thread slot
	// sl that r sees, -1 none
	latest := make([]int32, len(v.ev))
	any := false
	for sl := range latest {
		latest[sl] = v.seen(t, t.pos[r], sl, re.Loc, kind)
		any = any || latest[sl] >= 0
	}
	if !any {
		return nil
	}
	return func(w int32) bool {
		if w < 0 {
			return true // init is mo-before every source, and r sees one
		}
		we := &t.tr.Events[w]
		if we.Kind != kind {
			return false
		}
		for _, p := range latest {
			if p < 0 || p == w {
				continue
			}
			if pe := &t.tr.Events[p]; pe.Thread == we.Thread && we.Index < pe.Index || v.before(t, w, p, kind) {
				return true
			}
		}
		return false
	}
}

// seen returns the trace position of the latest source of loc (writes, or
// releases for kind Release) of thread slot sl that the event at trace
// position e sees, -1 none: for releases the latest in e's causal past;
// for writes e's own thread's latest before it, or the latest in memory at
// e's issue (below a drain of its thread in e's causal past, or read by
// another thread in it).
func (v *visIndex) seen(t *relaxedTrace, e int32, sl int, loc program.Loc, kind program.Kind) int32 {
	bound := v.pred[e][sl] // sl's last index in e's causal past without e
	idx := v.locs[slotLoc{sl, loc, kind}]
	// the sources of sl's up to index lim are seen
	lim := bound
	if kind == program.Write && v.slot[t.tr.Events[e].Thread] != sl {
		lim = -1
		if bound >= 0 {
			lim = v.dr[sl][bound] - 1
		}
	}
	k, _ := slices.BinarySearch(idx, lim+1) // idx[k-1] <= lim
	if kind == program.Write {
		// later ones read by another thread in e's causal past
		for j := len(idx) - 1; j >= k; j-- {
			if idx[j] > bound {
				continue
			}
			if w := v.ev[sl][idx[j]]; v.readBefore(t, w, v.pred[e]) {
				return w
			}
		}
	}
	if k == 0 {
		return -1
	}
	return v.ev[sl][idx[k-1]]
}

// readBefore reports whether another thread's read of the write at trace
// position w is in the causal past given by clock c.
func (v *visIndex) readBefore(t *relaxedTrace, w int32, c []int32) bool {
	for _, q := range v.rdrs[w] {
		if qe := &t.tr.Events[q]; c[v.slot[qe.Thread]] >= qe.Index {
			return true
		}
	}
	return false
}

// before reports whether source w (a trace position) comes before source
// p in every execution with the trace's reads-from up to p: for releases
// w <_P p; for writes w is in memory at p's issue (then p reaches memory
// after it). Same-thread order is the caller's.
func (v *visIndex) before(t *relaxedTrace, w, p int32, kind program.Kind) bool {
	we := &t.tr.Events[w]
	c := v.pred[p]
	sl := v.slot[we.Thread]
	if kind == program.Release {
		return c[sl] >= we.Index
	}
	if b := c[sl]; b >= 0 && we.Index < v.dr[sl][b] {
		return true
	}
	return v.readBefore(t, w, c)
}

// drains reports whether x runs only with its thread's store buffer empty
// (program/cfront/storebuf.go, execution.drains): lock operations, fences,
// forks, joins and the reads of RMWs and CASes. Trylocks that fail and the
// awaits of the synchronisation models drain too but are left out: fewer
// drains only hide fewer sources.
func drains(x *program.Event) bool {
	switch x.Kind {
	case program.Acquire, program.Release, program.Fence, program.Fork, program.Join:
		return true
	case program.Read:
		return x.Is(program.RMW) || x.Is(program.CAS)
	}
	return false
}
