package cfront

import (
	"testing"

	"mcr/program"
)

// TestBitFieldUnits checks what the program says about a static's
// bit-field units, which the value-predicting explorers use: the initial
// value is the unit as the code loads it (its width, unsigned, so d = -1
// in the top bit reads as 2^31 + c), and the name lists the fields sharing
// the unit.
func TestBitFieldUnits(t *testing.T) {
	p := loadSrc(t, `struct mix { unsigned a : 4, b : 8; short s; int c : 31, d : 1; } g = { 1, 2, -1, 5, -1 };
int main(void) { return g.a; }`)
	id := -1
	for i, s := range p.statics {
		if s.name == "g" {
			id = i
		}
	}
	if id < 0 {
		t.Fatal("no static g")
	}
	for _, c := range []struct {
		off  int64
		name string
		val  int64
	}{
		{0, "g.a|b", 1 | 2<<4},
		{2, "g.s", -1},
		{4, "g.c|d", 1<<31 | 5},
	} {
		l := program.Loc(mkPtr(uint32(id), c.off))
		if got := p.LocName(l); got != c.name {
			t.Errorf("offset %d: name %q, want %q", c.off, got, c.name)
		}
		if got := p.initValue(l); got != c.val {
			t.Errorf("offset %d: initial value %d, want %d", c.off, got, c.val)
		}
	}
}
