package randprog

import (
	"fmt"
	"strings"
)

// This file generates the uses of POSIX synchronisation objects that
// Options.Sync enables (issue 15): one reader-writer lock l, semaphore s
// or barrier b per program (one kind only, so that dfs, which the
// differential tests compare with, can enumerate the interleavings).
//
//   - l guards blocks of one or two simple operations, read-locked or
//     write-locked (pthread_rwlock_tryrdlock / _trywrlock now and then);
//     stores under a read lock race, as they should.
//   - s starts at 0, 1 or 2; threads post it, wait on it and try it, so
//     waits can block forever (a deadlock every explorer must find).
//   - b counts every thread that waits at it: each thread waits once at a
//     random point, main after creating them when it takes part; the
//     serial thread sometimes does one more operation.
//
// The objects never nest: an operation takes and releases its lock itself.

// syncObjects are the objects a program uses.
type syncObjects struct {
	rwlock, sem, barrier bool
	semInit              int
	mainWaits            bool // main waits at the barrier too
	parties              int  // the barrier's count
}

// chooseSync draws the objects of a program with nthreads threads.
func (g *gen) chooseSync(nthreads int) {
	s := &g.sync
	switch g.rng.IntN(3) {
	case 0:
		s.rwlock = true
	case 1:
		s.sem = true
	default:
		s.barrier = true
	}
	s.semInit = g.rng.IntN(3)
	s.mainWaits = g.rng.IntN(2) == 0 && s.barrier
	s.parties = nthreads
	if s.mainWaits {
		s.parties++
	}
}

// describe adds the objects to the program's header comment.
func (s *syncObjects) describe(out *strings.Builder) {
	if s.rwlock {
		out.WriteString(", a reader-writer lock")
	}
	if s.sem {
		fmt.Fprintf(out, ", a semaphore (%d)", s.semInit)
	}
	if s.barrier {
		fmt.Fprintf(out, ", a barrier (%d)", s.parties)
	}
}

// declare writes the objects' declarations.
func (s *syncObjects) declare(out *strings.Builder) {
	if s.rwlock {
		out.WriteString("pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;\n")
	}
	if s.sem {
		out.WriteString("sem_t s;\n")
	}
	if s.barrier {
		out.WriteString("pthread_barrier_t b;\n")
	}
}

// syncInit emits main's initialisation of the semaphore and the barrier.
func (g *gen) syncInit() {
	if g.sync.sem {
		g.line("sem_init(&s, 0, %d);", g.sync.semInit)
	}
	if g.sync.barrier {
		g.line("pthread_barrier_init(&b, NULL, %d);", g.sync.parties)
	}
}

// barrierWait emits a wait at the barrier.
func (g *gen) barrierWait() {
	if g.rng.IntN(3) != 0 {
		g.line("pthread_barrier_wait(&b);")
		return
	}
	g.line("if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD) {")
	g.nested()
	g.line("}")
}

// syncOp emits, one time in three, an operation on the reader-writer lock
// or the semaphore, and reports whether it did.
func (g *gen) syncOp() bool {
	s := &g.sync
	if !s.rwlock && !s.sem || g.rng.IntN(3) != 0 {
		return false
	}
	if s.rwlock && (!s.sem || g.rng.IntN(2) == 0) {
		g.rwlockBlock()
		return true
	}
	switch g.rng.IntN(4) {
	case 0, 1:
		g.line("sem_post(&s);")
	case 2:
		g.line("sem_wait(&s);")
	default:
		g.line("%s = sem_trywait(&s);", g.local())
	}
	return true
}

// rwlockBlock emits one or two simple operations under l, read-locked or
// write-locked, blocking or tried.
func (g *gen) rwlockBlock() {
	lock := "rdlock"
	if g.rng.IntN(2) == 0 {
		lock = "wrlock"
	}
	if g.rng.IntN(4) == 0 {
		g.line("if (pthread_rwlock_try%s(&l) == 0) {", lock)
		g.indent++
		defer func() {
			g.indent--
			g.line("}")
		}()
	} else {
		g.line("pthread_rwlock_%s(&l);", lock)
	}
	for range 1 + g.rng.IntN(2) {
		g.simple()
	}
	g.line("pthread_rwlock_unlock(&l);")
}
