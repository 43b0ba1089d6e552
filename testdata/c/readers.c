/*
 * readers: one writer stores 42 to x, N readers load x; main initialises x,
 * creates the writer first, then the readers, and joins all of them.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 2
#endif

atomic_int x;

void *writer(void *arg)
{
	(void)arg;
	atomic_store(&x, 42);
	return NULL;
}

void *reader(void *arg)
{
	int v;

	(void)arg;
	v = atomic_load(&x);
	(void)v;
	return NULL;
}

int main(void)
{
	pthread_t w;
	pthread_t r[N];
	int i;

	atomic_init(&x, 0);
	pthread_create(&w, NULL, writer, NULL);
	for (i = 0; i < N; i++)
		pthread_create(&r[i], NULL, reader, NULL);
	pthread_join(w, NULL);
	for (i = 0; i < N; i++)
		pthread_join(r[i], NULL);
	return 0;
}
