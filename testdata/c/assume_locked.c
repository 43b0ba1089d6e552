/*
 * assume_locked: a thread waits, by an assumption, for x == 1 while
 * holding the mutex the writer of x needs. When it takes the mutex first
 * it is stuck and the writer waits forever (a blocked execution, not a
 * deadlock); when the writer comes first the assumption passes and the
 * assertion fails. Only a thread waiting for a lock shows the alternative:
 * the writer's store never ran in the first execution (the blocking-lock
 * rule, seed 002 Section 7).
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

extern void __VERIFIER_assume(int cond);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	__VERIFIER_assume(x == 1);
	pthread_mutex_unlock(&m);
	assert(0);
	return NULL;
}

void *writer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	x = 1;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, waiter, NULL);
	pthread_create(&b, NULL, writer, NULL);
	return 0;
}
