package cfront

// This file compiles bit-field members. cc/v4 computes its own bit-field
// layout, which differs from gcc's in places (it may start a new unit where
// gcc packs into the previous bytes), so the layout here is recomputed by
// the x86-64 System V rules gcc follows and checked against cc/v4's size and
// member offsets: a struct whose layouts disagree is refused rather than
// laid out differently from the compiled program.
//
// Memory model: C11 3.14 makes a maximal sequence of adjacent non-zero-width
// bit-fields one memory location, so two threads writing different
// bit-fields of such a sequence race, and a write is a read-modify-write of
// the whole location. Each sequence is therefore accessed as one unit (1, 2,
// 4 or 8 bytes at its first byte): reading a bit-field loads the unit and
// extracts the bits, writing one loads the unit, masks the new bits in and
// stores it back. The unit's load and store are ordinary Read and Write
// events on one location, so the explorers see the lost update and the
// race exactly as C11 defines them. A compound assignment or ++ loads the
// unit for the value and again for the read-modify-write (three events):
// the same values unless another thread writes in between, which is a
// race reported either way.
//
// Types: gcc promotes an unsigned int bit-field narrower than int to int,
// cc/v4 types it unsigned int, and the compiler follows cc/v4's expression
// types; the operators whose result would differ are refused
// (promotedDiffers), the rest (==, !=, assignment, casts, conditions) agree.

import (
	"fmt"
	"sync"

	"modernc.org/cc/v4"
)

// bitField is where a bit-field lives.
type bitField struct {
	unit   int64 // byte offset of its unit within the struct
	w      uint8 // unit width in bytes
	shift  int64 // bit position in the (little-endian) unit
	width  int64 // bits
	signed bool
}

// mask is the field's bits within its unit.
func (b bitField) mask() int64 { return int64((uint64(1)<<b.width - 1) << b.shift) }

// bitLayout returns the bit-fields of struct type st by field index (nil
// entries for other members), refusing what is not modelled.
func (c *compiler) bitLayout(n cc.Node, st *cc.StructType) []*bitField {
	if l, ok := c.bitLayouts[st]; ok {
		return l
	}
	out, err := layoutBits(st)
	switch {
	case err.invalid:
		c.errorf(n, "%s", err.msg)
	case err.msg != "":
		c.unsupported(n, err.msg)
	}
	if c.bitLayouts == nil {
		c.bitLayouts = map[*cc.StructType][]*bitField{}
	}
	c.bitLayouts[st] = out
	return out
}

// layoutRefusal says why layoutBits refuses a struct: msg names what is
// not modelled, or what is invalid C if invalid.
type layoutRefusal struct {
	msg     string
	invalid bool
}

// layoutBits lays out the bit-fields of st as gcc does on x86-64 (by
// field index, nil for other members), or says why it does not. It is
// pure, so that the program's location names and initial values
// (program.go) see the units the compiled code accesses.
func layoutBits(st *cc.StructType) ([]*bitField, layoutRefusal) {
	refuse := func(format string, args ...any) ([]*bitField, layoutRefusal) {
		return nil, layoutRefusal{msg: fmt.Sprintf(format, args...)}
	}
	if a := st.Attributes(); a != nil && (a.IsAttrSet("packed") || a.IsAttrSet("__packed__")) {
		// cc/v4 ignores packing, so its layout and the one below would
		// agree on a struct gcc packs tighter
		return refuse("bit-fields in packed %s", st)
	}
	nf := st.NumFields()
	out := make([]*bitField, nf)
	pos := int64(0) // bits allocated so far
	align := int64(1)
	type run struct{ start, end int64 } // bits of one memory location
	var runs []run
	var runOf []int // field index -> run index, -1 for none
	open := false
	for i := 0; i < nf; i++ {
		f := st.FieldByIndex(i)
		t := f.Type()
		runOf = append(runOf, -1)
		if !f.IsBitfield() {
			open = false
			a := int64(t.Align())
			want := roundUp((pos+7)/8, a)
			if f.Offset() != want {
				return refuse("bit-field layout of %s (member %s at byte %d, gcc puts it at %d)", st, f.Name(), f.Offset(), want)
			}
			align = max(align, a)
			size := t.Size()
			if f.IsFlexibleArrayMember() || size < 0 {
				size = 0
			}
			pos = (want + size) * 8
			continue
		}
		// not enums: gcc gives an enum without negative constants an
		// unsigned type, which decides how the field's bits extend
		switch t.Kind() {
		case cc.Bool, cc.Char, cc.SChar, cc.UChar, cc.Short, cc.UShort, cc.Int, cc.UInt:
		default:
			return refuse("bit-field %s of type %s", f.Name(), t)
		}
		size, a := t.Size()*8, int64(t.Align())*8
		if size > 32 || a <= 0 {
			return refuse("bit-field %s of type %s", f.Name(), t)
		}
		wd := f.ValueBits()
		if wd > size || wd < 0 || wd == 0 && f.Name() != "" {
			return nil, layoutRefusal{msg: fmt.Sprintf("bit-field %s: width %d is not 1 to %d bits", f.Name(), wd, size), invalid: true}
		}
		if wd == 0 {
			// an unnamed zero-width bit-field ends the memory location and
			// aligns the next one; it does not align the struct
			open = false
			pos = roundUp(pos, a)
			continue
		}
		if pos/size != (pos+wd-1)/size {
			pos = roundUp(pos, a) // gcc does not let a field cross a unit of its type
		}
		if f.Name() != "" {
			align = max(align, a/8) // unnamed bit-fields do not align the struct
		}
		if !open {
			runs = append(runs, run{pos, pos})
			open = true
		}
		runs[len(runs)-1].end = pos + wd
		runOf[i] = len(runs) - 1
		out[i] = &bitField{shift: pos, width: wd, signed: cc.IsSignedInteger(t) && t.Kind() != cc.Bool}
		pos += wd
	}
	if size := roundUp((pos+7)/8, align); size != st.Size() {
		return refuse("bit-field layout of %s (%d bytes, gcc makes it %d)", st, st.Size(), size)
	}
	// each run's unit: the smallest of 1, 2, 4 or 8 bytes from its first
	// byte, which must not reach into the next member or past the struct
	for i, f := range out {
		if f == nil {
			continue
		}
		r := runs[runOf[i]]
		first, last := r.start/8, (r.end+7)/8
		next := st.Size()
		for j := i + 1; j < nf; j++ {
			if g := st.FieldByIndex(j); runOf[j] != runOf[i] && (!g.IsBitfield() || g.ValueBits() != 0) {
				if out[j] != nil {
					next = runs[runOf[j]].start / 8
				} else {
					next = g.Offset()
				}
				break
			}
		}
		w := int64(1)
		for w < last-first {
			w *= 2
		}
		if w > 8 || first+w > next {
			return refuse("bit-field %s: its run of adjacent bit-fields (bytes %d to %d) is no 1-, 2-, 4- or 8-byte unit", st.FieldByIndex(i).Name(), first, last-1)
		}
		f.unit, f.w, f.shift = first, uint8(w), f.shift-first*8
	}
	return out, layoutRefusal{}
}

func roundUp(n, a int64) int64 { return (n + a - 1) / a * a }

// hasBitFields reports whether struct type st has a bit-field member.
func hasBitFields(st *cc.StructType) bool {
	for i := 0; i < st.NumFields(); i++ {
		if st.FieldByIndex(i).IsBitfield() {
			return true
		}
	}
	return false
}

// fieldBits returns the layout of bit-field f (of a struct, not nested in
// an anonymous member), refusing the rest.
func (c *compiler) fieldBits(n cc.Node, f *cc.Field) *bitField {
	st, ok := f.ParentType().(*cc.StructType)
	if !ok || f.Parent() != nil {
		c.unsupported(n, "bit-field "+f.Name()+" in a union or an anonymous member")
	}
	if i := f.Index(); i >= 0 && i < st.NumFields() && st.FieldByIndex(i).Name() == f.Name() {
		if b := c.bitLayout(n, st)[i]; b != nil {
			return b
		}
	}
	c.unsupported(n, "bit-field "+f.Name())
	return nil
}

// unitType is the unsigned integer type of a unit of w bytes.
func (c *compiler) unitType(w uint8) cc.Type {
	switch w {
	case 1:
		return c.ast.UChar
	case 2:
		return c.ast.UShort
	case 4:
		return c.ast.UInt
	}
	return c.ast.ULong
}

// bitExtract turns the unit value on the stack into the field's value.
func (c *compiler) bitExtract(b *bitField) {
	if b.signed {
		c.emit(instr{op: opPush, k: 64 - b.shift - b.width})
		c.emit(instr{op: opShl})
		c.emit(instr{op: opPush, k: 64 - b.width})
		c.emit(instr{op: opShr, flag: fSigned})
		return
	}
	c.emit(instr{op: opPush, k: b.shift})
	c.emit(instr{op: opShr})
	c.emit(instr{op: opPush, k: int64(uint64(1)<<b.width - 1)})
	c.emit(instr{op: opAnd})
}

// loadBits loads bit-field b from the unit whose address is on the stack.
// A unit no field of its run was ever stored to is an indeterminate read,
// as for any scalar (undef.go); indeterminacy is tracked by bytes, so once
// one field of the run is set the others read as the bits last stored.
func (c *compiler) loadBits(n cc.Node, b *bitField, atom bool) {
	c.emit(instr{op: opLoad, w: b.w, flag: flagIf(atom, fAtomic), pos: toPos(n)})
	c.bitExtract(b)
}

// storeBits stores the value on the stack into bit-field b of the unit
// whose address is below it: a load of the unit, the new bits masked in,
// a store of the unit. The load reports no indeterminate bytes (fCopy):
// setting one field of a unit whose other fields are unset is defined C. With keep it leaves the field's new value (the
// value of an assignment), else nothing.
func (c *compiler) storeBits(n cc.Node, b *bitField, atom, keep bool) {
	v := c.newTemp()
	c.emit(instr{op: opSetLocal, a: int32(v)})
	c.emit(instr{op: opDup})
	c.emit(instr{op: opLoad, w: b.w, flag: fCopy | flagIf(atom, fAtomic), pos: toPos(n)})
	c.emit(instr{op: opPush, k: ^b.mask()})
	c.emit(instr{op: opAnd})
	c.emit(instr{op: opGetLocal, a: int32(v)})
	c.emit(instr{op: opPush, k: b.shift})
	c.emit(instr{op: opShl})
	c.emit(instr{op: opPush, k: b.mask()})
	c.emit(instr{op: opAnd})
	c.emit(instr{op: opOr})
	c.emit(instr{op: opStore, w: b.w, flag: flagIf(atom, fAtomic), pos: toPos(n)})
	if keep {
		c.emit(instr{op: opGetLocal, a: int32(v)})
		c.emit(instr{op: opPush, k: b.shift})
		c.emit(instr{op: opShl})
		c.bitExtract(b)
	}
}

// promotedDiffers reports whether e is an unsigned int bit-field narrower
// than int: gcc promotes its value to int, cc/v4 types it unsigned int, so
// an operator whose result depends on that (relational, arithmetic) is
// refused rather than evaluated in the wrong type.
func promotedDiffers(e cc.ExpressionNode) bool {
	// peel parentheses and pass-through cases; an assignment, ++ or --
	// has the type of its operand
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			if x.Case != cc.PrimaryExpressionExpr {
				return false
			}
			e = x.ExpressionList
			continue
		case *cc.ExpressionList:
			for x.ExpressionList != nil { // a comma expression's value is its last
				x = x.ExpressionList
			}
			e = x.AssignmentExpression
			continue
		case *cc.AssignmentExpression:
			if x.Case == cc.AssignmentExpressionCond {
				e = x.ConditionalExpression
			} else {
				e = x.UnaryExpression
			}
			continue
		case *cc.CastExpression:
			if x.Case != cc.CastExpressionUnary {
				return false
			}
			e = x.UnaryExpression
			continue
		case *cc.UnaryExpression:
			switch x.Case {
			case cc.UnaryExpressionPostfix:
				e = x.PostfixExpression
				continue
			case cc.UnaryExpressionPlus:
				e = x.CastExpression
				continue
			case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
				e = x.UnaryExpression
				continue
			}
		case *cc.PostfixExpression:
			switch x.Case {
			case cc.PostfixExpressionPrimary:
				e = x.PrimaryExpression
				continue
			case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
				e = x.PostfixExpression
				continue
			}
		}
		break
	}
	f := e.Type().BitField()
	if x, ok := e.(*cc.PostfixExpression); ok && (x.Case == cc.PostfixExpressionSelect || x.Case == cc.PostfixExpressionPSelect) && x.Field() != nil {
		f = x.Field()
	}
	return f != nil && f.IsBitfield() && f.Type().Kind() == cc.UInt && f.ValueBits() < 32
}

// checkPromoted refuses operands a narrow unsigned bit-field's promotion
// would change the result of (promotedDiffers).
func (c *compiler) checkPromoted(n cc.Node, es ...cc.ExpressionNode) {
	for _, e := range es {
		if e != nil && promotedDiffers(e) {
			c.unsupported(n, "arithmetic or comparison on an unsigned bit-field narrower than int (gcc promotes it to int)")
		}
	}
}

// unitLayouts caches layoutBits for unitAt, which the explorers reach
// through initial values (Program.initValue), from several goroutines.
var unitLayouts sync.Map // *cc.StructType -> []*bitField

// unitAt finds the bit-field unit of st holding byte off: its layout (the
// first field's) and the names of the fields sharing it. ok is false when
// off is in no unit, or st's bit-fields are not modelled.
func unitAt(st *cc.StructType, off int64) (b *bitField, names []string, ok bool) {
	if !hasBitFields(st) {
		return nil, nil, false
	}
	var bits []*bitField
	if v, ok := unitLayouts.Load(st); ok {
		bits = v.([]*bitField)
	} else {
		bits, _ = layoutBits(st) // nil when refused
		unitLayouts.Store(st, bits)
	}
	for i, f := range bits {
		if f == nil || off < f.unit || off >= f.unit+int64(f.w) {
			continue
		}
		if b == nil {
			b = f
		}
		if name := st.FieldByIndex(i).Name(); name != "" {
			names = append(names, name)
		}
	}
	return b, names, b != nil
}
