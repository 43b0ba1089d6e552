/*
 * assume: the consumer only continues when it has seen x == 1
 * (__VERIFIER_assume); then y == 1 must hold, since y is written before x.
 * Without the assume the assertion would fail when x is read as 0.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

extern void __VERIFIER_assume(int cond);

atomic_int x, y;

void *producer(void *arg)
{
	(void)arg;
	atomic_store(&y, 1);
	atomic_store(&x, 1);
	return NULL;
}

void *consumer(void *arg)
{
	int r;

	(void)arg;
	r = atomic_load(&x);
	__VERIFIER_assume(r == 1);
	assert(atomic_load(&y) == 1);
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, producer, NULL);
	pthread_create(&b, NULL, consumer, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
