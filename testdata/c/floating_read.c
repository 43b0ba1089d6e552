/*
 * floating_read: thread i (1..N) stores i to x; main initialises x = 0,
 * creates the threads, loads x once in an (always true) assertion, then joins.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifndef N
#define N 2
#endif

atomic_int x;

void *thread(void *arg)
{
	atomic_store(&x, (int)(intptr_t)arg);
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	int i;

	atomic_init(&x, 0);
	for (i = 0; i < N; i++)
		pthread_create(&t[i], NULL, thread, (void *)(intptr_t)(i + 1));
	assert(atomic_load(&x) < N + 1);
	for (i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	return 0;
}
