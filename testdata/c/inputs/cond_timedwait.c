/*
 * cond_timedwait: a lost wake-up with a timed wait. The waiter waits once,
 * without a condition, so a signal sent before its wait is lost; with
 * pthread_cond_wait that is a deadlock (cond_lost.c), with
 * pthread_cond_timedwait the wait times out (ETIMEDOUT) and everything
 * ends: no deadlock. The mutex is held again on return either way. With
 * -DCHECK the waiter asserts that it was signalled, which fails through
 * the timeout (whether or not a signal came).
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int owner;

void *waiter(void *arg)
{
	struct timespec ts = { 0, 1000 };
	(void)arg;
	pthread_mutex_lock(&m);
	int rc = pthread_cond_timedwait(&c, &m, &ts);
	owner = 1; /* the mutex is held again, on both results */
	assert(rc == 0 || rc == ETIMEDOUT);
#ifdef CHECK
	assert(rc == 0);
#endif
	owner = 0;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, waiter, NULL);
	pthread_mutex_lock(&m);
	assert(owner == 0);
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	pthread_join(t, NULL);
	return 0;
}
