package cfront

import (
	"fmt"

	"mcr/program"
)

// This file implements the awaits, the one blocking operation the
// synchronisation models are built from besides mutexes (condvar.go,
// barrier.go, rwlock.go, semaphore.go). An await is an atomic read of a
// 4-byte word with a condition on the value read. If the condition holds
// the thread goes on; if not, the thread stops there (stuck, like a failed
// __VERIFIER_assume, issue 12) and the others run on.
//
// At the end of the execution a thread stuck at an await whose condition
// still fails on the word's final value waits forever: the await could have
// read that final value last, so with nothing else to run that is a real
// deadlock. If the condition holds on the final value, a write after the
// await's read would have let the thread through: the execution is blocked
// (not maximal, not a finding), and the explorers find the order in which
// the await reads that write, because the read and the write are both in
// the trace.

// awaitKind is one await builtin: when it lets its thread through, and what
// a thread stuck there waits for (for deadlock messages).
type awaitKind struct {
	pass func(v, arg int64) bool
	what string
}

// awaitKinds maps each await builtin to its kind.
var awaitKinds = map[int32]awaitKind{
	bCondAwait:    {func(v, seen int64) bool { return v != seen }, "waits on a condition variable at line %d (no signal came after its wait)"},
	bBarrierAwait: {func(v, gen int64) bool { return barrierGeneration(v) != gen }, "waits at a barrier at line %d (too few threads arrived)"},
	bRdAwait:      {func(v, _ int64) bool { return v >= 0 }, "waits to read-lock a reader-writer lock at line %d (a writer holds it)"},
	bWrAwait:      {func(v, _ int64) bool { return v == 0 }, "waits to write-lock a reader-writer lock at line %d (it stays held)"},
	bSemAwait:     {func(v, _ int64) bool { return v != 0 }, "waits on a semaphore at line %d (its value stays 0)"},
	bOnceAwait:    {func(v, _ int64) bool { return v == onceDone }, "waits at pthread_once at line %d (the routine never returns)"},
}

// awaiting is where a thread stuck at an await waits: the word, its
// signedness, the await's argument and its kind.
type awaiting struct {
	o      *object
	off    int
	signed bool
	arg    int64
	kind   int32
	pos    program.Pos
	timed  bool // a timed wait's: it would time out instead of waiting forever (timedwait.go)
}

// woken reports whether the await's condition holds on the word now.
func (a *awaiting) woken() bool {
	return awaitKinds[a.kind].pass(load(a.o.data[a.off:], 4, a.signed), a.arg)
}

// fireAwait executes th's pending await at args[0] (argument args[1]): the
// read; if the condition fails on the value read, th stops there. The
// value read is the result.
func (x *execution) fireAwait(th *thread, in *instr, args []int64, push func(int64)) {
	o, off := x.resolve(th, args[0], 4)
	if o == nil {
		return
	}
	signed := in.flag&fSigned != 0
	if x.sym != nil {
		x.touch(th, o, off, 4, th.pend.Pos, "wait on a symbolic value")
	}
	x.readObj(o, off, 4, th.pend.Pos)
	v := load(o.data[off:], 4, signed)
	// the executor runs an await with the buffers drained (drains): the
	// flag tells the deciders (program.Drains)
	x.emit(th, program.Read, program.Atomic|program.Drain, th.pend.Loc, v, th.pend.Pos)
	arg := conv(args[1], 4, signed)
	if !awaitKinds[in.a].pass(v, arg) {
		th.stuck = true
		th.await = &awaiting{o: o, off: off, signed: signed, arg: arg, kind: in.a, pos: th.pend.Pos, timed: in.flag&fTimed != 0}
	}
	push(v)
}

// awaitMessage describes a thread stuck at an await for a deadlock.
func (x *execution) awaitMessage(th *thread) string {
	return fmt.Sprintf(" T%s "+awaitKinds[th.await.kind].what+";", th.name, th.await.pos.Line)
}
