/*
 * casrot: x starts at 0; thread i (1..N) does one strong compare-exchange of
 * x from i-1 to i. Main initialises x and does not join.
 */
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
	int i = (int)(intptr_t)arg;
	int expected = i - 1;

	atomic_compare_exchange_strong(&x, &expected, i);
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	int i;

	atomic_init(&x, 0);
	for (i = 0; i < N; i++)
		pthread_create(&t[i], NULL, thread, (void *)(intptr_t)(i + 1));
	return 0;
}
