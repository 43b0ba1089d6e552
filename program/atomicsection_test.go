package program

import "testing"

// TestAtomicBreach checks when another thread's events inside an atomic
// section can be moved out of it: all after its release, or all before its
// acquire, the order of conflicting events kept.
func TestAtomicBreach(t *testing.T) {
	const x, y = Loc(8), Loc(16)
	acq := Event{Thread: 1, Kind: Acquire, Loc: AtomicSection}
	rel := Event{Thread: 1, Kind: Release, Loc: AtomicSection}
	w := func(th ThreadID, l Loc) Event { return Event{Thread: th, Kind: Write, Loc: l} }
	r := func(th ThreadID, l Loc) Event { return Event{Thread: th, Kind: Read, Loc: l} }
	cases := []struct {
		name   string
		evs    []Event
		breach bool
	}{
		{"between a write and a read of the section", []Event{acq, w(1, x), w(2, x), r(1, x), rel}, true},
		{"no conflict", []Event{acq, w(1, x), w(2, y), r(1, x), rel}, false},
		{"after the section's accesses: moves after", []Event{acq, w(1, x), r(1, x), w(2, x), rel}, false},
		{"before the section's accesses: moves before", []Event{acq, w(2, x), w(1, x), r(1, x), rel}, false},
		{"open section: only before", []Event{acq, w(1, x), r(1, x), w(2, x)}, true},
		{"reads only", []Event{acq, r(1, x), r(2, x), r(1, x), rel}, false},
		{"a thread forked inside the section", []Event{acq, w(1, x), {Thread: 1, Kind: Fork, Value: 2}, {Thread: 2, Kind: Begin}, w(1, y), rel}, false},
		{"a forked thread's write between the section's", []Event{acq, {Thread: 1, Kind: Fork, Value: 2}, r(1, x), w(2, x), r(1, x), rel}, true},
	}
	tr := &Trace{Threads: []Thread{{Name: "0"}, {Name: "0.0"}, {Name: "0.1"}}}
	for _, c := range cases {
		if got := AtomicBreach(tr, c.evs); (got != "") != c.breach {
			t.Errorf("%s: AtomicBreach = %q, want a breach: %v", c.name, got, c.breach)
		}
	}
}

// TestAtomicReorder checks the search for a run with whole atomic
// sections in which the failing thread does what it did.
func TestAtomicReorder(t *testing.T) {
	const x, y = Loc(8), Loc(16)
	ev := func(th ThreadID, i int32, k Kind, l Loc) Event { return Event{Thread: th, Index: i, Kind: k, Loc: l} }
	cases := []struct {
		name   string
		evs    []Event
		failed ThreadID
		want   bool
	}{
		// T1's read in its section reads T2's write: no run has it
		{"the failure reads the interleaved write", []Event{
			ev(1, 0, Acquire, AtomicSection), ev(1, 1, Write, x), ev(2, 0, Write, x), ev(1, 2, Read, x)}, 1, false},
		// T2 writes y, then reads T1's x: T1's read of y needs only
		// T2's write, which can run before the section
		{"the interleaved read is not needed", []Event{
			ev(1, 0, Acquire, AtomicSection), ev(1, 1, Write, x), ev(2, 0, Write, y), ev(2, 1, Read, x), ev(1, 2, Read, y),
			ev(1, 3, Release, AtomicSection)}, 1, true},
		// the same, but T2 fails: it needs its read of x after T1's
		// write, and T1's read of y after its own write of y
		{"both needed", []Event{
			ev(1, 0, Acquire, AtomicSection), ev(1, 1, Write, x), ev(2, 0, Write, y), ev(2, 1, Read, x), ev(1, 2, Read, y),
			ev(1, 3, Release, AtomicSection)}, 2, true},
		{"a third thread's failure needs none of it", []Event{
			ev(1, 0, Acquire, AtomicSection), ev(1, 1, Write, x), ev(2, 0, Write, x), ev(1, 2, Read, x), ev(3, 0, Read, y)}, 3, true},
		// T1 reads what T2 wrote inside T2's section, which is still
		// open when T1 fails: T1 ran inside it
		{"the failure inside another's open section", []Event{
			ev(2, 0, Acquire, AtomicSection), ev(2, 1, Write, x), ev(1, 0, Read, x)}, 1, false},
		{"the failing thread's own open section", []Event{
			ev(1, 0, Acquire, AtomicSection), ev(2, 0, Write, y), ev(1, 1, Read, y)}, 1, true},
		// a lock held by T2 when T1 failed to take it
		{"a failed trylock needs the holder", []Event{
			ev(2, 0, Acquire, y), ev(1, 0, LockFail, y), ev(1, 1, Write, x)}, 1, true},
	}
	for _, c := range cases {
		if got := AtomicReorder(c.evs, c.failed); got != c.want {
			t.Errorf("%s: AtomicReorder = %v, want %v", c.name, got, c.want)
		}
	}
}
