/*
 * airline: N seller threads; each, unless stop is set, loads sold and either
 * sets stop (when sold >= N-1) or stores sold+1. Main initialises tickets = N,
 * sold = 0, stop = 0 (in that order), joins all threads, then loads sold.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 2
#endif

atomic_int sold, stop, tickets;

void *seller(void *arg)
{
	(void)arg;
	if (!atomic_load(&stop)) {
		int s = atomic_load(&sold);

		if (s >= N - 1)
			atomic_store(&stop, 1);
		else
			atomic_store(&sold, s + 1);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	int i, total;

	atomic_init(&tickets, N);
	atomic_init(&sold, 0);
	atomic_init(&stop, 0);
	for (i = 0; i < N; i++)
		pthread_create(&t[i], NULL, seller, NULL);
	for (i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	total = atomic_load(&sold);
	(void)total;
	return 0;
}
