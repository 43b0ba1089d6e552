/*
 * store_buffering (SB litmus test): x = 1; r1 = y  ||  y = 1; r2 = x, with
 * seq_cst atomics. r1 == r2 == 0 is impossible under SC (possible under TSO
 * and PSO). r1 and r2 are plain ints read by main only after the joins.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

atomic_int x, y;
int r1, r2;

void *t1(void *arg)
{
	(void)arg;
	atomic_store(&x, 1);
	r1 = atomic_load(&y);
	return NULL;
}

void *t2(void *arg)
{
	(void)arg;
	atomic_store(&y, 1);
	r2 = atomic_load(&x);
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, t1, NULL);
	pthread_create(&b, NULL, t2, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(!(r1 == 0 && r2 == 0));
	return 0;
}
