package explicit

import "mcr/program"

// This file decides which worker runs which child of one mutated read in
// RVF-SMC (rvfsmc.go, mutateAll, lines 19-28 of seed 000 Algorithm 2)
// when a second worker is free: the last child goes to it, the others run
// here after it is dispatched.
//
// Without it, the parent offered another worker the child of the first
// value group and ran the later ones itself; on lastzero (N=11) the later
// children held most of the work, and the goroutines of spawned children
// ran 12% of the process's CPU time (casrot N=9: 32%); with it, 34% and
// 56%, for the same total (issue 17). The children, their inputs and the
// order in which their results are committed are those of the sequential
// loop: the earlier children run directly in this call's node, as the
// sequential loop runs them, and only then is the last child's log
// committed. Only their queries come first (lines 19-22 of every group
// before any child runs), which changes no answer: the dead-child test
// (rvfsmc_dead.go) of a group looks up r with that group's value, which a
// sibling's subtree, where r has its own group's value, never records.
// With one worker no slot is ever free and nothing here runs. Not taken
// when the last child is the only one (the other worker would only make
// this one wait) or for the last read of a call that ends in a tail call
// (issue 13: waiting for the last child would keep this call's trace alive
// for as long as it runs).

// rvfLast is the plan for the children of one read: the earlier ones,
// to run here, and whether a worker slot is still reserved for the last.
type rvfLast struct {
	here     []func() bool
	reserved bool
}

// reserveLast reserves a worker slot for the last child of a read with
// groups, if one is free, this call has no child pending, and the read
// is not the tail call's (tailRead); nil if not.
func (s *rvfSMC) reserveLast(groups [][]program.EventID, pending []*rvfChild, tailRead bool) *rvfLast {
	if len(groups) < 2 || len(pending) > 0 || tailRead || !s.sink.spawn(nil) {
		return nil
	}
	return &rvfLast{reserved: true}
}

// add plans the child of read r with the given group (its witness w and
// the rest as mutateAll's descend takes them): the last one (isLast) goes
// to the reserved slot at once and is returned, to be committed after the
// others, which run in run. If the last one is the only one, the slot is
// given back and add returns false: the caller runs it as usual (the
// other worker would only have made this one wait).
func (l *rvfLast) add(s *rvfSMC, isLast bool, w program.Schedule, C rvfCausal, live program.Execution, sw *singleWriters,
	pred *rvfPred, anc *rvfAncestor, r program.EventID, group []program.EventID, learn contLearn) (*rvfChild, bool) {
	if !isLast {
		l.here = append(l.here, func() bool {
			s.learn = learn
			return s.descend(w, C, live, sw, pred, anc, r, group)
		})
		return nil, true
	}
	l.reserved = false
	if len(l.here) == 0 {
		s.sink.unspawn()
		return nil, false
	}
	c := &rvfChild{k: s.fork(r, group, anc)}
	c.k.learn = learn
	Cc := C.clone() // the child may start after C(r) is set
	c.t = s.sink.start(c.k.sink, true, func() bool { return c.k.call(w, Cc, live, nil, pred) })
	return c, true
}

// run gives back the slot if the last child never came (its group had no
// witness), then runs the earlier children here, in order, while the last
// one (in pending, committed after them) runs elsewhere. It returns true
// if the exploration must stop.
func (l *rvfLast) run(s *rvfSMC) bool {
	if l.reserved {
		s.sink.unspawn()
	}
	for _, f := range l.here {
		if f() {
			return true
		}
	}
	return false
}
