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

// Flat returns every clock, row i at [i*K, (i+1)*K) with K the number of
// threads (a view, do not modify).
func (c *Clocks) Flat() []int32 { return c.flat }

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
func MustHappenBefore(t *Trace) *Clocks { return NewTraceIndex(t).Clocks(0) }

// HappensBefore computes must-happen-before plus the order of each release
// before the next acquire of the same lock in the trace.
func HappensBefore(t *Trace) *Clocks { return NewTraceIndex(t).Clocks(LockOrder) }

// RF returns for each event the position of the write it reads from
// under sequential consistency (the last earlier write to its location), -1
// for reads of the initial value, and -2 for events that are not reads.
func RF(t *Trace) []int32 { return NewTraceIndex(t).ReadsFrom() }

// RFKey is a canonical description of a trace's reads-from function: for
// every read, in (thread name, index) order, the identity of its write, and
// for every acquire the release it follows (locks are read-modify-writes of
// the lock in 002_29f9f830801bf5b9.txt Section 7). Two traces are in the
// same reads-from class iff their keys are equal (Section 3). Thread names,
// not ids, make it comparable across processes.
func RFKey(t *Trace) string { return string(AppendRFKey(nil, NewTraceIndex(t))) }

// AppendRFKey appends RFKey of the trace x indexes to b: callers that
// digest the key, or have the index, need neither the string nor a second
// index.
func AppendRFKey(b []byte, x *TraceIndex) []byte {
	t := x.T
	rf, pos := x.Src, x.At
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
	return b
}

// OutcomeKey is a canonical description of a trace's (event set, value
// function): every event identity with the value it read or wrote.
func OutcomeKey(t *Trace) string { return string(AppendOutcomeKey(nil, t, t.Index())) }

// AppendOutcomeKey appends OutcomeKey of t to b, given t's events per
// thread (Trace.Index, or TraceIndex.At).
func AppendOutcomeKey(b []byte, t *Trace, pos [][]int32) []byte {
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
	return b
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
