package cfront

import (
	"fmt"
	"sort"
	"strings"

	"modernc.org/cc/v4"

	"mcr/program"
	"mcr/program/sym"
)

// This file implements the symbolic shadow of concolic execution (issue
// 16). A program that calls __VERIFIER_nondet_* reads inputs: the k-th
// call of thread t returns input (t,k) of the exploration's input vector
// (Program.WithInputs; absent inputs read 0). Beside each value derived
// from inputs, the interpreter keeps a term over the inputs (package sym):
// a shadow of each thread's operand stack and local slots, and per object
// a map from byte offset to the term of the symbolic scalar stored there.
// Every decision that depends on an input is recorded as a constraint of
// the execution's path (sym.Path): conditional jumps, assumptions and
// assertions; and every use of a symbolic value the shadow does not model
// (an address, an index, a divisor's zero test, a builtin's argument, a
// load overlapping a stored term at another width) concretises it: the
// constraint term == value. A program without nondet calls has no shadow
// (execution.sym is nil) and pays one nil test per instruction.

// symState is an execution's concolic state.
type symState struct {
	path sym.Path
	// symArgs carries the argument terms of a call from the caller's
	// stack to the callee's slots (call)
	symArgs []*sym.Term
	// symRet carries a returned value's term to the caller's stack (ret)
	symRet *sym.Term
}

// symCell is a symbolic scalar stored in memory: w bytes, term t (already
// normalised to the store's width).
type symCell struct {
	w uint8
	t *sym.Term
}

// nondetSpec is the C type of a nondet input.
type nondetSpec struct {
	w      uint8
	signed bool
	bool   bool
	typ    string
}

// HasInputs implements program.InputProgram.
func (p *Program) HasInputs() bool { return p.hasInputs }

// HasTrylock reports whether p's code has a trylock (pthread_mutex_trylock,
// pthread_spin_trylock, a timed lock's attempt), reached or not: the
// explorers that explore one outcome of a trylock hand such a program to
// rf (cmd/mcr), and are better not started on it.
func (p *Program) HasTrylock() bool { return p.hasTrylock }

// WithInputs implements program.InputProgram: a copy of p (sharing its
// code and thread identities) whose executions read the given inputs.
func (p *Program) WithInputs(in []program.InputValue) program.Program {
	q := *p
	q.inputs = make(map[program.InputID]int64, len(in))
	for _, v := range in {
		q.inputs[program.InputID{Thread: v.Thread, K: v.K}] = v.Value
	}
	return &q
}

// Concolic returns the execution's path: its input-dependent constraints
// and inputs; nil if the program reads no inputs.
func (x *execution) Concolic() *sym.Path {
	if x.sym == nil {
		return nil
	}
	return &x.sym.path
}

// symSync makes th's stack shadow as long as its stack: positions the
// shadow does not track (results of builtins, events) are concrete.
func (th *thread) symSync() {
	n := len(th.stack)
	if len(th.sstack) > n {
		clear(th.sstack[n:])
		th.sstack = th.sstack[:n]
	}
	for len(th.sstack) < n {
		th.sstack = append(th.sstack, nil)
	}
}

func (th *thread) slotTerm(i int32) *sym.Term {
	if int(i) < len(th.sslots) {
		return th.sslots[i]
	}
	return nil
}

func (th *thread) setSlotTerm(i int32, t *sym.Term) {
	if t == nil && int(i) >= len(th.sslots) {
		return
	}
	for int(i) >= len(th.sslots) {
		th.sslots = append(th.sslots, nil)
	}
	th.sslots[i] = t
}

// constrain records that the decision on t came out taken.
func (x *execution) constrain(th *thread, t *sym.Term, taken bool, pos program.Pos, what string) {
	for pc := th.pc; pos.Line == 0 && pc > 0; pc-- {
		pos = x.p.code[pc-1].pos // jumps have no position of their own
	}
	x.sym.path.Constraints = append(x.sym.path.Constraints, sym.Constraint{
		Term: t, Taken: taken, Pos: pos, Thread: th.id, Events: th.nevents, What: what})
}

// concretise records that t is used at its concrete value v.
func (x *execution) concretise(th *thread, t *sym.Term, v int64, pos program.Pos, what string) {
	if t != nil {
		x.constrain(th, sym.Bin(sym.OpEq, t, sym.Const(v)), true, pos, what)
		c := &x.sym.path.Constraints[len(x.sym.path.Constraints)-1]
		c.Conc, c.Value = true, v
	}
}

// concretiseTop concretises the top k stack values of th.
func (x *execution) concretiseTop(th *thread, k int, pos program.Pos, what string) {
	n := len(th.stack)
	for i := n - k; i < n; i++ {
		if th.sstack[i] != nil {
			x.concretise(th, th.sstack[i], th.stack[i], pos, what)
			th.sstack[i] = nil
		}
	}
}

func termOr(t *sym.Term, v int64) *sym.Term {
	if t != nil {
		return t
	}
	return sym.Const(v)
}

var binOps = map[opcode][2]sym.Op{ // unsigned, signed
	opAdd: {sym.OpAdd, sym.OpAdd}, opSub: {sym.OpSub, sym.OpSub}, opMul: {sym.OpMul, sym.OpMul},
	opDiv: {sym.OpUDiv, sym.OpSDiv}, opMod: {sym.OpURem, sym.OpSRem},
	opAnd: {sym.OpAnd, sym.OpAnd}, opOr: {sym.OpOr, sym.OpOr}, opXor: {sym.OpXor, sym.OpXor},
	opShl: {sym.OpShl, sym.OpShl}, opShr: {sym.OpLShr, sym.OpAShr},
	opEq: {sym.OpEq, sym.OpEq}, opNe: {sym.OpNe, sym.OpNe},
	opLt: {sym.OpULt, sym.OpSLt}, opLe: {sym.OpULe, sym.OpSLe},
}

// symStep updates th's shadow for the instruction in, before the
// interpreter executes it (run): operands are still on the stack.
func (x *execution) symStep(th *thread, in *instr) {
	th.symSync()
	ss, st := th.sstack, th.stack
	n := len(ss)
	switch in.op {
	case opPush, opAddrObj, opAddrTLS, opAddrFrame:
		th.sstack = append(ss, nil)
	case opPop:
		ss[n-1] = nil
		th.sstack = ss[:n-1]
	case opDup:
		th.sstack = append(ss, ss[n-1])
	case opSwap:
		ss[n-1], ss[n-2] = ss[n-2], ss[n-1]
	case opGetLocal:
		th.sstack = append(ss, th.slotTerm(th.frames[len(th.frames)-1].slotBase+in.a))
	case opSetLocal:
		th.setSlotTerm(th.frames[len(th.frames)-1].slotBase+in.a, ss[n-1])
		ss[n-1] = nil
		th.sstack = ss[:n-1]
	case opLoad, opZero:
		x.concretiseTop(th, 1, in.pos, "address")
	case opStore:
		x.concretise(th, ss[n-2], st[n-2], in.pos, "address")
		ss[n-2] = nil
	case opStorePost:
		x.concretise(th, ss[n-3], st[n-3], in.pos, "address")
		ss[n-3] = nil
	case opConv:
		if ss[n-1] != nil {
			ss[n-1] = sym.ConvTerm(ss[n-1], in.w, in.flag&fSigned != 0)
		}
	case opAdd, opSub, opMul, opDiv, opMod, opAnd, opOr, opXor, opShl, opShr, opEq, opNe, opLt, opLe, opGt, opGe:
		a, b := ss[n-2], ss[n-1]
		if (in.op == opDiv || in.op == opMod) && b != nil {
			x.constrain(th, sym.Bin(sym.OpNe, b, sym.Const(0)), st[n-1] != 0, in.pos, "divisor")
		}
		ss[n-1] = nil
		th.sstack = ss[:n-1]
		if a == nil && b == nil {
			return
		}
		ta, tb := termOr(a, st[n-2]), termOr(b, st[n-1])
		op := in.op
		if op == opGt || op == opGe { // a > b is b < a
			ta, tb = tb, ta
			op = map[opcode]opcode{opGt: opLt, opGe: opLe}[op]
		}
		ss[n-2] = sym.Bin(binOps[op][b2i(in.flag&fSigned != 0)], ta, tb)
	case opNeg:
		if ss[n-1] != nil {
			ss[n-1] = sym.Un(sym.OpNeg, ss[n-1])
		}
	case opCpl:
		if ss[n-1] != nil {
			ss[n-1] = sym.Un(sym.OpNot, ss[n-1])
		}
	case opLNot:
		if ss[n-1] != nil {
			ss[n-1] = sym.Bin(sym.OpEq, ss[n-1], sym.Const(0))
		}
	case opBool:
		if ss[n-1] != nil && !isBool(ss[n-1]) {
			ss[n-1] = sym.Bin(sym.OpNe, ss[n-1], sym.Const(0))
		}
	case opPtrDiff, opPtrAdd:
		x.concretiseTop(th, 2, in.pos, "pointer arithmetic")
		ss[n-1] = nil
		th.sstack = ss[:n-1]
	case opJz, opJnz:
		if ss[n-1] != nil {
			x.constrain(th, ss[n-1], st[n-1] != 0, in.pos, "branch")
		}
		ss[n-1] = nil
		th.sstack = ss[:n-1]
	case opCall:
		k := int(in.k)
		x.sym.symArgs = append(x.sym.symArgs[:0], ss[n-k:]...)
		clear(ss[n-k:])
		th.sstack = ss[:n-k]
	case opCallInd:
		k := int(in.k)
		x.concretise(th, ss[n-1-k], st[n-1-k], in.pos, "function pointer")
		x.sym.symArgs = append(x.sym.symArgs[:0], ss[n-k:]...)
		clear(ss[n-1-k:])
		th.sstack = ss[:n-1-k]
	case opRet:
		x.sym.symRet = nil
		if in.flag&fKeep != 0 {
			x.sym.symRet = ss[n-1]
			if f := th.frames[len(th.frames)-1]; f.retPC < 0 || len(th.frames) == 1 {
				// a thread's result: pthread_join reads it concretely
				x.concretise(th, ss[n-1], st[n-1], in.pos, "thread result")
				x.sym.symRet = nil
			}
		}
	case opFAdd, opFSub, opFMul, opFDiv, opFEq, opFNe, opFLt, opFLe, opFGt, opFGe:
		x.symFloat(th, in, 2)
	case opFNeg, opFBool, opIToF, opFToI, opFToF:
		x.symFloat(th, in, 1)
	case opFMath:
		x.symFloat(th, in, int(in.k))
	case opBuiltin:
		k := int(in.k)
		switch in.a {
		case bAssume, bVerifierAssert:
			if t := ss[n-k]; t != nil {
				if !isBool(t) {
					t = sym.Bin(sym.OpNe, t, sym.Const(0))
				}
				what := "assume"
				if in.a == bVerifierAssert {
					what = "assert"
				}
				x.constrain(th, t, st[n-k] != 0, in.pos, what)
			}
			clear(ss[n-k:])
		case bNondet:
		default:
			x.concretiseTop(th, k, in.pos, "argument of a library call")
		}
	}
}

// symCall moves the call's argument terms into the callee's slots (base
// is the callee's first slot) and its address-taken parameters.
func (x *execution) symCall(th *thread, base int32, nslots int) {
	if len(th.sslots) > int(base) {
		clear(th.sslots[base:])
		th.sslots = th.sslots[:base]
	}
	args := x.sym.symArgs
	x.sym.symArgs = x.sym.symArgs[:0]
	for i, t := range args {
		if i < nslots {
			th.setSlotTerm(base+int32(i), t)
		}
	}
}

// symParam stores the term of slot i into frame variable object o (an
// address-taken parameter of w bytes).
func (x *execution) symParam(th *thread, o *object, w uint8, slot int32) {
	o.symCells = nil
	if t := th.slotTerm(slot); t != nil {
		o.setCell(0, w, sym.ConvTerm(t, w, false))
	}
}

// symRet puts the returned value's term on the caller's stack (ret).
func (x *execution) symReturn(th *thread, pushed bool, stackLen int32) {
	if len(th.sslots) > len(th.slots) {
		clear(th.sslots[len(th.slots):])
		th.sslots = th.sslots[:len(th.slots)]
	}
	th.symSync()
	if pushed {
		th.sstack[stackLen] = x.sym.symRet
	}
	x.sym.symRet = nil
}

// setCell records that w bytes at off hold term t, replacing the cells
// it overlaps.
func (o *object) setCell(off int, w uint8, t *sym.Term) {
	o.dropCells(off, int(w))
	if t == nil {
		return
	}
	if o.symCells == nil {
		o.symCells = map[int]symCell{}
	}
	o.symCells[off] = symCell{w: w, t: t}
}

// dropCells forgets the cells that overlap [off, off+w).
func (o *object) dropCells(off, w int) {
	if len(o.symCells) == 0 {
		return
	}
	for k := off - 7; k < off+w; k++ {
		if c, ok := o.symCells[k]; ok && k+int(c.w) > off {
			delete(o.symCells, k)
		}
	}
}

// touch concretises the cells overlapping [off, off+w) (their current
// bytes are their concrete values) and forgets them.
func (x *execution) touch(th *thread, o *object, off, w int, pos program.Pos, what string) {
	if len(o.symCells) == 0 {
		return
	}
	for k := off - 7; k < off+w; k++ {
		if c, ok := o.symCells[k]; ok && k+int(c.w) > off {
			x.concretise(th, c.t, load(o.data[k:], c.w, false), pos, what)
			delete(o.symCells, k)
		}
	}
}

// symLoad returns the term of the w-byte load at off of o (nil if
// concrete); a load that overlaps a cell it does not match exactly
// concretises that cell.
func (x *execution) symLoad(th *thread, o *object, off int, in *instr, pos program.Pos) *sym.Term {
	if len(o.symCells) == 0 {
		return nil
	}
	if c, ok := o.symCells[off]; ok && c.w == in.w {
		return sym.ConvTerm(c.t, in.w, in.flag&fSigned != 0)
	}
	x.touch(th, o, off, int(in.w), pos, "load overlapping a symbolic value")
	return nil
}

// symStore records the store of th's top value (its term t) at off of o.
func (x *execution) symStore(th *thread, in *instr, o *object, off int) {
	t := th.sstack[len(th.sstack)-1]
	if t != nil {
		t = sym.ConvTerm(t, in.w, in.flag&fSigned != 0)
	}
	o.setCell(off, in.w, t)
	if t != nil && o.shared {
		// the store's event fired just before (doStore)
		n := len(x.trace.Events)
		if n == 0 || x.trace.Events[n-1].Thread != th.id || x.trace.Events[n-1].Kind != program.Write {
			if x.sym.path.StoreUnknown == "" {
				x.sym.path.StoreUnknown = fmt.Sprintf("a store of an input-derived value at line %d has no write event", in.pos.Line)
			}
		} else {
			if x.sym.path.StoreTerms == nil {
				x.sym.path.StoreTerms = map[int32]*sym.Term{}
			}
			x.sym.path.StoreTerms[int32(n-1)] = t
		}
	}
	n := len(th.sstack)
	switch {
	case in.op == opStorePost:
		th.sstack[n-3] = th.sstack[n-2]
	case in.flag&fKeep != 0:
		th.sstack[n-2] = t
	}
}

// nondet returns th's next input and its term.
func (x *execution) nondet(th *thread, in *instr) (int64, *sym.Term) {
	spec := nondetSpec{w: in.w, signed: in.flag&fSigned != 0, bool: in.flag&fUndef != 0}
	k := th.ninputs
	th.ninputs++
	v := &sym.Var{Thread: th.name, K: k, W: spec.w, Signed: spec.signed, Bool: spec.bool, Type: x.p.strs[th.stack[len(th.stack)-1]],
		Call: in.pos, Step: len(x.trace.Events)}
	x.sym.path.Vars = append(x.sym.path.Vars, v)
	return v.Norm(x.p.inputs[program.InputID{Thread: th.name, K: k}]), sym.NewVar(v)
}

// incomplete notes the first thing about inputs the shadow cannot model.
func (x *execution) incomplete(format string, args ...any) {
	if x.sym != nil && x.sym.path.Incomplete == "" {
		x.sym.path.Incomplete = fmt.Sprintf(format, args...)
	}
}

// InputsOf lists the inputs of a path with values from vec, sorted.
func InputsOf(vars []*sym.Var, vec map[program.InputID]int64) []program.InputValue {
	var out []program.InputValue
	for _, v := range vars {
		out = append(out, program.InputValue{Thread: v.Thread, K: v.K, Value: vec[v.ID()]})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Thread != out[j].Thread {
			return out[i].Thread < out[j].Thread
		}
		return out[i].K < out[j].K
	})
	return out
}

// isBool reports whether t is 0 or 1 (a comparison).
func isBool(t *sym.Term) bool {
	switch t.Op {
	case sym.OpEq, sym.OpNe, sym.OpSLt, sym.OpSLe, sym.OpULt, sym.OpULe:
		return true
	}
	return false
}

// undefSpec encodes the type of a local declared without initialiser for
// its declaration's instruction (k): 0 if it is not an integer.
func undefSpec(t cc.Type) int64 {
	switch {
	case t.Kind() == cc.Bool:
		return 1 | 1<<9 | 1<<10
	case cc.IsIntegerType(t) && (t.Size() == 1 || t.Size() == 2 || t.Size() == 4 || t.Size() == 8):
		k := t.Size() | 1<<10
		if cc.IsSignedInteger(t) {
			k |= 1 << 8
		}
		return k
	}
	return 0
}

// ReadsUndef reports whether the exploration result's incompleteness
// reason (Stats.Unmodelled) is a read of an uninitialised local, which
// WithUndefInputs turns into an input.
func ReadsUndef(reason string) bool {
	return strings.Contains(reason, "an uninitialised local variable")
}

// WithUndefInputs returns a copy of p in which every integer local
// declared without initialiser starts with an input value (SV-COMP: its
// value is indeterminate), explored concolically like __VERIFIER_nondet_*
// calls. Uninitialised memory (arrays, structs, address-taken locals,
// malloc) still reads 0 and makes the search incomplete.
func (p *Program) WithUndefInputs() *Program {
	q := *p
	q.hasInputs, q.undefInputs = true, true
	return &q
}

// undefInput returns th's next input for a declaration at pos of a local
// whose type has input spec spec (undefSpec), and its term.
func (x *execution) undefInput(th *thread, spec int64, pos program.Pos) (int64, *sym.Term) {
	k := th.ninputs
	th.ninputs++
	v := &sym.Var{Thread: th.name, K: k, W: uint8(spec & 0xff), Signed: spec&(1<<8) != 0, Bool: spec&(1<<9) != 0,
		Type: fmt.Sprintf("uninitialised local at line %d", pos.Line), Step: len(x.trace.Events)}
	x.sym.path.Vars = append(x.sym.path.Vars, v)
	return v.Norm(x.p.inputs[program.InputID{Thread: th.name, K: k}]), sym.NewVar(v)
}
