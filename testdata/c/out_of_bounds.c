/*
 * out_of_bounds: idx starts at 3; one thread stores 4 to it, the other writes
 * buf[idx] for the value it loads: an out-of-bounds write to the 4-element
 * buf when the store comes first. buf is touched by one thread only and idx
 * is atomic, so no race.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

atomic_int idx;
int buf[4];

void *grow(void *arg)
{
	(void)arg;
	atomic_store(&idx, 4);
	return NULL;
}

void *fill(void *arg)
{
	int i;

	(void)arg;
	i = atomic_load(&idx);
	buf[i] = 1;
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	atomic_init(&idx, 3);
	pthread_create(&t1, NULL, grow, NULL);
	pthread_create(&t2, NULL, fill, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}
