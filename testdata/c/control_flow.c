/*
 * control_flow: main initialises x, y, z to 0, then creates N pairs of
 * threads p (load x), q (store y = 1) in the order p, q, p, q, ..., then r
 * (if y == 0 then z = 1), then s (if z == 1 and then y == 0, x = 1). No joins.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 1
#endif

atomic_int x, y, z;

void *p(void *arg)
{
	int v;

	(void)arg;
	v = atomic_load(&x);
	(void)v;
	return NULL;
}

void *q(void *arg)
{
	(void)arg;
	atomic_store(&y, 1);
	return NULL;
}

void *r(void *arg)
{
	(void)arg;
	if (atomic_load(&y) == 0)
		atomic_store(&z, 1);
	return NULL;
}

void *s(void *arg)
{
	(void)arg;
	if (atomic_load(&z) == 1)
		if (atomic_load(&y) == 0)
			atomic_store(&x, 1);
	return NULL;
}

int main(void)
{
	pthread_t tp[N], tq[N], tr, ts;
	int i;

	atomic_init(&x, 0);
	atomic_init(&y, 0);
	atomic_init(&z, 0);
	for (i = 0; i < N; i++) {
		pthread_create(&tp[i], NULL, p, NULL);
		pthread_create(&tq[i], NULL, q, NULL);
	}
	pthread_create(&tr, NULL, r, NULL);
	pthread_create(&ts, NULL, s, NULL);
	return 0;
}
