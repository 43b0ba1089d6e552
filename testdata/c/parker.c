/*
 * parker: the LockSupport.park/unpark race of the HotSpot JVM (Sun bug
 * 6822370), in the shape of Nidhugg's benchmarks/from_DCDPOR/parker.c
 * (written anew here). A parker thread parks up to N times until a global
 * condition holds; main is the unparker: it unparks, sets the condition,
 * and unparks again. The internal mutex is a two-flag lock whose waits are
 * assumptions, the condition-variable wait is an assumption too, and its
 * assertion says a parker never waits after the unparker has finished
 * unless a signal is pending. Fences are atomic_thread_fence (no effect on
 * the reads-from classes under SC).
 *
 * Nidhugg's published counts for the shape: N=1 13 reads-from classes,
 * N=2 53 (issue 12). Most executions are cut by a failed assumption.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 1
#endif

extern void __VERIFIER_assume(int cond);

atomic_int cond_ready;     /* the condition the parker waits for */
atomic_int unparker_done;  /* the unparker has finished */
atomic_int flag_park;      /* the parker's half of the two-flag lock */
atomic_int flag_unpark;    /* the unparker's half */
atomic_int permits;        /* the parker's counter */
atomic_int cv_waiting;     /* 1 while the parker waits on its condition */

static void fence(void) { atomic_thread_fence(memory_order_seq_cst); }

/* The two-flag lock: side 1 is the parker, side 0 the unparker. */
static void acquire(int side)
{
	if (side) {
		atomic_store(&flag_park, 1);
		fence();
		__VERIFIER_assume(atomic_load(&flag_unpark) == 0);
	} else {
		atomic_store(&flag_unpark, 1);
		fence();
		__VERIFIER_assume(atomic_load(&flag_park) == 0);
	}
}

static void release(int side)
{
	fence();
	if (side)
		atomic_store(&flag_park, 0);
	else
		atomic_store(&flag_unpark, 0);
}

/* 0 when the lock was taken, 1 when the other side held it. */
static int try_acquire(int side)
{
	atomic_int *mine = side ? &flag_park : &flag_unpark;
	atomic_int *theirs = side ? &flag_unpark : &flag_park;

	atomic_store(mine, 1);
	fence();
	if (atomic_load(theirs) == 0)
		return 0;
	atomic_store(mine, 0);
	return 1;
}

static void cv_wait(int side)
{
	atomic_store(&cv_waiting, 1);
	release(side);
	assert(!atomic_load(&unparker_done) || atomic_load(&cv_waiting) == 0);
	__VERIFIER_assume(atomic_load(&cv_waiting) == 0); /* wait for a signal */
	acquire(side);
}

static void unpark(void)
{
	int s;

	acquire(0);
	s = atomic_load(&permits);
	atomic_store(&permits, 1);
	release(0);
	if (s < 1)
		atomic_store(&cv_waiting, 0); /* signal */
}

static void park(void)
{
	if (atomic_load(&permits) > 0) {
		atomic_store(&permits, 0);
		return;
	}
	if (try_acquire(1) != 0)
		return;
	if (atomic_load(&permits) > 0) {
		atomic_store(&permits, 0);
		release(1);
		return;
	}
	cv_wait(1);
	atomic_store(&permits, 0);
	release(1);
}

static void *parker(void *arg)
{
	(void)arg;
	for (int i = 0; !atomic_load(&cond_ready); i++) {
		__VERIFIER_assume(i < N);
		park();
	}
	return NULL;
}

int main(void)
{
	pthread_t t;

	atomic_store(&permits, 0);
	atomic_store(&cv_waiting, 0);
	pthread_create(&t, NULL, parker, NULL);
	unpark();
	atomic_store(&cond_ready, 1);
	fence();
	unpark();
	fence();
	atomic_store(&unparker_done, 1);
	return 0;
}
