/*
 * fib_bench (SV-COMP fib_bench, safe variant): i and j start at 1; t1 does
 * N times i = i + j (loading i, then j), t2 does N times j = j + i (loading j,
 * then i). Main, without joining, asserts both are at most fib(2+2N).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 1
#endif

atomic_int i, j;

void *t1(void *arg)
{
	int k;

	(void)arg;
	for (k = 0; k < N; k++) {
		int a = atomic_load(&i);
		int b = atomic_load(&j);

		atomic_store(&i, a + b);
	}
	return NULL;
}

void *t2(void *arg)
{
	int k;

	(void)arg;
	for (k = 0; k < N; k++) {
		int a = atomic_load(&j);
		int b = atomic_load(&i);

		atomic_store(&j, a + b);
	}
	return NULL;
}

/* fib computes the n-th Fibonacci number, fib(1) = fib(2) = 1 (local work). */
static int fib(int n)
{
	if (n <= 2)
		return 1;
	return fib(n - 1) + fib(n - 2);
}

int main(void)
{
	pthread_t a, b;
	int bound = fib(2 + 2 * N);

	atomic_init(&i, 1);
	atomic_init(&j, 1);
	pthread_create(&a, NULL, t1, NULL);
	pthread_create(&b, NULL, t2, NULL);
	assert(atomic_load(&i) <= bound && atomic_load(&j) <= bound);
	return 0;
}
