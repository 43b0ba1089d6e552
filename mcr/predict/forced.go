package predict

// This file implements the forced order of reads-from mode as vector
// clocks: must-happen-before plus "a read after the write it reads from"
// plus "a read-modify-write's read with its write half". In reads-from
// mode every executed read needs exactly its trace write, so this order is
// what the cone of cone.go closes under (without the lock rule), and the
// must-order test becomes two clock comparisons instead of a closure.

import "mcr/program"

// rfClocks holds one clock per event of a window, flat: row p is
// flat[p*n : (p+1)*n]; entry t counts the events of thread t the event
// forces (itself included).
type rfClocks struct {
	n    int
	flat []int32
}

func (c *rfClocks) of(p int32) []int32 { return c.flat[int(p)*c.n : (int(p)+1)*c.n] }

// newRFClocks computes the clocks of w in trace order: every edge goes
// forward in the trace, except the read-modify-write pair, which the read
// takes in by counting its write half.
func newRFClocks(w *window) *rfClocks {
	ev := w.t.Events
	c := &rfClocks{n: len(w.pos), flat: make([]int32, len(ev)*len(w.pos))}
	join := func(row []int32, p int32) {
		if p < 0 {
			return
		}
		for t, v := range c.of(p) {
			row[t] = max(row[t], v)
		}
	}
	for i := range ev {
		p := int32(i)
		row := c.of(p)
		w.preds(p, func(q int32) { join(row, q) })
		e := &ev[p]
		own := e.Index + 1
		if e.Kind == program.Read {
			join(row, w.rf[p])
			if e.Is(program.RMW) {
				own++
			}
		}
		row[e.Thread] = max(row[e.Thread], own)
	}
	return c
}

// forces reports whether the MHB predecessors of a or b force a or b.
func (c *rfClocks) forces(w *window, a, b int32) bool {
	cone := make([]int32, c.n)
	for _, x := range []int32{a, b} {
		w.preds(x, func(q int32) {
			for t, v := range c.of(q) {
				cone[t] = max(cone[t], v)
			}
		})
	}
	ea, eb := &w.t.Events[a], &w.t.Events[b]
	return cone[ea.Thread] > ea.Index || cone[eb.Thread] > eb.Index
}
