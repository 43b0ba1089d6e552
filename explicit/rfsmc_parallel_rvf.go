package explicit

// This file is the part of RVF-SMC's loop of lines 12-30
// (000_1fb260b9b3a323b2.txt, Algorithm 2; rvfsmc.go) that runs children
// in nodes of their own (parallel.Tree, rfsmc_parallel.go): they are
// committed in the order of the sequential loop, the reads in turn and
// each read's value groups in turn.
//
// The loop goes on to the next read only if r's backtrack signal is set
// (lines 15-16), and its descendants may set it until they end. But a set
// signal stays set (an OR), and nothing else the next read does depends on
// r's children (C(r) is the parent's counts, lines 29-30; each child has
// its own copy of C). So once the signal is set, here or by a descendant
// that ran first, the loop goes on while r's children still run, and the
// next read's children queue up behind them; only an unset signal makes it
// wait for r's children in order, until one sets it or all have ended.
// Without that, a read's children were a barrier, and a read with one
// value group gave no other worker anything to do: on indexer (14
// threads) no child ever ran on a second worker (issue 17).

// rvfPending is the children of a call that run in nodes of their own and
// are not committed yet, in the order of the sequential loop.
type rvfPending []*rvfChild

// commitFinished commits the finished children at the head; it returns
// true if the exploration must stop.
func (p *rvfPending) commitFinished(s *rvfSMC) bool {
	for len(*p) > 0 && (*p)[0].t.Finished() {
		if p.commitHead(s) {
			return true
		}
	}
	return false
}

// waitSignal commits children in order until anc's signal is set or none
// is left; it returns true if the exploration must stop.
func (p *rvfPending) waitSignal(s *rvfSMC, anc *rvfAncestor) bool {
	for len(*p) > 0 && !anc.signal.Load() {
		(*p)[0].t.Wait()
		if p.commitHead(s) {
			return true
		}
	}
	return p.commitFinished(s)
}

// waitAll commits every child, in order; it returns true if the
// exploration must stop.
func (p *rvfPending) waitAll(s *rvfSMC) bool {
	for len(*p) > 0 {
		(*p)[0].t.Wait()
		if p.commitHead(s) {
			return true
		}
	}
	return false
}

// commitHead commits the first child, which has finished.
func (p *rvfPending) commitHead(s *rvfSMC) bool {
	c := (*p)[0]
	*p = (*p)[1:]
	return s.sink.commit(c.k.sink, nil) || c.t.Stopped()
}

// abandon abandons the children left (the exploration stops).
func (p *rvfPending) abandon() {
	for _, c := range *p {
		c.t.Abandon()
	}
	*p = nil
}
