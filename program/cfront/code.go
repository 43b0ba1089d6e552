package cfront

import (
	"modernc.org/cc/v4"

	"mcr/program"
)

// This file defines the bytecode the compiler emits and the interpreter runs.
//
// The machine is a stack machine over int64 values. Pointers are int64 too:
// the object id in the high 32 bits and the byte offset in the low 32 bits,
// so that a pointer's value, and thus a location, is the same in every
// execution (see objID). The interpreter stops a thread at every instruction
// that touches shared state (an event) so that the scheduler can choose who
// goes next; everything else runs without stopping.

type opcode uint8

const (
	opNop opcode = iota
	opPush
	opPop
	opDup
	opSwap
	opGetLocal // push slots[a]
	opSetLocal // slots[a] = pop
	opAddrObj  // push pointer to static object a + k
	// opAddrFrame pushes a pointer to byte k of frame variable a of the
	// current call (each address-taken or aggregate local is its own object)
	opAddrFrame
	opLoad  // addr -> value; w bytes, fSigned; an event if the object is shared
	opStore // addr value -> (value if fKeep); an event if the object is shared
	opStorePost
	opConv // normalise to w bytes, fSigned
	opAdd
	opSub
	opMul
	opDiv
	opMod
	opAnd
	opOr
	opXor
	opShl
	opShr
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
	opNeg
	opCpl
	opLNot
	opBool
	opPtrDiff // a b -> (a-b)/k, checks same object
	// opPtrAdd: ptr i -> ptr + i*k (ptr - i*k with fNeg); the result stays
	// in ptr's object, and leaving it by more than the offset range is a
	// runtime error instead of a pointer into a neighbouring object
	opPtrAdd
	opJmp
	opJz
	opJnz
	opCall    // call function a with k arguments
	opCallInd // fnptr args... -> call
	opRet     // fKeep: returns a value
	opBuiltin // builtin a with k arguments
	opZero    // addr -> ; zero k bytes (local aggregate initialisation, no events)
	opTrap    // a runtime error with message strs[a]
	opNoModel // a call mcr cannot execute (strs[a]): the execution ends, bounded; k 1: a model of one of its behaviours runs next, the execution goes on, Unmodelled (extern.go)
	opAddrTLS // push the address of the thread's copy of thread-local static a, plus k (tls.go)
	// Floating point (float.go): w is the operands' width, 4 (float) or 8
	// (double); values are their IEEE 754 bit patterns.
	opFAdd
	opFSub
	opFMul
	opFDiv
	opFNeg
	opFEq // opFEq to opFGe are in the order of opEq to opGe (relation)
	opFNe
	opFLt
	opFLe
	opFGt
	opFGe
	opFBool // f -> f != 0 (NaN is true)
	opIToF  // integer (fSigned: signed) -> floating value of width w
	opFToI  // floating value of width k -> integer of width w, fSigned; truncates toward zero
	opFToF  // the other width -> floating value of width w
	opFMath // libm function a (fmath*) over k operands of width w
)

// Instruction flags.
const (
	fSigned uint8 = 1 << iota
	fAtomic       // an atomic access
	fKeep         // leave the stored value on the stack
	fPtr          // the stored value is a pointer: a stack object it points to escapes
	fDeref        // the loaded value is dereferenced (null-read property)
	fNullOK       // a store to a null address is skipped (pthread_join's retval)
	fNeg          // opPtrAdd subtracts
	// fUndef on opGetLocal/opSetLocal: the slot belongs to a local declared
	// without an initialiser, whose value is indeterminate until set
	// (thread.undef); on opZero: mark the k bytes indeterminate instead
	fUndef
	// fCopy on opLoad/opStore: a scalar of an aggregate copy, which
	// carries indeterminate bytes over instead of reading them (undef.go);
	// it shares fNeg's bit, which only opPtrAdd uses
	fCopy = fNeg
	// fTimed on an await builtin: a timed wait's (timedwait.go); it shares
	// fKeep's bit, which builtins do not use
	fTimed = fKeep
)

type instr struct {
	op   opcode
	w    uint8 // access or conversion width in bytes
	flag uint8
	a    int32
	k    int64
	pos  program.Pos
}

// function is a compiled C function.
type function struct {
	name    string
	entry   int32 // first instruction
	nparams int
	nslots  int // register slots (params first)
	// frameVars are the address-taken and aggregate locals: each call
	// allocates one object per variable, so that an access out of one
	// variable is out of bounds instead of landing in its neighbour
	frameVars []frameVar
	params    []paramCopy
	atomic    bool // __VERIFIER_atomic_*: runs holding the atomic-section lock
	void      bool
	// sret: the function returns a struct or union; its slot 0 is a hidden
	// pointer to the caller's result object (structret.go)
	sret    bool
	defined bool
	// lib: a library function of libc.go; its code has no positions, its
	// events take the position of the program's call (execution.pos)
	lib bool
	// exitHook: the thread-exit procedure that runs key destructors (tsd.go)
	exitHook bool
	pos      program.Pos
	objID    uint32 // static object standing for the function's address
}

// frameVar is a local that lives in memory: its name for messages
// ("main.a") and its size in bytes.
type frameVar struct {
	name string
	size int64
	typ  cc.Type // its scalars' widths: the initial values it shares when it escapes
}

// paramCopy moves parameter slot to frame variable v at function entry
// (address-taken parameters).
type paramCopy struct {
	slot int
	v    int
	w    uint8
}

// builtin ids.
const (
	bAssertFail = iota // (msg) __mcr_assert_fail, reach_error, __VERIFIER_error, abort
	bVerifierAssert
	bAssume
	bLock
	bUnlock
	bTryLock
	bMutexInit // no-op returning 0
	bCreate    // (tid*, attr, fn, arg) -> 0
	bJoin      // (tid, retp) -> 0
	bExit      // pthread_exit(v)
	bSelf
	bAtomicLoad
	bAtomicStore
	bAtomicXchg
	bAtomicCAS // (p, expected value, desired) -> old value
	bFetchAdd
	bFetchSub
	bFetchAnd
	bFetchOr
	bFetchXor
	bFetchNand
	bAddFetch
	bSubFetch
	bAndFetch
	bOrFetch
	bXorFetch
	bFence
	bNondet // (type name) the thread's next input: w bytes, fSigned; fUndef: a _Bool (concolic.go)
	bInput  // (name) an input the explorers do not vary yet: a fixed value, Unmodelled (undef.go)
	// The awaits (await.go): (p, arg) -> the 4-byte value read at p; if
	// their condition on it fails, the thread stops there.
	bCondAwait    // a condition wait's: the count changed from arg (condvar.go)
	bBarrierAwait // a barrier wait's: the generation field changed from arg (barrier.go)
	bRdAwait      // a read lock's: no writer, the state is >= 0 (rwlock.go)
	bWrAwait      // a write lock's: the state is 0 (rwlock.go)
	bSemAwait     // a semaphore wait's: the value is not 0 (semaphore.go)
	bOnceAwait    // pthread_once's: the routine has returned (once.go)
	bRwWriter     // (l, set) thread-local: set 1 notes that the thread write-holds l; set 0 forgets it, returning whether it did (rwlock.go)
	bMalloc
	bCalloc
	bGetSpecific // (key) the thread's value of a thread-specific data key (tsd.go)
	bSetSpecific // (key, value) sets it
	bDtorNext    // () at thread exit: the next key whose destructor may run, 0 when done (tsd.go)
	bDtorCall    // () the argument of the destructor about to be called (tsd.go)
	bAllocVLA    // (size, name) a variable-length array's storage: a stack object of that size, indeterminate
	bFree
	bAtomicBegin
	bAtomicEnd
	bExitProcess // exit(code)
	bAbort       // abort(): ends the program like exit, not a violation
	bNop         // printf and friends: arguments evaluated, no effect, returns 0
	// (attr, type) pthread_mutexattr_settype; (m, attr) pthread_mutex_init
	// (mutextype.go)
	bMutexAttrSetType
	bMutexInitType
	numBuiltins
)
