/*
 * cas_retry: THREADS threads each increment one atomic counter with a load
 * and a compare-exchange retried until it succeeds (a non-blocking counter:
 * the shape of SV-COMP's pthread-ext/02_inc_cas.c, written anew, with a
 * fixed number of threads where that task creates threads forever). A CAS
 * fails only when another thread's CAS won since the load, so every loop
 * ends. Every increment writes a new value, so reads-from and
 * reads-value-from classes coincide: rvf and mcr explore as many
 * executions as rf. Each thread asserts that the counter moved past its
 * own old value.
 *
 * Why it is here (session 15): mcr and rvf close every seed query's
 * instance, at a cost that grows with the number of threads, so their cost
 * per execution drifts away from rf's as THREADS grows (CPU ms per
 * execution, 25 s runs on a loaded machine, rf against mcr: 8 threads 0.14
 * and 0.19; 16: 0.64 and 1.2; 20: 1.0 and 2.5; 30: 2.3 and 14.8). The
 * sizes in cas_retry.json keep the counts exact for the differential tests.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef THREADS
#define THREADS 3
#endif

atomic_uint counter;

static void *bump(void *arg)
{
	unsigned seen;

	(void)arg;
	do {
		seen = atomic_load(&counter);
	} while (!atomic_compare_exchange_strong(&counter, &seen, seen + 1));
	assert(atomic_load(&counter) > seen);
	return 0;
}

int main(void)
{
	pthread_t th[THREADS];
	int i;

	for (i = 0; i < THREADS; i++)
		pthread_create(&th[i], 0, bump, 0);
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], 0);
	return 0;
}
