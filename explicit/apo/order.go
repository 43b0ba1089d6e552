package apo

// This file implements the strict partial order of an annotated partial
// order, kept transitively closed as one successor bitset per event.

import (
	"math/bits"
	"slices"
)

// Order is a strict partial order over 0..n-1, transitively closed:
// succ[a*words:(a+1)*words] is the bitset of the b with a < b. The rows
// have room for words*64 elements, so that Grow is amortized O(n/64).
type Order struct {
	n, words int
	succ     []uint64
}

// NewOrder returns the empty order over n elements.
func NewOrder(n int) *Order {
	w := (n + 63) / 64
	return &Order{n: n, words: w, succ: make([]uint64, n*w)}
}

// Before reports a < b.
func (o *Order) Before(a, b int32) bool {
	return o.succ[int(a)*o.words+int(b)>>6]&(1<<(uint(b)&63)) != 0
}

// Add adds a < b and everything transitivity implies. It returns false and
// changes nothing if b <= a (the order would have a cycle). O(n^2/64).
func (o *Order) Add(a, b int32) bool {
	if a == b || o.Before(b, a) {
		return false
	}
	if o.Before(a, b) {
		return true
	}
	sb := o.succ[int(b)*o.words : int(b+1)*o.words]
	for x := range o.n {
		if x != int(a) && !o.Before(int32(x), a) {
			continue
		}
		sx := o.succ[x*o.words : (x+1)*o.words]
		for k := range sb {
			sx[k] |= sb[k]
		}
		sx[int(b)>>6] |= 1 << (uint(b) & 63)
	}
	return true
}

// Clone returns a copy.
func (o *Order) Clone() *Order {
	c := *o
	c.succ = slices.Clone(o.succ)
	return &c
}

// Grow returns the order over n >= o's elements that has o's pairs. It
// may reuse o's storage (then o must not be used again): while the rows
// have room, it only appends empty rows (amortized O(n/64) per element,
// where a copy would make n appends O(n^3/64)).
func (o *Order) Grow(n int) *Order {
	if n == o.n {
		return o
	}
	if n <= o.words*64 {
		o.succ = append(o.succ, make([]uint64, (n-o.n)*o.words)...)
		o.n = n
		return o
	}
	g := &Order{n: n, words: max(2*o.words, (n+63)/64)}
	g.succ = make([]uint64, n*g.words, n*g.words+n*g.words/2)
	for a := range o.n {
		copy(g.succ[a*g.words:], o.succ[a*o.words:(a+1)*o.words])
	}
	return g
}

// row returns a's successor bitset (shared: do not change it).
func (o *Order) row(a int32) []uint64 {
	return o.succ[int(a)*o.words : int(a+1)*o.words]
}

// forEach calls f with each element of the bitset s, in increasing order.
func forEach(s []uint64, f func(int)) {
	for k, w := range s {
		for w != 0 {
			f(k*64 + bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}
