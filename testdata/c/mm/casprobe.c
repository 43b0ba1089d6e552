// The RMW reversal and the CAS probe of rf and mcr under TSO/PSO
// (explicit/rfsmc_relaxed_mutation.go): T1's CAS and T2's fetch_add on x,
// each after a buffered store to y, which it drains. When T1's CAS first
// succeeds on 0 and T2's fetch_add reads its 1, the reversal rule proposes
// the fetch_add reading 0 and the CAS reading its write, whose value
// (0 + ADD) only executing tells: with ADD 0 the CAS succeeds again, with
// ADD 1 it fails. The CAS fails only after the fetch_add changed x.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#ifndef ADD
#define ADD 0
#endif

atomic_int x, y;
int ok, old;

void *t1(void *arg) {
	int expected = 0;
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	ok = atomic_compare_exchange_strong(&x, &expected, 1);
	return 0;
}

void *t2(void *arg) {
	atomic_store_explicit(&y, 2, memory_order_relaxed);
	old = atomic_fetch_add(&x, ADD);
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, t1, 0);
	pthread_create(&b, 0, t2, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(ok || old == 0);
	return 0;
}
