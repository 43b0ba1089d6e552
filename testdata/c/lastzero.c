/*
 * lastzero (Abdulla et al.): thread 0 scans array[N..0] backwards for the last
 * zero; writer j (1..N) sets array[j] = array[j-1] + 1. Main initialises the
 * array with atomic_init (N+1 write events) and does not join.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifndef N
#define N 2
#endif

atomic_int array[N + 1];

void *reader(void *arg)
{
	int i;

	(void)arg;
	for (i = N; atomic_load(&array[i]) != 0; --i)
		;
	return NULL;
}

void *writer(void *arg)
{
	int j = (int)(intptr_t)arg;

	atomic_store(&array[j], atomic_load(&array[j - 1]) + 1);
	return NULL;
}

int main(void)
{
	pthread_t t[N + 1];
	int i;

	for (i = 0; i <= N; i++)
		atomic_init(&array[i], 0);
	pthread_create(&t[0], NULL, reader, NULL);
	for (i = 1; i <= N; i++)
		pthread_create(&t[i], NULL, writer, (void *)(intptr_t)i);
	return 0;
}
