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
