package mcr

import (
	"testing"

	"mcr/program"
)

func TestSortedSubset(t *testing.T) {
	cases := []struct {
		a, b []int32
		want bool
	}{
		{nil, nil, true},
		{nil, []int32{1}, true},
		{[]int32{1}, nil, false},
		{[]int32{1, 3}, []int32{1, 2, 3}, true},
		{[]int32{1, 4}, []int32{1, 2, 3}, false},
		{[]int32{0, 3}, []int32{1, 2, 3}, false},
	}
	for _, c := range cases {
		if got := sortedSubset(c.a, c.b); got != c.want {
			t.Errorf("sortedSubset(%v, %v) = %v", c.a, c.b, got)
		}
	}
}

// An unsatisfiable query implies the same target with more fixed reads is
// unsatisfiable; fewer fixed reads, another value or another target are
// unknown.
func TestUnsatCache(t *testing.T) {
	c := newUnsatCache()
	c.add(5, 1, []int32{2, 3}, false)
	c.add(5, 2, []int32{3}, true)
	for _, k := range []struct {
		r    int32
		v    int64
		need []int32
		want knowledge
	}{
		{5, 1, []int32{2, 3}, knownUnsat},
		{5, 1, []int32{1, 2, 3}, knownUnsat},
		{5, 1, []int32{2}, unknown},
		{5, 2, []int32{3, 4}, knownDead},
		{5, 2, nil, unknown},
		{6, 1, []int32{2, 3}, unknown},
	} {
		if got := c.known(k.r, k.v, k.need); got != k.want {
			t.Errorf("known(%d, %d, %v) = %d, want %d", k.r, k.v, k.need, got, k.want)
		}
	}
	var none *unsatCache
	if none.known(5, 1, nil) != unknown {
		t.Error("nil cache knows something")
	}
}

// find returns the first execution, in the order added, whose reads
// satisfy a map, and nothing for a map no execution satisfies.
func TestExecIndexFind(t *testing.T) {
	id := func(th, i int) program.EventID { return program.EventID{Thread: program.ThreadID(th), Index: int32(i)} }
	ix := newExecIndex()
	a := &node{reads: map[program.EventID]int64{id(0, 1): 0, id(1, 1): 1}}
	b := &node{reads: map[program.EventID]int64{id(0, 1): 1, id(1, 1): 1, id(1, 2): 7}}
	for _, n := range []*node{a, b} {
		for k, v := range n.reads {
			ix.byRead[readValue{k, v}] = append(ix.byRead[readValue{k, v}], n)
		}
	}
	if got := ix.find(map[program.EventID]int64{id(1, 1): 1}); got != a {
		t.Errorf("first match: got %p, want a %p", got, a)
	}
	if got := ix.find(map[program.EventID]int64{id(0, 1): 1, id(1, 2): 7}); got != b {
		t.Errorf("got %p, want b %p", got, b)
	}
	if got := ix.find(map[program.EventID]int64{id(0, 1): 0, id(1, 2): 7}); got != nil {
		t.Errorf("no execution satisfies the map, got %p", got)
	}
	if got := ix.find(nil); got != nil {
		t.Errorf("the empty map (the root) is never reused, got %p", got)
	}
}
