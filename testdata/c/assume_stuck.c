/*
 * assume_stuck: the thread's first branch stores x and gets stuck at
 * __VERIFIER_assume(0); its other branch, taken when main's store of g
 * came first, fails an assertion. Issue 12's reproducer p4: the default
 * mcr and rvf used to stop where the thread got stuck, before main's store
 * of g had run, and so never tried the other branch.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

extern void __VERIFIER_assume(int cond);

atomic_int x, g;

void *worker(void *arg)
{
	(void)arg;
	if (atomic_load(&g) == 0) {
		atomic_store(&x, 1);
		__VERIFIER_assume(0);
	}
	assert(0);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	atomic_load(&x);
	atomic_store(&g, 1);
	return 0;
}
