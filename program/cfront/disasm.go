package cfront

import (
	"fmt"
	"io"
)

var opNames = map[opcode]string{
	opNop: "nop", opPush: "push", opPop: "pop", opDup: "dup", opSwap: "swap", opGetLocal: "get", opSetLocal: "set",
	opAddrObj: "addrobj", opAddrFrame: "addrframe", opLoad: "load", opStore: "store", opStorePost: "storepost",
	opConv: "conv", opAdd: "add", opSub: "sub", opMul: "mul", opDiv: "div", opMod: "mod", opAnd: "and", opOr: "or",
	opXor: "xor", opShl: "shl", opShr: "shr", opEq: "eq", opNe: "ne", opLt: "lt", opLe: "le", opGt: "gt", opGe: "ge",
	opNeg: "neg", opCpl: "cpl", opLNot: "lnot", opBool: "bool", opPtrDiff: "ptrdiff", opPtrAdd: "ptradd", opJmp: "jmp", opJz: "jz",
	opJnz: "jnz", opCall: "call", opCallInd: "callind", opRet: "ret", opBuiltin: "builtin", opZero: "zero", opTrap: "trap",
	opNoModel: "nomodel", opAddrTLS: "addrtls", opFAdd: "fadd", opFSub: "fsub", opFMul: "fmul", opFDiv: "fdiv", opFNeg: "fneg",
	opFEq: "feq", opFNe: "fne", opFLt: "flt", opFLe: "fle", opFGt: "fgt", opFGe: "fge", opFBool: "fbool", opIToF: "itof",
	opFToI: "ftoi", opFToF: "ftof", opFMath: "fmath",
}

// Disassemble writes the program's bytecode to w, for debugging the compiler.
func (p *Program) Disassemble(w io.Writer) {
	starts := map[int32]string{}
	for _, fn := range p.funcs {
		if fn.entry >= 0 {
			starts[fn.entry] = fn.name
		}
	}
	for i, in := range p.code {
		if name, ok := starts[int32(i)]; ok {
			fmt.Fprintf(w, "%s:\n", name)
		}
		fmt.Fprintf(w, "%5d  %-9s w=%d f=%02x a=%d k=%d  @%s\n", i, opNames[in.op], in.w, in.flag, in.a, in.k, in.pos)
	}
}
