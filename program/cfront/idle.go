package cfront

import (
	"fmt"
	"slices"

	"mcr/program"
	"mcr/program/sym"
)

// This file stops a thread at a loop iteration that changed nothing
// (issue 15, spinning programs): the dynamic counterpart of the spin loops
// that spin.go compiles as awaits. A loop like
//
//	while (f) { t = turn; if (t != 0) { ... } }
//
// has a body that does things, so spin.go leaves it alone; but while turn
// stays 0 each iteration only reads turn and comes back to the loop head in
// the state it left it. Such an iteration is *idle*: it emitted only reads
// (plain reads, failed CAS reads, fences), stored nothing into the thread's
// private memory, allocated and freed nothing, called no builtin with an
// effect, and the thread's local state (registers, operand stack, frames,
// indeterminacy and input shadows) is the same at both ends.
//
// An idle iteration is a no-op for every thread: the other threads cannot
// see reads, and the thread is where it was. So every run that goes on
// after it is also a run in which the iteration never happened and the
// thread simply came to the loop head later. The explorers reach that run
// from the one where the thread stops after its idle iteration, because its
// reads are in the trace and take every write that comes later as a source,
// exactly as for a failed __VERIFIER_assume (issue 12) or a spin-loop await:
// the thread is stuck and the execution is Blocked, not a finding. The runs
// that spin k times for every k, up to the event bound (which made the
// search incomplete), are gone, and a loop that can never exit (no thread
// will change what it reads) ends its thread instead of the execution.
//
// Detection is per backward jump (a loop's back edge, or a goto): the first
// time an iteration between two visits of the same back edge was free of
// effects the state is copied; the next idle iteration whose end state
// equals the copy stops the thread. Options.NoSpinAwait (--no-spin-await)
// turns this off with the static awaits.

// An iteration may also take and release locks, if it holds the same locks
// at both ends (thread.lockSig): a critical section that writes nothing is
// no effect either. Without it, the iteration's section only kept other
// threads out of theirs, so every run past it is also one without it (the
// other threads' acquires then follow the release before it), and the
// thread may as well have reached the loop head later. This covers the
// waiting loop `while (!ready) pthread_cond_wait(&c, &m);` with spurious
// wake-ups (an unlock and a lock, condvar.go), which otherwise spins, and
// spin loops that read their flag under a mutex.

// lockHash mixes a lock's address into the summand of thread.lockSig (a
// multiset hash: equal sums for equal multisets of held locks, up to
// collisions of 64-bit mixes).
func lockHash(l program.Loc) uint64 {
	h := uint64(l) * 0x9e3779b97f4a7c15
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>29
}

// loopMark is what a thread remembers about one back edge it took.
type loopMark struct {
	pc      int32  // the jump instruction
	effects uint64 // thread.effects when it was last taken
	lockSig uint64 // thread.lockSig then
	snap    bool   // the state below was copied at the last visit
	stack   []int64
	slots   []int64
	undef   []bool
	frames  []frame
	sstack  []*sym.Term
	sslots  []*sym.Term
}

// maxLoopMarks bounds the back edges a thread remembers (the innermost
// loops it runs; an outer loop evicted by inner ones is only detected
// less often).
const maxLoopMarks = 8

// idleBuiltins are the builtins with no effect on the caller's state but
// their result (their reads, if any, are events).
var idleBuiltins = [numBuiltins]bool{bAssume: true, bVerifierAssert: true, bSelf: true, bAtomicLoad: true,
	// locks: their events keep thread.lockSig, which an idle iteration must keep
	bLock: true, bUnlock: true, bTryLock: true, bAtomicBegin: true, bAtomicEnd: true,
	bGetSpecific: true, bFence: true, bNop: true,
	// an input (a nondet call, a timeout's or a failing lock's choice) is
	// no effect either: the thread's next input is read, and if the
	// iteration kept nothing of its value the state is the one before.
	// Every run past it is a run without it, whose later inputs are the
	// same ones shifted by one; the input exploration takes every value
	// of each, so the runs in which the iteration's inputs lead out of
	// the loop are explored from the first iteration on.
	bNondet: true}

// backEdge is called when th takes the backward jump at pc. It reports
// whether the iteration that ended there was idle and left the state as
// the previous one did, in which case th is now stuck (see the file
// comment).
func (x *execution) backEdge(th *thread, pc int32) bool {
	if x.p.noIdleStop {
		return false
	}
	i := slices.IndexFunc(th.loops, func(m loopMark) bool { return m.pc == pc })
	if i < 0 {
		if len(th.loops) == maxLoopMarks {
			th.loops = th.loops[1:]
		}
		th.loops = append(th.loops, loopMark{pc: pc, effects: th.effects, lockSig: th.lockSig})
		return false
	}
	m := &th.loops[i]
	if m.effects != th.effects || m.lockSig != th.lockSig {
		m.effects, m.lockSig, m.snap = th.effects, th.lockSig, false
		return false
	}
	if m.snap && m.same(th) {
		th.stuck = true
		if x.blocked == nil {
			pos := x.loopPos(pc)
			x.blocked = &program.Outcome{Kind: program.Blocked, Thread: th.id, Pos: pos,
				Message: fmt.Sprintf("thread T%s loops at line %d without effect (an iteration read only and changed nothing)", th.name, pos.Line)}
		}
		return true
	}
	m.copy(th)
	return false
}

// loopPos is the source position of the loop whose back edge is at pc:
// the first position from the jump's target on (jumps carry none).
func (x *execution) loopPos(pc int32) program.Pos {
	for i := x.p.code[pc].a; i <= pc; i++ {
		if p := x.p.code[i].pos; p.Line != 0 {
			return p
		}
	}
	return x.p.code[pc].pos
}

// copy records th's local state in m.
func (m *loopMark) copy(th *thread) {
	m.snap = true
	m.stack = append(m.stack[:0], th.stack...)
	m.slots = append(m.slots[:0], th.slots...)
	m.undef = append(m.undef[:0], th.undef...)
	m.frames = append(m.frames[:0], th.frames...)
	m.sstack = append(m.sstack[:0], th.sstack...)
	m.sslots = append(m.sslots[:0], th.sslots...)
}

// same reports whether th's local state equals the one m recorded.
func (m *loopMark) same(th *thread) bool {
	return !th.copyUndef && slices.Equal(m.stack, th.stack) && slices.Equal(m.slots, th.slots) &&
		slices.Equal(m.undef, th.undef) && slices.Equal(m.frames, th.frames) &&
		slices.Equal(m.sstack, th.sstack) && slices.Equal(m.sslots, th.sslots)
}
