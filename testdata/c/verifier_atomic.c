/*
 * verifier_atomic: two non-atomic increments (a load then a store) made
 * atomic, one by a __VERIFIER_atomic_ function, one by an explicit
 * __VERIFIER_atomic_begin/end block. x is atomic_int so that the expectation
 * does not depend on how races inside atomic blocks are judged; without the
 * atomic blocks the assertion would fail.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

atomic_int x;

void __VERIFIER_atomic_inc(void)
{
	int v = atomic_load(&x);

	atomic_store(&x, v + 1);
}

void *t1(void *arg)
{
	(void)arg;
	__VERIFIER_atomic_inc();
	return NULL;
}

void *t2(void *arg)
{
	int v;

	(void)arg;
	__VERIFIER_atomic_begin();
	v = atomic_load(&x);
	atomic_store(&x, v + 1);
	__VERIFIER_atomic_end();
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, t1, NULL);
	pthread_create(&b, NULL, t2, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(atomic_load(&x) == 2);
	return 0;
}
