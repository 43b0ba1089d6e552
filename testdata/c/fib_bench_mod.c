/*
 * fib_bench_mod: the fib_bench variants fib_bench_1, fib_bench_2,
 * fib_bench_3 of seed 003 Section 6 (Figure 8), written from their
 * description: a main thread and two workers over globals x and y; the
 * first worker does N times x = (x + y) mod MOD, the second N times
 * y = (y + x) mod MOD (MOD 0: no modulo, the original benchmark). The
 * smaller MOD, the more writes write the same value, the fewer classes a
 * value-centric equivalence has. Main reads both at the end (the paper
 * replaces assertions with reads); the accesses are atomic, so there are
 * no races and no findings.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 2
#endif
#ifndef MOD
#define MOD 0
#endif

atomic_int x = 1, y = 1;

static int mod(int v) { return MOD > 0 ? v % (MOD > 0 ? MOD : 1) : v; }

void *worker_x(void *arg)
{
	(void)arg;
	for (int k = 0; k < N; k++) {
		int a = atomic_load(&x);
		int b = atomic_load(&y);

		atomic_store(&x, mod(a + b));
	}
	return NULL;
}

void *worker_y(void *arg)
{
	(void)arg;
	for (int k = 0; k < N; k++) {
		int a = atomic_load(&y);
		int b = atomic_load(&x);

		atomic_store(&y, mod(a + b));
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, worker_x, NULL);
	pthread_create(&b, NULL, worker_y, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	int fx = atomic_load(&x), fy = atomic_load(&y);
	(void)fx;
	(void)fy;
	return 0;
}
