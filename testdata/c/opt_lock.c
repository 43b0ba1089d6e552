/*
 * opt_lock: an optimistic lock attempted at most N times by two threads with
 * ids 0 and 1; each round stores its id to x and 1 to y, then succeeds (loads
 * y and stops) if x still holds its id. No initialising writes, no joins.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifndef N
#define N 2
#endif

atomic_int x, y;

void *thread(void *arg)
{
	int id = (int)(intptr_t)arg;
	int i;

	for (i = 0; i < N; i++) {
		atomic_store(&x, id);
		atomic_store(&y, 1);
		if (atomic_load(&x) == id) {
			int v = atomic_load(&y);

			(void)v;
			break;
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t t0, t1;

	pthread_create(&t0, NULL, thread, (void *)(intptr_t)0);
	pthread_create(&t1, NULL, thread, (void *)(intptr_t)1);
	return 0;
}
