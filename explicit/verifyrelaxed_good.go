package explicit

// This file extends VerifyTSO and VerifyPSO (seed 004 Algorithms 1, 2) to
// good-writes instances (000_1fb260b9b3a323b2.txt Section 4 under TSO and
// PSO; program/INSTANCES.md): each read may read from any write of a set,
// each acquire follow any release of a set (or, with no set, any). A
// source is no longer fixed, so "held" locations (VerifyTSO's condition
// (a)) cannot be computed from the sources; instead the state carries the
// memory map, as VerifySC's does for good writes (seed 000 Section 4.1):
// per location the last memory-write (per lock the last release).
//
// The search keeps VerifyTSO's shape: thread events are executed as soon
// as they are executable (Algorithm 1 lines 4-5), and the search branches
// only on memory-writes (lines 7-10), acquires and read-modify-writes. A
// read is executable when the write its thread would read (the latest own
// buffered write to the location, else memory's) is one of its sources.
// Executing a thread event early never disables another step: a read or
// a buffer-write changes nothing another thread can see, a fence, fork,
// join, begin/end or failed trylock (with its lock held as it needs) only
// its own thread's progress, and a release only frees its lock (no other
// release of it can come first; but it closes a section, so a release is
// held back while a failed trylock may still want that section open:
// view.sectionWanted, and then branched on). So every
// witness can be reordered into one that executes them eagerly, and the
// search is complete. Acquires and RMWs change what other threads can do
// (the lock, memory), so they are branched on, as memory-writes are.
//
// States are memoised by (thread prefixes, flushed writes per chain,
// memory map), Naive's state (naive.go), which this search shares; it
// differs from Naive, the baseline, by the eager steps.

import (
	"context"

	"mcr/program"
)

// decideGoodRelaxed decides the good-writes instance inst (TSO or PSO).
func decideGoodRelaxed(ctx context.Context, inst *program.Instance, name string) (program.Witness, bool, error) {
	if err := inst.Check(); err != nil {
		return nil, false, err
	}
	s := &naive{v: newView(inst), tick: ticker{ctx: ctx, name: name}, eagerSteps: true}
	return s.run()
}

// eager executes in x, until none is left, every executable thread event
// that is not an acquire or an RMW read (see the file comment).
func (s *naive) eager(x *nstate, tr *trail) {
	v := s.v
	for progress := true; progress; {
		progress = false
		for t := range int32(v.k) {
			for x.prefix[t] < v.end(t) {
				e := v.start[t] + x.prefix[t]
				if v.kind[e] == program.Acquire || v.rmw[e] || !v.lowerOK(e, x.prefix) || v.drains(e) && !s.emptyBuffers(x, t) {
					break
				}
				if j := v.joinOf[e]; j >= 0 && !s.emptyBuffers(x, j) {
					break
				}
				if v.kind[e] == program.Release && v.sectionWanted(e, x.prefix) || v.kind[e] == program.LockFail && !v.failOK(e, x.prefix) {
					break
				}
				l := v.loc[e]
				if v.kind[e] == program.Read {
					src := x.mem[l]
					if w := v.ownPrev[e]; w >= 0 && s.buffered(x, w) {
						src = w
					}
					if !contains(v.src[e], src) {
						break
					}
				}
				x.node = tr.add(x.node, e, false)
				x.prefix[t]++
				if v.kind[e] == program.Release {
					x.mem[l] = e
				}
				progress = true
			}
		}
	}
}
