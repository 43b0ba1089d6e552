/* randprog SyncOptions seed 244 with its reader-writer lock calls removed: plain atomics only.
   mcr-seeds once reached 125 of its 127 outcomes: a seed that cannot keep its node's read-value map
   (a fixed read can only come after the flipped read) was relaxed to a child without any of the map, and
   four nodes delegated the two missed executions to each other around a circle (see relaxedKids in
   mcr/seedsolve.go). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

atomic_int g0;
atomic_int st;

void *thread0(void *arg)
{
	int r0 = 0;

	(void)arg;
	r0 = atomic_load(&g0);
	if (r0 > 3) {
		atomic_store(&g0, atomic_load(&g0) + 2);
	}
	atomic_store(&g0, atomic_load(&g0) + 2);
	(void)r0;
	return NULL;
}

void *thread1(void *arg)
{
	(void)arg;
	atomic_store(&g0, 0);
	atomic_store(&g0, atomic_load(&g0) + 2);
	atomic_store(&g0, atomic_load(&g0) + 2);
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	int r0 = 0;
	int r1 = 0;

	atomic_init(&g0, 3);
	pthread_create(&t[0], NULL, thread0, NULL);
	atomic_store(&g0, 2);
	pthread_create(&t[1], NULL, thread1, NULL);
	r0 = 0;
	r1 = atomic_compare_exchange_strong(&g0, &r0, 2);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	assert(atomic_load(&g0) > 1);
	(void)r0;
	(void)r1;
	return 0;
}
