/*
 * cas_counter: two threads increment c with a load and a strong
 * compare-exchange, retrying at most once (a bounded for-loop, no spinning).
 * With two threads a retry always succeeds, so the final assertion holds.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

atomic_int c;

void *inc(void *arg)
{
	int k;

	(void)arg;
	for (k = 0; k < 2; k++) {
		int old = atomic_load(&c);

		if (atomic_compare_exchange_strong(&c, &old, old + 1))
			break;
	}
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	atomic_init(&c, 0);
	pthread_create(&t1, NULL, inc, NULL);
	pthread_create(&t2, NULL, inc, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	assert(atomic_load(&c) == 2);
	return 0;
}
