/*
 * div_by_zero: divisor starts at 5; one thread stores 0 to it, the other
 * divides 100 by the value it loads: a division by zero in the interleavings
 * where the store comes first. Atomics only, so no race.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

atomic_int divisor;
atomic_int quotient;

void *zero(void *arg)
{
	(void)arg;
	atomic_store(&divisor, 0);
	return NULL;
}

void *divide(void *arg)
{
	int d;

	(void)arg;
	d = atomic_load(&divisor);
	atomic_store(&quotient, 100 / d);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	atomic_init(&divisor, 5);
	pthread_create(&t1, NULL, zero, NULL);
	pthread_create(&t2, NULL, divide, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}
