/*
 * key_destructor: each worker keeps a heap buffer as thread-specific data
 * of a key with a destructor; at the worker's exit (its return, or
 * pthread_exit for the second) the destructor frees the buffer and counts
 * it. POSIX runs destructors only for non-null values: the third worker
 * clears its value before it returns, so nothing runs for it. Main checks the count after
 * joining. The count is updated under a mutex (clean); with -DRACY without
 * it: the destructors race and an update can be lost.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

pthread_key_t key;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int released;

void release(void *buf)
{
	free(buf);
#ifndef RACY
	pthread_mutex_lock(&m);
#endif
	released++;
#ifndef RACY
	pthread_mutex_unlock(&m);
#endif
}

void *worker(void *arg)
{
	intptr_t id = (intptr_t)arg;
	pthread_key_t k = key;
	if (id == 3) {
		pthread_setspecific(k, &released); /* cleared before the exit */
		pthread_setspecific(k, NULL);
		return NULL;
	}
	pthread_setspecific(k, malloc(16));
	if (id == 2)
		pthread_exit(NULL);
	return NULL;
}

int main(void)
{
	pthread_t t[3];

	pthread_key_create(&key, release);
	for (intptr_t i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 1));
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(released == 2);
	return 0;
}
