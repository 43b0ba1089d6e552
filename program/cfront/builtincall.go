package cfront

import (
	"strconv"
	"strings"

	"modernc.org/cc/v4"

	"mcr/program"
)

// This file maps calls of library functions and compiler builtins to the
// interpreter's builtins.

// unsupportedCalls names library functions mcr knows it does not model.
var unsupportedCalls = map[string]string{
	"sem_open": "named semaphores are not supported; sem_init is",
	"setjmp":   "setjmp/longjmp are not supported",
	"_setjmp":  "setjmp/longjmp are not supported",
	"longjmp":  "setjmp/longjmp are not supported",
}

type bspec struct {
	id   int32
	keep int // arguments passed to the builtin; further arguments are evaluated and dropped
	kind int
}

const (
	bkPlain  = iota // evaluate and pass the first keep arguments
	bkAtomic        // like plain, width from the first argument's pointee
	bkMsg           // fails with a fixed message
)

var builtinSpecs = map[string]bspec{
	"__mcr_assert_fail":           {bAssertFail, 1, bkPlain},
	"__VERIFIER_assume":           {bAssume, 1, bkPlain},
	"assume_abort_if_not":         {bAssume, 1, bkPlain},
	"pthread_mutex_lock":          {bLock, 1, bkPlain},
	"pthread_mutex_unlock":        {bUnlock, 1, bkPlain},
	"pthread_mutex_trylock":       {bTryLock, 1, bkPlain},
	"pthread_mutex_init":          {bMutexInitType, 2, bkPlain},
	"pthread_mutexattr_settype":   {bMutexAttrSetType, 2, bkPlain},
	"pthread_mutex_destroy":       {bMutexInit, 0, bkPlain},
	"pthread_cond_destroy":        {bMutexInit, 0, bkPlain},
	"pthread_rwlock_destroy":      {bMutexInit, 0, bkPlain},
	"pthread_rwlockattr_init":     {bMutexInit, 0, bkPlain},
	"pthread_rwlockattr_destroy":  {bMutexInit, 0, bkPlain},
	"pthread_barrier_destroy":     {bMutexInit, 0, bkPlain},
	"pthread_barrierattr_init":    {bMutexInit, 0, bkPlain},
	"pthread_barrierattr_destroy": {bMutexInit, 0, bkPlain},
	"sem_destroy":                 {bMutexInit, 0, bkPlain},
	// A spin lock is a mutex: spinning and blocking differ only in time,
	// which is not modelled (POSIX.1-2017 XSH "pthread_spin_lock").
	"pthread_spin_init":           {bMutexInit, 0, bkPlain},
	"pthread_spin_destroy":        {bMutexInit, 0, bkPlain},
	"pthread_spin_lock":           {bLock, 1, bkPlain},
	"pthread_spin_trylock":        {bTryLock, 1, bkPlain},
	"pthread_spin_unlock":         {bUnlock, 1, bkPlain},
	"pthread_mutexattr_init":      {bMutexInit, 0, bkPlain},
	"pthread_mutexattr_destroy":   {bMutexInit, 0, bkPlain},
	"pthread_attr_init":           {bMutexInit, 0, bkPlain},
	"pthread_attr_destroy":        {bMutexInit, 0, bkPlain},
	"pthread_detach":              {bMutexInit, 0, bkPlain},
	"pthread_attr_setdetachstate": {bMutexInit, 0, bkPlain},
	"pthread_exit":                {bExit, 1, bkPlain},
	"pthread_self":                {bSelf, 0, bkPlain},
	"sched_yield":                 {bNop, 0, bkPlain},
	"printf":                      {bNop, 0, bkPlain},
	"puts":                        {bNop, 0, bkPlain},
	"putchar":                     {bNop, 0, bkPlain},
	"fprintf":                     {bNop, 0, bkPlain},
	"fflush":                      {bNop, 0, bkPlain},
	"sleep":                       {bNop, 0, bkPlain}, // time passing is not modelled: every interleaving is explored anyway
	"usleep":                      {bNop, 0, bkPlain},
	"nanosleep":                   {bNop, 0, bkPlain},
	"malloc":                      {bMalloc, 1, bkPlain},
	"calloc":                      {bCalloc, 2, bkPlain},
	"free":                        {bFree, 1, bkPlain},
	"exit":                        {bExitProcess, 1, bkPlain},
	"_Exit":                       {bExitProcess, 1, bkPlain},
	"__VERIFIER_atomic_begin":     {bAtomicBegin, 0, bkPlain},
	"__VERIFIER_atomic_end":       {bAtomicEnd, 0, bkPlain},
	"__mcr_fence":                 {bFence, 0, bkPlain},
	"__sync_synchronize":          {bFence, 0, bkPlain},
	"__atomic_thread_fence":       {bFence, 0, bkPlain},
	"__mcr_atomic_load":           {bAtomicLoad, 1, bkAtomic},
	"__atomic_load_n":             {bAtomicLoad, 1, bkAtomic},
	"__mcr_atomic_store":          {bAtomicStore, 2, bkAtomic},
	"__atomic_store_n":            {bAtomicStore, 2, bkAtomic},
	"__mcr_atomic_exchange":       {bAtomicXchg, 2, bkAtomic},
	"__atomic_exchange_n":         {bAtomicXchg, 2, bkAtomic},
	"__sync_lock_test_and_set":    {bAtomicXchg, 2, bkAtomic},
	"pthread_getspecific":         {bGetSpecific, 1, bkPlain},
	"pthread_setspecific":         {bSetSpecific, 2, bkPlain},
	"__mcr_atomic_fetch_add":      {bFetchAdd, 2, bkAtomic},
	"__atomic_fetch_add":          {bFetchAdd, 2, bkAtomic},
	"__sync_fetch_and_add":        {bFetchAdd, 2, bkAtomic},
	"__mcr_atomic_fetch_sub":      {bFetchSub, 2, bkAtomic},
	"__atomic_fetch_sub":          {bFetchSub, 2, bkAtomic},
	"__sync_fetch_and_sub":        {bFetchSub, 2, bkAtomic},
	"__mcr_atomic_fetch_and":      {bFetchAnd, 2, bkAtomic},
	"__atomic_fetch_and":          {bFetchAnd, 2, bkAtomic},
	"__sync_fetch_and_and":        {bFetchAnd, 2, bkAtomic},
	"__mcr_atomic_fetch_or":       {bFetchOr, 2, bkAtomic},
	"__atomic_fetch_or":           {bFetchOr, 2, bkAtomic},
	"__sync_fetch_and_or":         {bFetchOr, 2, bkAtomic},
	"__mcr_atomic_fetch_xor":      {bFetchXor, 2, bkAtomic},
	"__atomic_fetch_xor":          {bFetchXor, 2, bkAtomic},
	"__sync_fetch_and_xor":        {bFetchXor, 2, bkAtomic},
	"__atomic_fetch_nand":         {bFetchNand, 2, bkAtomic},
	"__sync_fetch_and_nand":       {bFetchNand, 2, bkAtomic},
	"__atomic_add_fetch":          {bAddFetch, 2, bkAtomic},
	"__sync_add_and_fetch":        {bAddFetch, 2, bkAtomic},
	"__atomic_sub_fetch":          {bSubFetch, 2, bkAtomic},
	"__sync_sub_and_fetch":        {bSubFetch, 2, bkAtomic},
	"__atomic_and_fetch":          {bAndFetch, 2, bkAtomic},
	"__sync_and_and_fetch":        {bAndFetch, 2, bkAtomic},
	"__atomic_or_fetch":           {bOrFetch, 2, bkAtomic},
	"__sync_or_and_fetch":         {bOrFetch, 2, bkAtomic},
	"__atomic_xor_fetch":          {bXorFetch, 2, bkAtomic},
	"__sync_xor_and_fetch":        {bXorFetch, 2, bkAtomic},
	"__VERIFIER_error":            {bVerifierAssert, 0, bkMsg},
	"reach_error":                 {bVerifierAssert, 0, bkMsg},
	"abort":                       {bAbort, 0, bkPlain},
	"__builtin_abort":             {bAbort, 0, bkPlain},
	"__assert_fail":               {bVerifierAssert, 0, bkMsg},
}

// randCall compiles rand() or random() as an input of type int (long)
// constrained to [0, RAND_MAX] by an assumption (glibc: RAND_MAX is
// INT_MAX, so the constraint is v >= 0 for rand, v <= INT_MAX too for
// random's long), and srand/srandom as no-ops: the seed only picks one of
// the sequences, and every value is explored anyway.
func (c *compiler) randCall(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) {
	pos := toPos(x)
	if name == "srand" || name == "srandom" {
		c.needArgs(x, name, as, 1)
		c.expr(as[0])
		c.emit(instr{op: opPop})
		c.emit(instr{op: opPush})
		return
	}
	c.needArgs(x, name, as, 0)
	c.p.hasInputs = true
	w := uint8(x.Type().Size())
	c.emit(instr{op: opPush, k: int64(c.str(x.Type().String() + " from " + name + "()"))})
	c.emit(instr{op: opBuiltin, a: bNondet, k: 1, w: w, flag: fSigned, pos: callEnd(x)})
	c.emit(instr{op: opDup})
	c.emit(instr{op: opPush})
	c.emit(instr{op: opGe, flag: fSigned})
	c.emit(instr{op: opBuiltin, a: bAssume, k: 1, pos: pos})
	c.emit(instr{op: opPop})
	if w > 4 {
		c.emit(instr{op: opDup})
		c.emit(instr{op: opPush, k: 1<<31 - 1})
		c.emit(instr{op: opLe, flag: fSigned})
		c.emit(instr{op: opBuiltin, a: bAssume, k: 1, pos: pos})
		c.emit(instr{op: opPop})
	}
}

// builtinCall compiles a call of a builtin; false if name is not one.
// A program's own definition of a name wins over the builtin, except for
// reach_error and __VERIFIER_error: calling them is the violation of
// SV-COMP's unreach-call property whatever their body does (tasks define
// reach_error as assert(0), as a call of abort, or empty).
func (c *compiler) builtinCall(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) bool {
	if fn, ok := c.funcs[name]; ok && fn.defined && name != "reach_error" && name != "__VERIFIER_error" {
		return false
	}
	pos := toPos(x)
	if strings.HasPrefix(name, "__VERIFIER_nondet_") || strings.HasPrefix(name, "nondet_") {
		c.nondet(x, name, as)
		return true
	}
	switch name {
	case "rand", "random", "srand", "srandom":
		if !c.randInputs {
			return false // unmodelled: its execution ends there
		}
		c.randCall(x, name, as)
		return true
	case "pthread_create":
		c.needArgs(x, name, as, 4)
		c.expr(as[0]) // where the thread id goes
		c.expr(as[1])
		c.emit(instr{op: opPop})
		c.expr(as[2])
		c.expr(as[3])
		c.emit(instr{op: opBuiltin, a: bCreate, k: 2, pos: pos})
		c.emit(instr{op: opStore, w: 8, pos: pos})
		c.emit(instr{op: opPush})
		return true
	case "pthread_join":
		c.needArgs(x, name, as, 2)
		if v, ok := constInt(as[1]); ok && v == 0 {
			c.exprTo(as[0], c.ast.ULong)
			c.emit(instr{op: opBuiltin, a: bJoin, k: 1, pos: pos})
			c.emit(instr{op: opPop})
		} else {
			c.expr(as[1])
			c.exprTo(as[0], c.ast.ULong)
			c.emit(instr{op: opBuiltin, a: bJoin, k: 1, pos: pos})
			c.emit(instr{op: opStore, w: 8, flag: fNullOK | fPtr, pos: pos})
		}
		c.emit(instr{op: opPush})
		return true
	case "pthread_cond_wait":
		c.condWait(x, as)
		return true
	case "pthread_cond_signal", "pthread_cond_broadcast":
		c.condSignal(x, name, as)
		return true
	case "pthread_cond_init":
		c.condInit(x, as)
		return true
	case "strerror":
		// a message for an error number: a constant string is enough for
		// programs that only print it
		c.needArgs(x, name, as, 1)
		c.expr(as[0])
		c.emit(instr{op: opPop})
		c.emit(instr{op: opAddrObj, a: c.stringObj("error")})
		return true
	case "pthread_once":
		c.once(x, as)
		return true
	case "pthread_key_create":
		c.keyCreate(x, as)
		return true
	case "pthread_key_delete":
		c.keyDelete(x, as)
		return true
	case "time":
		// The time is an input: until inputs are explored (the inputs
		// issue) it reads as a fixed value and the search is incomplete.
		c.needArgs(x, name, as, 1)
		if v, ok := constInt(as[0]); !ok || v != 0 {
			c.unsupported(x, "time with a non-null argument")
		}
		c.emit(instr{op: opPush, k: int64(c.str("time()"))})
		c.emit(instr{op: opBuiltin, a: bInput, k: 1, pos: pos})
		return true
	case "pthread_equal":
		c.needArgs(x, name, as, 2)
		c.expr(as[0])
		c.expr(as[1])
		c.emit(instr{op: opEq})
		return true
	case "__VERIFIER_assert":
		c.needArgs(x, name, as, 1)
		c.cond(as[0])
		c.emit(instr{op: opPush, k: int64(c.str("assertion `" + srcText(as[0]) + "` (__VERIFIER_assert)"))})
		c.emit(instr{op: opBuiltin, a: bVerifierAssert, k: 2, pos: pos})
		return true
	case "__mcr_atomic_cas", "__atomic_compare_exchange_n":
		c.needArgs(x, name, as, 3)
		c.cas(x, as[0], as[1], as[2], as[3:])
		return true
	case "__sync_bool_compare_and_swap", "__sync_val_compare_and_swap":
		c.needArgs(x, name, as, 3)
		w, s := c.atomicWidth(as[0])
		et := pointee(c.rtype(as[0]))
		old := c.newTemp()
		c.exprTo(as[1], et)
		c.emit(instr{op: opSetLocal, a: int32(old)})
		c.expr(as[0])
		c.emit(instr{op: opGetLocal, a: int32(old)})
		c.exprTo(as[2], et)
		c.emit(instr{op: opBuiltin, a: bAtomicCAS, k: 3, w: w, flag: flagIf(s, fSigned), pos: pos})
		if name == "__sync_bool_compare_and_swap" {
			c.emit(instr{op: opGetLocal, a: int32(old)})
			c.emit(instr{op: opEq})
		}
		return true
	case "__sync_lock_release":
		c.needArgs(x, name, as, 1)
		w, s := c.atomicWidth(as[0])
		c.expr(as[0])
		c.emit(instr{op: opPush})
		c.emit(instr{op: opBuiltin, a: bAtomicStore, k: 2, w: w, flag: flagIf(s, fSigned), pos: pos})
		return true
	}
	if c.rwlockCall(x, name, as) || c.barrierCall(x, name, as) || c.semCall(x, name, as) || c.mathCall(x, name, as) ||
		c.timedCall(x, name, as) || c.failingLock(x, name, as) || c.scanfCall(x, name, as) || c.sscanfCall(x, name, as) {
		return true
	}
	spec, ok := builtinSpecs[name]
	if !ok {
		return false
	}
	switch spec.kind {
	case bkMsg:
		for _, a := range as {
			c.expr(a)
			c.emit(instr{op: opPop})
		}
		c.emit(instr{op: opPush})
		c.emit(instr{op: opPush, k: int64(c.str(name + "() called"))})
		c.emit(instr{op: opBuiltin, a: bVerifierAssert, k: 2, w: 1, pos: pos}) // w 1: the message is whole
		return true
	case bkAtomic:
		c.needArgs(x, name, as, spec.keep)
		w, s := c.atomicWidth(as[0])
		et := pointee(c.rtype(as[0]))
		if floatWidth(et) != 0 && spec.id != bAtomicStore {
			// the arithmetic is on integers, and the C11 ones' results are
			// typed long (mcrinclude/stdatomic.h): a double's bits would be
			// converted as a long's value
			c.unsupported(x, name+" on a floating-point object")
		}
		c.expr(as[0])
		for _, a := range as[1:spec.keep] {
			c.exprTo(a, et)
		}
		for _, a := range as[spec.keep:] {
			c.expr(a)
			c.emit(instr{op: opPop})
		}
		f := flagIf(s, fSigned) | flagIf(et.Kind() == cc.Ptr, fPtr)
		c.emit(instr{op: opBuiltin, a: spec.id, k: int64(spec.keep), w: w, flag: f, pos: pos})
		return true
	}
	c.needArgs(x, name, as, spec.keep)
	var params []*cc.Parameter
	if ft := calleeType(x.PostfixExpression.Type()); ft != nil {
		params = ft.Parameters()
	}
	for i, a := range as {
		// as the call of a function with the declared prototype: a double
		// passed to assume's int is truncated, not its bits tested. A
		// pointer passes whole: its encoding (object id above offset) has
		// no meaningful low 32 bits, and a pointer to offset 0 passed to
		// assume(int) must stay true.
		switch {
		case isAggregate(a.Type()) || isPtr(c.rtype(a)):
			c.expr(a)
		case i < len(params) && params[i].Type().Kind() != cc.Void:
			c.exprTo(a, params[i].Type())
		default:
			c.exprTo(a, argPromotion(c.ast, c.rtype(a)))
		}
		if i >= spec.keep {
			c.emit(instr{op: opPop})
		}
	}
	c.emit(instr{op: opBuiltin, a: spec.id, k: int64(spec.keep), pos: pos})
	return true
}

func (c *compiler) needArgs(x cc.Node, name string, as []cc.ExpressionNode, n int) {
	if len(as) < n {
		c.errorf(x, "%s needs %d arguments", name, n)
	}
}

// atomicWidth is the width of the object an atomic builtin's pointer argument points to.
func (c *compiler) atomicWidth(p cc.ExpressionNode) (uint8, bool) {
	et := pointee(c.rtype(p))
	if et == nil || et.Kind() == cc.Void {
		c.errorf(p, "atomic operation needs a pointer to an integer or pointer object, not %s", p.Type())
	}
	return c.scalar(p, et)
}

// cas compiles a C11 / GCC compare-exchange: compare *p with *expected; if
// equal, store desired; otherwise copy the current value to *expected. The
// result is whether the exchange happened.
func (c *compiler) cas(x cc.Node, p, expected, desired cc.ExpressionNode, rest []cc.ExpressionNode) {
	w, s := c.atomicWidth(p)
	et := pointee(c.rtype(p))
	pos := toPos(x)
	tp, te, told, texp := c.newTemp(), c.newTemp(), c.newTemp(), c.newTemp()
	c.expr(p)
	c.emit(instr{op: opSetLocal, a: int32(tp)})
	c.expr(expected)
	c.emit(instr{op: opSetLocal, a: int32(te)})
	c.emit(instr{op: opGetLocal, a: int32(tp)})
	c.emit(instr{op: opGetLocal, a: int32(te)})
	c.loadLV(x, lv{slot: -1, typ: et}, 0) // *expected
	c.emit(instr{op: opDup})
	c.emit(instr{op: opSetLocal, a: int32(texp)})
	c.exprTo(desired, et)
	for _, a := range rest {
		c.expr(a)
		c.emit(instr{op: opPop})
	}
	c.emit(instr{op: opBuiltin, a: bAtomicCAS, k: 3, w: w, flag: flagIf(s, fSigned) | flagIf(et.Kind() == cc.Ptr, fPtr), pos: pos})
	c.emit(instr{op: opSetLocal, a: int32(told)})
	c.emit(instr{op: opGetLocal, a: int32(told)})
	c.emit(instr{op: opGetLocal, a: int32(texp)})
	c.emit(instr{op: opEq})
	c.emit(instr{op: opDup})
	j := c.emit(instr{op: opJnz})
	c.emit(instr{op: opGetLocal, a: int32(te)})
	c.emit(instr{op: opGetLocal, a: int32(told)})
	c.emitStore(et, false, 0, x)
	c.patch(j)
}

// str interns a message string.
func (c *compiler) str(s string) int32 {
	c.p.strs = append(c.p.strs, s)
	return int32(len(c.p.strs) - 1)
}

// srcText renders an expression's source text for messages.
func srcText(n cc.Node) string {
	return cc.NodeSource(n)
}

// nondet compiles a call of __VERIFIER_nondet_X (or nondet_X, when the
// program does not define it): the thread's next input, of the call's
// result type (concolic.go). Pointer and floating-point inputs are not
// supported.
// callEnd is the position of a call's closing parenthesis (the call's own
// position if it has none): an input's place in a witness (sym.Var.Call).
func callEnd(x *cc.PostfixExpression) program.Pos {
	if x.Case == cc.PostfixExpressionCall && x.Token2.Position().Line > 0 {
		return toPos(x.Token2)
	}
	return toPos(x)
}

func (c *compiler) nondet(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) {
	t := x.Type()
	switch {
	case t.Kind() == cc.Bool:
	case cc.IsIntegerType(t) && (t.Size() == 1 || t.Size() == 2 || t.Size() == 4 || t.Size() == 8):
	default:
		// Floating-point inputs are refused only when an execution
		// reaches them (opNoModel: that execution ends bounded, the search
		// is incomplete and says why), since SV-COMP's tasks often define
		// helpers around them that the checked code never calls. A pointer
		// input has no complete cheap model: the terms are integers, and an
		// arbitrary pointer may alias any object or none. It is taken as
		// one of its values, a fresh object (contents indeterminate, as
		// malloc's), and the execution is Unmodelled (extern.go): no TRUE,
		// and what it finds happens when the pointer is that object.
		what := "input of type " + t.String()
		for _, a := range as {
			c.expr(a)
			c.emit(instr{op: opPop})
		}
		if t.Kind() == cc.Ptr {
			c.emit(instr{op: opNoModel, k: 1, a: c.str("call to " + name + ": the pointer input is taken as a fresh object of " + strconv.Itoa(extObjectSize) + " bytes; NULL and pointers to the program's objects are not explored"), pos: toPos(x)})
			c.emit(instr{op: opPush, k: extObjectSize})
			c.emit(instr{op: opBuiltin, a: bMalloc, k: 1, pos: toPos(x)})
			return
		}
		c.emit(instr{op: opNoModel, a: c.str("call to " + name + ": a nondeterministic " + what + " is not modelled (integer inputs are)"), pos: toPos(x)})
		c.emit(instr{op: opPush})
		return
	}
	for _, a := range as {
		c.expr(a)
		c.emit(instr{op: opPop})
	}
	c.p.hasInputs = true
	w, signed := uint8(t.Size()), cc.IsSignedInteger(t)
	f := flagIf(signed, fSigned)
	if t.Kind() == cc.Bool {
		f, signed = fUndef, false
	}
	c.emit(instr{op: opPush, k: int64(c.str(t.String()))})
	c.emit(instr{op: opBuiltin, a: bNondet, k: 1, w: w, flag: f, pos: callEnd(x)})
}
