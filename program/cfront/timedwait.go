package cfront

import (
	"modernc.org/cc/v4"

	"mcr/program"
)

// This file models the timed waits pthread_cond_timedwait and
// sem_timedwait, and the timed locks pthread_mutex_timedlock and
// pthread_rwlock_timedrdlock/_timedwrlock (POSIX.1-2017 XSH
// "pthread_cond_timedwait", "sem_timedwait", "pthread_mutex_timedlock",
// "pthread_rwlock_timedrdlock").
//
// Time is not modelled, so a timed wait may time out at any point of its
// wait: each call makes a nondeterministic choice between waiting like the
// untimed call and timing out, and the choice is an input of type _Bool
// (concolic.go), so that the input exploration takes both (every algorithm
// explores programs with inputs through it; where its search cannot cover
// both it says so, and an SV-COMP task run falls back to dfs):
//
//	pthread_cond_timedwait(c, m, t):  s = atomic load *c; unlock(m);
//	    if (timeout) { lock(m); return ETIMEDOUT }
//	    await(atomic load *c != s); lock(m); return 0
//	sem_timedwait(s, t):
//	    if (timeout) return sem_trywait(s)  (-1 if the value is 0)
//	    return sem_wait(s)
//	pthread_mutex_timedlock(m, t), pthread_rwlock_timed*lock(l, t):
//	    if (timeout) return the trylock, ETIMEDOUT for its EBUSY
//	    return the lock
//
// The timed-out condition wait still unlocks and re-locks the mutex ("the
// mutex shall have been locked and shall be owned by the calling thread"
// on return, whatever the result), and its relock may come after any
// steps of the other threads: every moment of the timeout is an
// interleaving of that run. A signal does not rule a timeout out (the two
// may race). A semaphore wait times out only if the semaphore could not be
// locked without waiting, so the timed-out branch is a sem_trywait: it
// takes a token it finds; so do the timed locks ("under no circumstance
// shall the function fail with a timeout if the mutex can be locked
// immediately"), whose timed-out branch is the trylock. A timeout needs
// the object busy when the call begins, which the trylock checks; what
// happens to it while the thread waits, nothing in the thread sees, so
// the trylock standing for the whole wait loses no behaviour. errno is not
// modelled (sem_timedwait returns -1 and leaves errno alone), nor is the
// time argument, beyond evaluating it; the clocks a program reads to
// compute it are inputs (clockRead).
//
// The choice is no effect for idle.go: a waiting loop whose iteration timed
// out and changed nothing (`while (!ready) pthread_cond_timedwait(...)`)
// is idle and stops its thread, as with spurious wake-ups; every run after
// it is a run without it, whose later choices are the same inputs shifted
// by one, and the input exploration takes every value of each.
//
// A thread stuck at the await of a timed wait's waiting branch, or waiting
// for the mutex of a timed lock's, is no deadlock: the wait would time
// out, which is the other branch's run (awaiting.timed, timedAcquire; Done
// makes such an execution blocked).

// etimedout is Linux's ETIMEDOUT (<asm-generic/errno.h>).
const etimedout = 110

// timedCall compiles a timed wait or lock; false if name is none.
func (c *compiler) timedCall(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) bool {
	switch name {
	case "pthread_cond_timedwait", "pthread_cond_clockwait":
		c.condTimedWait(x, name, as)
	case "sem_timedwait", "sem_clockwait":
		c.semTimedWait(x, name, as)
	case "pthread_mutex_timedlock", "pthread_mutex_clocklock":
		c.mutexTimedLock(x, name, as)
	case "pthread_rwlock_timedrdlock", "pthread_rwlock_timedwrlock":
		c.rwTimed(x, name, as)
	case "clock_gettime":
		c.clockRead(x, name, as, "tv_nsec", 1_000_000_000)
	case "gettimeofday":
		c.clockRead(x, name, as, "tv_usec", 1_000_000)
	default:
		return false
	}
	return true
}

// timed emits a timed operation's choice, an input of type _Bool, true
// when the operation times out, and its two branches: wait, whose awaits
// are marked as a timed wait's, and timeout.
func (c *compiler) timed(x *cc.PostfixExpression, name string, wait, timeout func()) {
	c.p.hasInputs = true
	c.push(int64(c.str("timeout of " + name)))
	// no position: the input is no nondet call's result, so it must not be
	// placed in an SV-COMP witness as one (the call did not return 1)
	c.emit(instr{op: opBuiltin, a: bNondet, k: 1, w: 1, flag: fUndef})
	jt := c.emit(instr{op: opJnz, pos: toPos(x)})
	from := c.pc()
	wait()
	for i := from; i < c.pc(); i++ {
		if in := &c.p.code[i]; in.op == opBuiltin && awaitKinds[in.a].pass != nil {
			in.flag |= fTimed
		}
	}
	done := c.emit(instr{op: opJmp})
	c.patch(jt)
	timeout()
	c.patch(done)
}

// condTimedWait compiles pthread_cond_timedwait(as[0], as[1], as[2]) and
// pthread_cond_clockwait (c, m, clock, t).
func (c *compiler) condTimedWait(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) {
	c.needArgs(x, name, as, 3)
	pos := toPos(x)
	cv, mu, seq := c.newTemp(), c.newTemp(), c.newTemp()
	c.expr(as[0])
	c.set(cv)
	c.expr(as[1])
	c.set(mu)
	for _, a := range as[2:] {
		c.expr(a)
		c.emit(instr{op: opPop})
	}
	if !c.spurious {
		c.get(cv)
		c.emit(instr{op: opBuiltin, a: bAtomicLoad, k: 1, w: 4, pos: pos})
		c.set(seq)
	}
	c.get(mu)
	c.emit(instr{op: opBuiltin, a: bUnlock, k: 1, pos: pos})
	c.emit(instr{op: opPop})
	relock := func() {
		c.get(mu)
		c.emit(instr{op: opBuiltin, a: bLock, k: 1, pos: pos})
	}
	c.timed(x, name, func() {
		if !c.spurious {
			c.get(cv)
			c.get(seq)
			c.emit(instr{op: opBuiltin, a: bCondAwait, k: 2, w: 4, pos: pos})
			c.emit(instr{op: opPop})
		}
		relock() // not timed: the mutex is held again on return, however long that takes
	}, func() {
		relock()
		c.emit(instr{op: opPop})
		c.push(etimedout)
	})
}

// semTimedWait compiles sem_timedwait(as[0], as[1]) and sem_clockwait
// (s, clock, t).
func (c *compiler) semTimedWait(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) {
	s := c.syncObj(x, name, as, 1)
	pos := toPos(x)
	c.timed(x, name, func() {
		c.casLoop(s, bSemAwait, nil, -1, 0, pos)
	}, func() {
		c.casLoop(s, 0, func() { c.emit(instr{op: opLNot}) }, -1, -1, pos)
	})
}

// mutexTimedLock compiles pthread_mutex_timedlock(as[0], as[1]) and
// pthread_mutex_clocklock (m, clock, t).
func (c *compiler) mutexTimedLock(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) {
	m := c.syncObj(x, name, as, 1)
	pos := toPos(x)
	c.timed(x, name, func() {
		c.get(m)
		c.emit(instr{op: opBuiltin, a: bLock, k: 1, flag: fTimed, pos: pos}) // timedAcquire
	}, func() {
		c.get(m)
		c.emit(instr{op: opBuiltin, a: bTryLock, k: 1, pos: pos})
		// EBUSY becomes ETIMEDOUT
		c.emit(instr{op: opDup})
		c.push(ebusy)
		c.emit(instr{op: opEq})
		other := c.emit(instr{op: opJz})
		c.emit(instr{op: opPop})
		c.push(etimedout)
		c.patch(other)
	})
}

// rwTimed compiles pthread_rwlock_timedrdlock and _timedwrlock (l, t).
func (c *compiler) rwTimed(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) {
	l := c.syncObj(x, name, as, 1)
	pos := toPos(x)
	if name == "pthread_rwlock_timedwrlock" {
		c.timed(x, name, func() { c.rwWrite(l, false, 0, pos) }, func() { c.rwWrite(l, true, etimedout, pos) })
		return
	}
	c.timed(x, name, func() { c.casLoop(l, bRdAwait, nil, 1, 0, pos) }, func() { c.rwTryRead(l, etimedout, pos) })
}

// timedAcquire reports whether th waits at a timed lock's blocking
// acquire (mutexTimedLock), which would time out instead of waiting
// forever.
func (x *execution) timedAcquire(th *thread) bool {
	in := x.code(th)
	return th.pend.Kind == program.Acquire && in.op == opBuiltin && in.a == bLock && in.flag&fTimed != 0
}

// clockRead compiles clock_gettime(clock, ts) and gettimeofday(tv, tz),
// which programs call to compute a timed wait's deadline: the time read
// is an input, as any value a clock may show, so that a deadline that only
// goes to a timed wait (whose time argument is not modelled) leaves the
// search complete, and a program that branches on the time has both
// branches explored. Each field is an input of its type, the seconds
// assumed >= 0 and the fraction in [0, limit) (POSIX: tv_nsec below one
// billion, tv_usec below one million). The result is 0.
func (c *compiler) clockRead(x *cc.PostfixExpression, name string, as []cc.ExpressionNode, frac string, limit int64) {
	c.needArgs(x, name, as, 2)
	pos := toPos(x)
	ts := 1
	if name == "gettimeofday" {
		ts = 0
	}
	st, _ := pointee(c.rtype(as[ts])).(*cc.StructType)
	sec, fr := structField(st, "tv_sec"), structField(st, frac)
	if sec == nil || fr == nil {
		c.unsupported(x, "call to "+name+" whose time argument is not a struct with tv_sec and "+frac)
	}
	p := c.newTemp()
	for i, a := range as {
		c.expr(a)
		if i == ts {
			c.set(p)
		} else {
			c.emit(instr{op: opPop})
		}
	}
	c.p.hasInputs = true
	for _, f := range []*cc.Field{sec, fr} {
		w, s := c.scalar(x, f.Type())
		c.get(p)
		c.push(f.Offset())
		c.emit(instr{op: opPtrAdd, k: 1, pos: pos})
		c.push(int64(c.str(f.Name() + " from " + name + "()")))
		// no position, as timed's choice: the call returns 0, not the input
		c.emit(instr{op: opBuiltin, a: bNondet, k: 1, w: w, flag: flagIf(s, fSigned)})
		c.emit(instr{op: opDup})
		c.push(0)
		c.emit(instr{op: opGe, flag: fSigned})
		c.emit(instr{op: opBuiltin, a: bAssume, k: 1, pos: pos})
		c.emit(instr{op: opPop})
		if f == fr {
			c.emit(instr{op: opDup})
			c.push(limit)
			c.emit(instr{op: opLt, flag: fSigned})
			c.emit(instr{op: opBuiltin, a: bAssume, k: 1, pos: pos})
			c.emit(instr{op: opPop})
		}
		c.emit(instr{op: opStore, w: w, flag: flagIf(s, fSigned), pos: pos})
	}
	c.push(0)
}

// structField is st's field named name, nil if there is none (or no st).
func structField(st *cc.StructType, name string) *cc.Field {
	if st == nil {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.FieldByIndex(i); f.Name() == name {
			return f
		}
	}
	return nil
}
