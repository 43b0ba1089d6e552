/*
 * clock_deadline: the deadline of a timed wait is computed from
 * clock_gettime, whose fields are inputs (tv_sec >= 0, tv_nsec in [0, 1e9)).
 * The waiter normalises the deadline; its assertion on the normalised
 * nanoseconds holds for every clock value, and its timed wait either sees
 * the flag or times out. Clean, and complete: the deadline only reaches the
 * timed wait. With -DBUG the normalisation is missing and the assertion
 * fails for a clock value at the end of a second.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *setter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	ready = 1;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 500000000;
#ifndef BUG
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
#endif
	assert(ts.tv_nsec < 1000000000);
	pthread_create(&t, NULL, setter, NULL);
	pthread_mutex_lock(&m);
	int rc = 0;
	while (!ready && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&c, &m, &ts);
	assert(ready || rc == ETIMEDOUT);
	pthread_mutex_unlock(&m);
	pthread_join(t, NULL);
	return 0;
}
