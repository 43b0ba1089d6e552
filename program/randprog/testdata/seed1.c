/* randprog seed 1: 3 threads, 3 globals, a final assertion. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

int g0 = 1;
atomic_int g1;
atomic_int g2;

void *thread0(void *arg)
{
	int r0 = 0;

	(void)arg;
	r0 = atomic_load(&g2);
	(void)r0;
	return NULL;
}

void *thread1(void *arg)
{
	int r0 = 0;
	int r1 = 0;
	int r2 = 0;
	int r3 = 0;
	int r4 = 0;
	int r5 = 0;
	int r6 = 0;

	(void)arg;
	r0 = atomic_fetch_add(&g1, 1);
	r1 = atomic_load(&g2);
	if (r1 <= 0) {
		atomic_store(&g1, 2);
	}
	r2 = atomic_load(&g2);
	if (r2 >= 0) {
		r3 = 3;
		r4 = atomic_compare_exchange_strong(&g1, &r3, 0);
	} else {
		atomic_store(&g2, atomic_load(&g2) + 1);
	}
	r5 = 0;
	r6 = atomic_compare_exchange_strong(&g2, &r5, r0 + 2);
	(void)r0;
	(void)r1;
	(void)r2;
	(void)r3;
	(void)r4;
	(void)r5;
	(void)r6;
	return NULL;
}

void *thread2(void *arg)
{
	int r0 = 0;
	int r1 = 0;
	int r2 = 0;

	(void)arg;
	r0 = atomic_load(&g1);
	if (r0 == 2) {
		atomic_store(&g1, r0 + 1);
	}
	r1 = g0;
	if (r1 != 2) {
		g0 = g0 + 2;
	} else {
		r2 = atomic_load(&g1);
	}
	(void)r0;
	(void)r1;
	(void)r2;
	return NULL;
}

int main(void)
{
	pthread_t t[3];

	atomic_init(&g1, 3);
	atomic_init(&g2, 1);
	pthread_create(&t[0], NULL, thread0, NULL);
	pthread_create(&t[1], NULL, thread1, NULL);
	pthread_create(&t[2], NULL, thread2, NULL);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	pthread_join(t[2], NULL);
	assert((g0 < 0) || (atomic_load(&g1) < 4));
	return 0;
}
