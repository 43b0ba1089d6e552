/*
 * spin: the waiter spins on an atomic flag, then reads plain data published
 * before the flag (no race: the data accesses can never be adjacent). The
 * spin loop runs as an await of its exit condition (program/cfront/spin.go);
 * with --no-spin-await it is unbounded: exploration then needs a per-thread
 * event bound, and the executions that spin until it are reported bounded.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

atomic_int flag;
int data;

void *waiter(void *arg)
{
	(void)arg;
	while (atomic_load(&flag) == 0)
		;
	assert(data == 42);
	return NULL;
}

void *publisher(void *arg)
{
	(void)arg;
	data = 42;
	atomic_store(&flag, 1);
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, waiter, NULL);
	pthread_create(&b, NULL, publisher, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
