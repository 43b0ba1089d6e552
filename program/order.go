package program

// This file implements the partial orders of a trace as vector clocks:
// program order, must-happen-before (program order + fork->begin + end->join,
// Φ_mhb of 001_aa53da3bf10d3f4e.txt Section 3.2) and happens-before (MHB plus
// release->acquire of the same lock in trace order), and the reads-from and
// value functions.

// VC is a vector clock over the threads of one trace: VC[t] is the number of
// events of thread t that happen before (or are) the event. Clocks of all
// events of a trace are stored flat: row i is Clocks[i*n : (i+1)*n].
type VC []int32

// Leq reports whether a <= b pointwise.
func (a VC) Leq(b VC) bool {
	for i := range a {
		if a[i] > b[i] {
			return false
		}
	}
	return true
}

func (a VC) join(b VC) {
	for i := range a {
		if b[i] > a[i] {
			a[i] = b[i]
		}
	}
}

// Clocks holds one vector clock per event of a trace.
type Clocks struct {
	n    int // threads
	flat []int32
	tr   *Trace
}

// Of returns the clock of event i (a view, do not modify).
func (c *Clocks) Of(i int) VC { return c.flat[i*c.n : (i+1)*c.n] }

// Before reports whether event i is ordered before event j (i != j).
// Because clocks count events, i < j iff clock(j)[thread(i)] > index(i).
func (c *Clocks) Before(i, j int) bool {
	if i == j {
		return false
	}
	e := &c.tr.Events[i]
	return c.Of(j)[e.Thread] > e.Index
}

// Ordered reports whether i and j are ordered either way.
func (c *Clocks) Ordered(i, j int) bool { return c.Before(i, j) || c.Before(j, i) }

// MustHappenBefore computes Φ_mhb as vector clocks: program order, fork
// before the child's first event, the child's last event before the join.
func MustHappenBefore(t *Trace) *Clocks { return clocks(t, false) }

// HappensBefore computes must-happen-before plus the order of each release
// before the next acquire of the same lock in the trace.
func HappensBefore(t *Trace) *Clocks { return clocks(t, true) }

func clocks(t *Trace, locks bool) *Clocks {
	n := len(t.Threads)
	c := &Clocks{n: n, flat: make([]int32, len(t.Events)*n), tr: t}
	cur := make([]VC, n)            // clock of the last event of each thread
	forkOf := make(map[ThreadID]VC) // clock of the fork of each child
	endOf := make(map[ThreadID]VC)  // clock of the last event of each thread
	lastRel := make(map[Loc]VC)
	for i := range t.Events {
		e := &t.Events[i]
		row := c.Of(i)
		if prev := cur[e.Thread]; prev != nil {
			copy(row, prev)
		} else if f, ok := forkOf[e.Thread]; ok {
			copy(row, f)
		}
		switch e.Kind {
		case Join:
			if end, ok := endOf[ThreadID(e.Value)]; ok {
				row.join(end)
			}
		case Acquire:
			if locks {
				if r, ok := lastRel[e.Loc]; ok {
					row.join(r)
				}
			}
		}
		row[e.Thread] = e.Index + 1
		switch e.Kind {
		case Fork:
			forkOf[ThreadID(e.Value)] = row
		case Release:
			if locks {
				lastRel[e.Loc] = row
			}
		}
		cur[e.Thread] = row
		endOf[e.Thread] = row
	}
	return c
}

// RF returns for each event the position of the write it reads from
// under sequential consistency (the last earlier write to its location), -1
// for reads of the initial value, and -2 for events that are not reads.
func RF(t *Trace) []int32 {
	rf := make([]int32, len(t.Events))
	last := make(map[Loc]int32)
	for i := range t.Events {
		e := &t.Events[i]
		rf[i] = -2
		switch e.Kind {
		case Read:
			if w, ok := last[e.Loc]; ok {
				rf[i] = w
			} else {
				rf[i] = -1
			}
		case Write:
			last[e.Loc] = int32(i)
		}
	}
	return rf
}

// RFKey is a canonical description of a trace's reads-from function: for
// every read, in (thread name, index) order, the identity of its write, and
// for every acquire the release it follows (locks are read-modify-writes of
// the lock in 002_29f9f830801bf5b9.txt Section 7). Two traces are in the
// same reads-from class iff their keys are equal (Section 3). Thread names,
// not ids, make it comparable across processes.
func RFKey(t *Trace) string {
	rf := RF(t)
	lastRel := map[Loc]int32{}
	for i := range t.Events {
		switch e := &t.Events[i]; e.Kind {
		case Release:
			lastRel[e.Loc] = int32(i)
		case Acquire:
			if r, ok := lastRel[e.Loc]; ok {
				rf[i] = r
			} else {
				rf[i] = -1
			}
		}
	}
	pos := t.Index()
	var b []byte
	for th := range pos {
		for _, i := range pos[th] {
			if rf[i] < -1 {
				continue
			}
			b = append(b, t.Threads[th].Name...)
			b = append(b, ':')
			b = appendInt(b, int64(t.Events[i].Index))
			b = append(b, '<')
			if rf[i] == -1 {
				b = append(b, "init"...)
			} else {
				w := &t.Events[rf[i]]
				b = append(b, t.Threads[w.Thread].Name...)
				b = append(b, ':')
				b = appendInt(b, int64(w.Index))
			}
			b = append(b, ';')
		}
	}
	return string(b)
}

// OutcomeKey is a canonical description of a trace's (event set, value
// function): every event identity with the value it read or wrote.
func OutcomeKey(t *Trace) string {
	pos := t.Index()
	var b []byte
	for th := range pos {
		if len(pos[th]) == 0 {
			continue
		}
		b = append(b, t.Threads[th].Name...)
		b = append(b, '[')
		for _, i := range pos[th] {
			e := &t.Events[i]
			b = append(b, kindNames[e.Kind][0])
			if e.Kind.IsAccess() {
				b = appendInt(b, e.Value)
			}
			b = append(b, ',')
		}
		b = append(b, ']')
	}
	return string(b)
}

func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}
