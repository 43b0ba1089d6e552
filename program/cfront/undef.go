package cfront

import (
	"fmt"
	"slices"

	"mcr/program"
)

// This file tracks indeterminate values: locals declared without an
// initialiser and malloc'd memory hold no value until written (C11 6.7.9p10,
// 7.22.3.4). The interpreter reads them as 0, which is one of their
// possible values, so a finding after such a read is real; but the other
// values are not explored (they would be inputs), so the execution reports
// the read (Unmodelled) and the search is incomplete. Only bytes of
// objects created indeterminate carry a bitmap, and only slots of locals
// declared without an initialiser are checked (fUndef), so other code
// pays nothing.

// Unmodelled implements program.Unmodelled: the first read of an
// indeterminate value, or "".
func (x *execution) Unmodelled() string { return x.unmodelled }

// noteUnmodelled records the first step the exploration does not branch
// on (Unmodelled): an indeterminate read, an input.
func (x *execution) noteUnmodelled(msg string) {
	if x.unmodelled == "" {
		x.unmodelled = msg
	}
}

// noteUndef records a read of an indeterminate value at pos.
func (x *execution) noteUndef(pos program.Pos, what string) {
	if x.unmodelled == "" {
		x.noteUnmodelled(fmt.Sprintf("read of %s at line %d before it was set (C leaves its value indeterminate; it was read as 0)", what, pos.Line))
	}
}

// readObj checks a read of w bytes at off of o.
func (x *execution) readObj(o *object, off, w int, pos program.Pos) {
	if o.undef == nil || x.unmodelled != "" {
		return
	}
	for _, u := range o.undef[off : off+w] {
		if u {
			what := "uninitialised memory"
			if o.kind == kStack && o.typ != nil && undefSpec(o.typ) != 0 {
				// an integer scalar: WithUndefInputs makes it an input
				what = "an uninitialised local variable (" + o.name + ")"
			} else if o.name != "" {
				what = "uninitialised " + o.name
			} else if o.kind == kHeap {
				what = "malloc'd memory"
			}
			x.noteUndef(pos, what)
			return
		}
	}
}

// readScalar checks opLoad in's read at off of o. A load that is part of
// an aggregate copy (fCopy) reads no value the program uses: it carries
// the bytes' indeterminacy to the copy's store (th.copyUndef) instead of
// reporting it, since copying a struct with members never set is defined
// C and common (a result whose unused members stay unset).
func (x *execution) readScalar(th *thread, in *instr, o *object, off int, pos program.Pos) {
	if in.flag&fCopy == 0 {
		x.readObj(o, off, int(in.w), pos)
		return
	}
	th.copyUndef = false
	if o.undef != nil {
		th.copyUndef = slices.Contains(o.undef[off:off+int(in.w)], true)
	}
}

// writeObj marks w bytes at off of o as set.
func (o *object) writeObj(off, w int) {
	if o.undef != nil {
		clear(o.undef[off : off+w])
	}
}

// undefine marks w bytes at off of o indeterminate.
func (o *object) undefine(off, w int) {
	if o.undef == nil {
		o.undef = make([]bool, len(o.data))
	}
	for i := off; i < off+w; i++ {
		o.undef[i] = true
	}
}

// slotUndef sets or clears the indeterminate mark of th's slot i (absolute).
func (th *thread) slotUndef(i int32, undef bool) {
	for int(i) >= len(th.undef) {
		th.undef = append(th.undef, false)
	}
	th.undef[i] = undef
}

// readSlot checks a read of th's slot i (absolute).
func (x *execution) readSlot(th *thread, i int32, pos program.Pos) {
	if int(i) < len(th.undef) && th.undef[i] {
		x.noteUndef(pos, "an uninitialised local variable")
	}
}
