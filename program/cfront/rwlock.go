package cfront

import (
	"modernc.org/cc/v4"

	"mcr/program"
)

// This file models POSIX reader-writer locks (pthread_rwlock_*, POSIX.1-2017
// XSH "pthread_rwlock_rdlock", "pthread_rwlock_wrlock",
// "pthread_rwlock_unlock") with atomic accesses of one signed word, the
// lock's state, in the first four bytes of the pthread_rwlock_t (all zero
// for PTHREAD_RWLOCK_INITIALIZER): 0 free, n > 0 held by n readers, -1 held
// by a writer. Every operation is linearisable at one atomic event, the
// way lock-free implementations (glibc's included) work:
//
//	rdlock:    do { v = await(state >= 0) } while (!CAS(state, v, v+1))
//	wrlock:    do { await(state == 0) } while (!CAS(state, 0, -1))
//	tryrdlock: do { v = load(state); if (v < 0) return EBUSY } while (!CAS(state, v, v+1))
//	trywrlock: CAS(state, 0, -1) ? 0 : EBUSY
//	unlock:    if this thread holds it for writing: store(state, 0)
//	           else old = fetch_sub(state, 1), an error if old <= 0
//
// Readers share: two readers' critical sections can overlap, so a reader
// that writes shared data races with another reader. A writer excludes
// readers and writers: its CAS from 0 and the unlock's store are atomic
// writes that the other side's await or CAS reads, which orders the
// critical sections. A try-lock fails only when the lock is held as it
// asks (no spurious EBUSY), and a waiting writer does not keep new readers
// out: POSIX leaves writer preference to the implementation (and to the
// Thread Execution Scheduling option), so every order is a POSIX order,
// including a writer that readers starve (which ends blocked or bounded,
// never as a finding).
//
// Whether the unlocking thread is the writer is the thread's own local
// knowledge (bRwWriter), not a read of the state: a reader's unlock is one
// read-modify-write, as in the lock, and a writer's is one write.

// rwlockCall compiles a pthread_rwlock_ call; false if name is none.
func (c *compiler) rwlockCall(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) bool {
	pos := toPos(x)
	switch name {
	case "pthread_rwlock_init":
		l := c.syncObj(x, name, as, 1)
		c.word(l, 0)
		c.push(0)
		c.syncOp(bAtomicStore, 2, pos)
	case "pthread_rwlock_rdlock":
		c.casLoop(c.syncObj(x, name, as, 1), bRdAwait, nil, 1, 0, pos)
	case "pthread_rwlock_tryrdlock":
		c.rwTryRead(c.syncObj(x, name, as, 1), ebusy, pos)
	case "pthread_rwlock_wrlock", "pthread_rwlock_trywrlock":
		try := name == "pthread_rwlock_trywrlock"
		c.rwWrite(c.syncObj(x, name, as, 1), try, ebusy, pos)
	case "pthread_rwlock_unlock":
		c.rwUnlock(c.syncObj(x, name, as, 1), pos)
	default:
		return false
	}
	return true
}

// rwTryRead compiles a read lock attempt on the lock temporary l points
// to: busy (EBUSY, or ETIMEDOUT for a timed lock's timeout) if a writer
// holds it.
func (c *compiler) rwTryRead(l int, busy int64, pos program.Pos) {
	negative := func() {
		c.push(0)
		c.emit(instr{op: opLt, flag: fSigned})
	}
	c.casLoop(l, 0, negative, 1, busy, pos)
}

// rwWrite compiles a write lock of the lock temporary l points to:
// blocking, do { await(state == 0) } while (!CAS(state, 0, -1)); trying,
// one CAS, failing with busy (EBUSY, or ETIMEDOUT for a timed lock's
// timeout). On success the thread notes that it is the writer.
func (c *compiler) rwWrite(l int, try bool, failure int64, pos program.Pos) {
	loop := c.pc()
	if !try {
		c.word(l, 0)
		c.push(0)
		c.syncOp(bWrAwait, 2, pos)
		c.emit(instr{op: opPop})
	}
	c.word(l, 0)
	c.push(0)
	c.push(-1)
	c.syncOp(bAtomicCAS, 3, pos)
	busy := int32(-1)
	if try {
		busy = c.emit(instr{op: opJnz})
	} else {
		c.jumpTo(opJnz, loop)
	}
	c.noteWriter(l, 1)
	c.emit(instr{op: opPop})
	c.push(0)
	if busy >= 0 {
		done := c.emit(instr{op: opJmp})
		c.patch(busy)
		c.push(failure)
		c.patch(done)
	}
}

// rwUnlock compiles an unlock of the lock temporary l points to: the
// writer stores 0, a reader decrements the count; a count that was not
// positive means that no thread held the lock.
func (c *compiler) rwUnlock(l int, pos program.Pos) {
	c.noteWriter(l, 0)
	reader := c.emit(instr{op: opJz})
	c.word(l, 0)
	c.push(0)
	c.syncOp(bAtomicStore, 2, pos)
	done := c.emit(instr{op: opJmp})
	c.patch(reader)
	c.word(l, 0)
	c.push(1)
	c.syncOp(bFetchSub, 2, pos)
	c.push(0)
	c.emit(instr{op: opGt, flag: fSigned})
	held := c.emit(instr{op: opJnz})
	c.emit(instr{op: opTrap, a: c.str("pthread_rwlock_unlock of a reader-writer lock that no thread holds"), pos: pos})
	c.patch(held)
	c.push(0)
	c.patch(done)
}

// noteWriter emits bRwWriter on the lock in temporary l: set 1 notes that
// the thread write-holds it (result 1), set 0 forgets it and pushes
// whether it did.
func (c *compiler) noteWriter(l int, set int64) {
	c.get(l)
	c.push(set)
	c.emit(instr{op: opBuiltin, a: bRwWriter, k: 2})
}

// noteWriter runs bRwWriter for th on lock p (rwlock.go).
func (th *thread) noteWriter(p int64, set bool) int64 {
	if set {
		th.wrlocks = append(th.wrlocks, p)
		return 1
	}
	for i, q := range th.wrlocks {
		if q == p {
			th.wrlocks = append(th.wrlocks[:i], th.wrlocks[i+1:]...)
			return 1
		}
	}
	return 0
}
