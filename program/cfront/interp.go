package cfront

import (
	"fmt"

	"mcr/program"
)

// This file implements the instruction loop: run executes a thread's local
// computation up to its next event, fire executes that event.

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// relation evaluates comparison op (opEq to opGe) on a and b: signed or
// unsigned integers, or floating values (IEEE: every relation but != is
// false on a NaN).
func relation[T int64 | uint64 | float64](op opcode, a, b T) bool {
	switch op {
	case opEq:
		return a == b
	case opNe:
		return a != b
	case opLt:
		return a < b
	case opLe:
		return a <= b
	case opGt:
		return a > b
	}
	return a >= b
}

// run executes th's instructions until the next event (which becomes
// pending), the end of the execution, or an error.
func (x *execution) run(th *thread) {
	x.cur = th
	code := x.p.code
	for steps := 0; ; steps++ {
		if x.over || th.stuck {
			return
		}
		if steps&(1<<16-1) == 1<<16-1 && x.cancelled(th) {
			return
		}
		if steps > x.p.stepLimit {
			// Only this thread is cut (as at the event bound): the others
			// run on, so that what they do meanwhile (a race with what
			// this thread did before its endless loop) is explored.
			x.cut(th, fmt.Sprintf("thread T%s: local computation did not reach an event within %d steps (infinite loop?)", th.name, x.p.stepLimit))
			return
		}
		in := &code[th.pc]
		if x.sym != nil {
			x.symStep(th, in)
		}
		st := th.stack
		n := len(st)
		switch in.op {
		case opNop:
		case opPush:
			th.stack = append(st, in.k)
		case opPop:
			th.stack = st[:n-1]
		case opDup:
			th.stack = append(st, st[n-1])
		case opSwap:
			st[n-1], st[n-2] = st[n-2], st[n-1]
		case opGetLocal:
			i := th.frames[len(th.frames)-1].slotBase + in.a
			if in.flag&fUndef != 0 {
				x.readSlot(th, i, in.pos)
			}
			th.stack = append(st, th.slots[i])
		case opSetLocal:
			i := th.frames[len(th.frames)-1].slotBase + in.a
			if in.flag&fUndef != 0 {
				if in.w == 1 && in.k != 0 && x.p.undefInputs {
					// an indeterminate value is an input (concolic.go)
					v, t := x.undefInput(th, in.k, in.pos)
					st[n-1] = v
					th.setSlotTerm(i, t)
					th.slotUndef(i, false)
				} else {
					th.slotUndef(i, in.w == 1) // w 1: a declaration without initialiser
				}
			}
			th.slots[i] = st[n-1]
			th.stack = st[:n-1]
		case opAddrObj:
			th.stack = append(st, mkPtr(uint32(in.a), in.k))
		case opAddrTLS:
			p := x.threadLocal(th, in.a)
			if p == 0 {
				return // allocation limit: the execution is over
			}
			th.stack = append(st, p+in.k)
		case opAddrFrame:
			th.stack = append(st, mkPtr(objOf(th.frames[len(th.frames)-1].frameObj)+uint32(in.a), in.k))
		case opLoad:
			o, off := x.resolve(th, st[n-1], int(in.w))
			if o == nil {
				return
			}
			if o.shared {
				x.stop(th, program.Read, accessFlags(in), program.Loc(st[n-1]), 0)
				return
			}
			x.readScalar(th, in, o, off, in.pos)
			st[n-1] = load(o.data[off:], in.w, in.flag&fSigned != 0)
			if x.sym != nil {
				th.sstack[n-1] = x.symLoad(th, o, off, in, in.pos)
			}
		case opStore, opStorePost:
			addr := storeAddr(in, st)
			if addr == 0 && in.flag&fNullOK != 0 {
				th.stack = st[:n-2]
				break
			}
			o, off := x.resolve(th, addr, int(in.w))
			if o == nil {
				return
			}
			if o.shared {
				x.stop(th, program.Write, accessFlags(in), program.Loc(addr), conv(st[n-1], in.w, in.flag&fSigned != 0))
				return
			}
			x.doStore(th, in, o, off)
		case opConv:
			st[n-1] = conv(st[n-1], in.w, in.flag&fSigned != 0)
		case opAdd:
			st[n-2] += st[n-1]
			th.stack = st[:n-1]
		case opSub:
			st[n-2] -= st[n-1]
			th.stack = st[:n-1]
		case opMul:
			st[n-2] *= st[n-1]
			th.stack = st[:n-1]
		case opDiv, opMod:
			a, b := st[n-2], st[n-1]
			if b == 0 {
				x.fail(th, program.RuntimeError, "division by zero")
				return
			}
			var r int64
			switch {
			case in.flag&fSigned != 0 && in.op == opDiv:
				if b == -1 {
					r = -a
				} else {
					r = a / b
				}
			case in.flag&fSigned != 0:
				if b == -1 {
					r = 0
				} else {
					r = a % b
				}
			case in.op == opDiv:
				r = int64(uint64(a) / uint64(b))
			default:
				r = int64(uint64(a) % uint64(b))
			}
			st[n-2] = r
			th.stack = st[:n-1]
		case opAnd:
			st[n-2] &= st[n-1]
			th.stack = st[:n-1]
		case opOr:
			st[n-2] |= st[n-1]
			th.stack = st[:n-1]
		case opXor:
			st[n-2] ^= st[n-1]
			th.stack = st[:n-1]
		case opShl:
			st[n-2] <<= uint64(st[n-1]) & 63
			th.stack = st[:n-1]
		case opShr:
			if in.flag&fSigned != 0 {
				st[n-2] >>= uint64(st[n-1]) & 63
			} else {
				st[n-2] = int64(uint64(st[n-2]) >> (uint64(st[n-1]) & 63))
			}
			th.stack = st[:n-1]
		case opEq:
			st[n-2] = b2i(st[n-2] == st[n-1])
			th.stack = st[:n-1]
		case opNe:
			st[n-2] = b2i(st[n-2] != st[n-1])
			th.stack = st[:n-1]
		case opLt, opLe, opGt, opGe:
			a, b := st[n-2], st[n-1]
			if in.flag&fSigned != 0 {
				st[n-2] = b2i(relation(in.op, a, b))
			} else {
				st[n-2] = b2i(relation(in.op, uint64(a), uint64(b)))
			}
			th.stack = st[:n-1]
		case opNeg:
			st[n-1] = -st[n-1]
		case opCpl:
			st[n-1] = ^st[n-1]
		case opLNot:
			st[n-1] = b2i(st[n-1] == 0)
		case opBool:
			st[n-1] = b2i(st[n-1] != 0)
		case opPtrDiff:
			a, b := st[n-2], st[n-1]
			if objOf(a) != objOf(b) {
				x.fail(th, program.RuntimeError, "subtraction of pointers into different objects")
				return
			}
			st[n-2] = (a - b) / in.k
			th.stack = st[:n-1]
		case opPtrAdd:
			p, ok := x.ptrAdd(th, in, st[n-2], st[n-1])
			if !ok {
				return
			}
			st[n-2] = p
			th.stack = st[:n-1]
		case opJmp:
			if in.a < th.pc && x.backEdge(th, th.pc) {
				return
			}
			th.pc = in.a
			continue
		case opJz:
			th.stack = st[:n-1]
			if st[n-1] == 0 {
				if in.a < th.pc && x.backEdge(th, th.pc) {
					return
				}
				th.pc = in.a
				continue
			}
		case opJnz:
			th.stack = st[:n-1]
			if st[n-1] != 0 {
				if in.a < th.pc && x.backEdge(th, th.pc) {
					return
				}
				th.pc = in.a
				continue
			}
		case opCall:
			x.callN(th, x.p.funcs[in.a], int(in.k))
			continue
		case opCallInd:
			fp := st[n-1-int(in.k)]
			id := objOf(fp)
			if fp == 0 {
				x.fail(th, program.NullDereference, "call through a null function pointer")
				return
			}
			fn := x.funcOf(id)
			if fn == nil {
				x.fail(th, program.RuntimeError, "call through an invalid function pointer")
				return
			}
			if !fn.defined {
				x.fail(th, program.RuntimeError, "call through a pointer to %s, which has no definition", fn.name)
				return
			}
			// drop the function pointer from under the arguments
			copy(st[n-1-int(in.k):], st[n-int(in.k):])
			th.stack = st[:n-1]
			x.callN(th, fn, int(in.k))
			continue
		case opRet:
			var v int64
			if in.flag&fKeep != 0 {
				v = st[n-1]
			}
			x.ret(th, v)
			if th.ending {
				return
			}
			continue
		case opZero:
			o, off := x.resolve(th, st[n-1], int(in.k))
			if o == nil {
				return
			}
			th.effects++
			clear(o.data[off : off+int(in.k)])
			o.dropCells(off, int(in.k))
			switch {
			case in.flag&fUndef != 0 && in.a != 0 && x.p.undefInputs:
				// an address-taken integer declared without initialiser
				// starts with an input value, as a slot does (opSetLocal)
				v, t := x.undefInput(th, int64(in.a), in.pos)
				w := uint8(in.a & 0xff)
				store(o.data[off:], w, v)
				o.setCell(off, w, t)
				o.writeObj(off, int(in.k))
			case in.flag&fUndef != 0:
				o.undefine(off, int(in.k))
			default:
				o.writeObj(off, int(in.k))
			}
			th.stack = st[:n-1]
		case opTrap:
			x.fail(th, program.RuntimeError, "%s", x.p.strs[in.a])
			return
		case opNoModel:
			if in.k != 0 {
				// a model that explores one of the call's behaviours
				// (extern.go): the execution goes on, Unmodelled
				x.noteUnmodelled(fmt.Sprintf("%s (line %d)", x.p.strs[in.a], in.pos.Line))
				break
			}
			// Not the program's error: mcr does not know what the call
			// does, so this execution cannot go on and the search is
			// incomplete (Bounded). Executions that never reach it are
			// explored as usual.
			x.fail(th, program.Bounded, "%s (reached at line %d)", x.p.strs[in.a], in.pos.Line)
			return
		case opFAdd, opFSub, opFMul, opFDiv, opFNeg, opFEq, opFNe, opFLt, opFLe, opFGt, opFGe, opFBool, opIToF, opFToI, opFToF, opFMath:
			if !x.floatOp(th, in) {
				return
			}
		case opBuiltin:
			if !idleBuiltins[in.a] {
				th.effects++
			}
			if x.builtin(th, in) {
				return // an event is pending, or the execution or thread ended
			}
		}
		th.pc++
	}
}

// ptrOffsetLimit bounds the offsets pointer arithmetic can reach: the
// signed 32-bit offset of the pointer layout (objOf).
const ptrOffsetLimit = 1 << 31

// ptrAdd computes p + i*in.k (p - i*in.k with fNeg) for opPtrAdd. The
// result keeps p's object; an offset beyond the pointer layout's range
// (more than 2 GiB outside an object of at most maxObject bytes) is
// reported as a runtime error, since it would name another object.
func (x *execution) ptrAdd(th *thread, in *instr, p, i int64) (int64, bool) {
	if i == 0 {
		return p, true
	}
	if in.flag&fNeg != 0 {
		i = -i
	}
	off, k := int64(offOf(p)), max(in.k, 1)
	// |i*k| <= 2^32 first, so that neither the product nor the sum overflows
	const lim = 2 * ptrOffsetLimit
	if i > lim/k || i < -lim/k || off+i*k < -ptrOffsetLimit || off+i*k >= ptrOffsetLimit {
		id := objOf(p)
		x.fail(th, program.RuntimeError, "pointer arithmetic out of range: %d elements of %d bytes from offset %d of %s",
			i, k, off, x.objName(id, x.object(id)))
		return 0, false
	}
	return mkPtr(objOf(p), off+i*k), true
}

// storeAddr finds the address operand of a store: under the value, or for
// opStorePost (addr old new) two below it.
func storeAddr(in *instr, st []int64) int64 {
	if in.op == opStorePost {
		return st[len(st)-3]
	}
	return st[len(st)-2]
}

func accessFlags(in *instr) program.Flags {
	var f program.Flags
	if in.flag&fAtomic != 0 {
		f |= program.Atomic
	}
	if in.flag&fDeref != 0 {
		f |= program.Deref
	}
	return f
}

// doStore performs the store at th.pc (private or after its event fired).
func (x *execution) doStore(th *thread, in *instr, o *object, off int) {
	st := th.stack
	n := len(st)
	v := conv(st[n-1], in.w, in.flag&fSigned != 0)
	th.effects++
	if x.sym != nil {
		x.symStore(th, in, o, off)
	}
	o.writeObj(off, int(in.w))
	if in.flag&fCopy != 0 && th.copyUndef {
		o.undefine(off, int(in.w)) // an indeterminate member copied (undef.go)
	}
	if in.op == opStorePost {
		// addr old new -> old
		x.put(th, o, off, in.w, v)
		st[n-3] = st[n-2]
		th.stack = st[:n-2]
		return
	}
	x.put(th, o, off, in.w, v)
	if in.flag&fPtr != 0 && o.shared {
		x.escape(v)
	}
	if in.flag&fKeep != 0 {
		st[n-2] = v
		th.stack = st[:n-1]
	} else {
		th.stack = st[:n-2]
	}
}

// put stores v (w bytes) at off of o, or into th's store buffer under
// TSO and PSO (storebuf.go).
func (x *execution) put(th *thread, o *object, off int, w uint8, v int64) {
	if x.buffers(o, w) {
		x.bufferStore(th, o, off, w, v)
		return
	}
	store(o.data[off:], w, v)
}

func (x *execution) callN(th *thread, fn *function, nargs int) {
	n := len(th.stack)
	args := th.stack[n-nargs:]
	th.stack = th.stack[:n-nargs]
	retPC := th.pc + 1
	x.call(th, fn, args, retPC)
}

// fire executes th's pending event and records it.
func (x *execution) fire(th *thread) {
	switch th.pend.Kind {
	case program.Begin:
		x.emit(th, program.Begin, 0, 0, 0, th.pend.Pos)
		th.begun = true
		return
	case program.End:
		x.emit(th, program.End, 0, 0, 0, th.pend.Pos)
		th.finished = true
		th.ending = false
		return
	}
	in := &x.p.code[th.pc]
	st := th.stack
	n := len(st)
	switch in.op {
	case opLoad:
		// Resolve again: another thread may have freed the object, or
		// ended the call owning it, since the access became pending.
		o, off := x.resolve(th, st[n-1], int(in.w))
		if o == nil {
			return
		}
		v := x.loadShared(th, in, o, off, in.w, in.flag&fSigned != 0, th.pend.Pos)
		if x.sym != nil {
			th.symSync()
			th.sstack[n-1] = x.symLoad(th, o, off, in, th.pend.Pos)
		}
		x.emit(th, program.Read, th.pend.Flags, th.pend.Loc, v, th.pend.Pos)
		st[n-1] = v
	case opStore, opStorePost:
		o, off := x.resolve(th, storeAddr(in, st), int(in.w))
		if o == nil {
			return
		}
		x.emit(th, program.Write, th.pend.Flags, th.pend.Loc, th.pend.Value, th.pend.Pos)
		x.doStore(th, in, o, off)
	case opBuiltin:
		x.fireBuiltin(th, in)
	}
	th.pc++
}
