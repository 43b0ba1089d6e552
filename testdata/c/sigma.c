/*
 * sigma: main increments a shared index N times, creating after each
 * increment a thread that stores 1 to array[index] (reading index again).
 * Main initialises index = -1 and joins all threads.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 2
#endif

atomic_int array[N];
atomic_int idx;

void *thread(void *arg)
{
	(void)arg;
	atomic_store(&array[atomic_load(&idx)], 1);
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	int i;

	atomic_init(&idx, -1);
	for (i = 0; i < N; i++) {
		atomic_store(&idx, atomic_load(&idx) + 1);
		pthread_create(&t[i], NULL, thread, NULL);
	}
	for (i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	return 0;
}
