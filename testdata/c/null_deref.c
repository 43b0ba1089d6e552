/*
 * null_deref: main points p at g; one thread clears p, the other writes
 * through p. Dereferences NULL when the clear comes first; the accesses to p
 * are unsynchronised (race). The load of p is dereferenced directly, so MCR
 * predicts the null dereference from the seed that gives it NULL.
 */
#include <pthread.h>
#include <stddef.h>

int g;
int *p;

void *clear(void *arg)
{
	(void)arg;
	p = NULL;
	return NULL;
}

void *use(void *arg)
{
	(void)arg;
	*p = 1;
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	p = &g;
	pthread_create(&t1, NULL, clear, NULL);
	pthread_create(&t2, NULL, use, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}
