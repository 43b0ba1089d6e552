/*
 * lamport: Lamport's fast mutual exclusion algorithm (algorithm 2 of
 * "A Fast Mutual Exclusion Algorithm", ACM TOCS 1987) for N threads, with
 * every busy wait written as an assumption, as model checkers with a
 * spin-assume transformation see it. The shape of Nidhugg's
 * benchmarks/from_OBSERVERS/lamport.c (written anew here): each thread
 * enters, writes and checks a shared "who is inside" variable, and leaves;
 * main creates the threads and does not join them.
 *
 * An execution in which a waiting thread reads the wrong value is cut by
 * the failed assumption: that thread is stuck, the others run on
 * (issue 12: those executions must still be explored from).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#ifndef N
#define N 2
#endif

extern void __VERIFIER_assume(int cond);

atomic_long trying[N + 1]; /* Lamport's b[i] */
atomic_long gate;          /* Lamport's x */
atomic_long holder;        /* Lamport's y: 0 when free */
atomic_long inside;

static void enter(long me)
{
	for (;;) {
		atomic_store(&trying[me], 1);
		atomic_store(&gate, me);
		if (atomic_load(&holder) != 0) {
			atomic_store(&trying[me], 0);
			__VERIFIER_assume(atomic_load(&holder) == 0); /* await y == 0 */
			continue;
		}
		atomic_store(&holder, me);
		if (atomic_load(&gate) == me)
			return; /* the fast path */
		atomic_store(&trying[me], 0);
		for (long j = 1; j <= N; j++)
			__VERIFIER_assume(atomic_load(&trying[j]) == 0); /* await !b[j] */
		if (atomic_load(&holder) == me)
			return;
		__VERIFIER_assume(atomic_load(&holder) == 0);
	}
}

static void leave(long me)
{
	atomic_store(&holder, 0);
	atomic_store(&trying[me], 0);
}

static void *worker(void *arg)
{
	long me = (long)(intptr_t)arg;

	enter(me);
	atomic_store(&inside, me);
	assert(atomic_load(&inside) == me); /* mutual exclusion */
	leave(me);
	return NULL;
}

int main(void)
{
	pthread_t t[N + 1];

	for (long i = 1; i <= N; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
	return 0;
}
