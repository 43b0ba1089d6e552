/*
 * Condition variables under --spurious-wakeups (POSIX lets
 * pthread_cond_wait return without a signal). The consumer waits in the
 * usual loop, whose iterations after a spurious wake-up only read `ready`
 * and take and release the mutex: they are idle (program/cfront/idle.go),
 * so the search is finite. With TRUST=1 a second waiter trusts a single
 * wait, and the assertion behind it fails after a spurious wake-up only.
 */
#include <pthread.h>
#include <assert.h>

#ifndef TRUST
#define TRUST 0
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, data;

void *consumer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	while (!ready)
		pthread_cond_wait(&c, &m);
	assert(data == 42);
	pthread_mutex_unlock(&m);
	return NULL;
}

void *truster(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	if (!ready)
		pthread_cond_wait(&c, &m);
	assert(ready);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, consumer, NULL);
	if (TRUST)
		pthread_create(&b, NULL, truster, NULL);
	pthread_mutex_lock(&m);
	data = 42;
	ready = 1;
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	pthread_join(a, NULL);
	if (TRUST)
		pthread_join(b, NULL);
	return 0;
}
