/* late_thread_sources: randprog SyncOptions seed 11 with pthread_barrier_wait written out in C (one atomic word, a spin-loop await). mcr once crashed on it: a thread forked after a read was mutated offered sources beyond that read's causal map (issue 14, f966506). */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

atomic_int g0;
atomic_int bw;
static int bwait(void) {
	int old = atomic_fetch_add(&bw, 1);
	if ((old & 1023) + 1 == ((old >> 10) & 1023)) {
		atomic_store(&bw, (((old >> 20) + 1) << 20) | (old & (1023 << 10)));
		return -1;
	}
	while (((atomic_load(&bw) >> 20) & 4095) == ((old >> 20) & 4095));
	return 0;
}

void *thread0(void *arg)
{
	int r0 = 0;
	int r1 = 0;
	int r2 = 0;
	int r3 = 0;

	(void)arg;
	r0 = atomic_load(&g0);
	if (r0 > 3) {
		r1 = atomic_fetch_add(&g0, 1);
	} else {
		r2 = 3;
		r3 = atomic_compare_exchange_strong(&g0, &r2, 0);
	}
	if (bwait() == -1) {
		atomic_store(&g0, atomic_load(&g0) + 2);
	}
	(void)r0;
	(void)r1;
	(void)r2;
	(void)r3;
	return NULL;
}

void *thread1(void *arg)
{
	int r0 = 0;

	(void)arg;
	r0 = atomic_load(&g0);
	if (r0 >= 1) {
		atomic_store(&g0, r0 + 1);
	}
	bwait();
	(void)r0;
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	int r0 = 0;

	atomic_init(&g0, 1);
	atomic_store(&bw, 2 << 10);
	pthread_create(&t[0], NULL, thread0, NULL);
	r0 = atomic_fetch_add(&g0, 1);
	pthread_create(&t[1], NULL, thread1, NULL);
	(void)r0;
	return 0;
}
