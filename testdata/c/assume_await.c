/*
 * assume_await: main waits, by an assumption, for the other thread's
 * store, then fails an assertion. The first execution runs main first:
 * its assumption fails before the store has run. Issue 12's reproducer b1:
 * rf used to stop there and report a complete search with no finding; the
 * stuck main must leave the other thread running, so that its store
 * becomes a source of the alternative in which the assumption passes.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

extern void __VERIFIER_assume(int cond);

atomic_int x;

void *setter(void *arg)
{
	(void)arg;
	atomic_store(&x, 1);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, setter, NULL);
	__VERIFIER_assume(atomic_load(&x) == 1);
	assert(0);
	return 0;
}
