/*
 * lastwrite: thread i (0..N-1) stores i+1 to var (no initialising write);
 * main joins all threads and returns the value it then loads from var.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifndef N
#define N 2
#endif

atomic_int var;

void *thread(void *arg)
{
	atomic_store(&var, (int)(intptr_t)arg + 1);
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	int i;

	for (i = 0; i < N; i++)
		pthread_create(&t[i], NULL, thread, (void *)(intptr_t)i);
	for (i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	return atomic_load(&var);
}
