/*
 * mutex_timedlock: main holds the mutex while it joins the worker, whose
 * pthread_mutex_timedlock can only time out (ETIMEDOUT): with
 * pthread_mutex_lock this is a deadlock, with the timed lock no deadlock.
 * The worker also takes a reader-writer lock for writing that main holds
 * for reading, with pthread_rwlock_timedwrlock: it times out too. With
 * -DBUG the worker writes the shared counter after its timeout, without
 * the mutex: a race with main, and main's assertion can fail.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int shared;

void *worker(void *arg)
{
	struct timespec ts = { 0, 1000 };
	(void)arg;
	int rc = pthread_mutex_timedlock(&m, &ts);
	assert(rc == ETIMEDOUT);
#ifdef BUG
	shared = 2;
#endif
	assert(pthread_rwlock_timedwrlock(&l, &ts) == ETIMEDOUT);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_mutex_lock(&m);
	pthread_rwlock_rdlock(&l);
	pthread_create(&t, NULL, worker, NULL);
	shared = 1;
	pthread_join(t, NULL);
	assert(shared == 1);
	pthread_rwlock_unlock(&l);
	pthread_mutex_unlock(&m);
	return 0;
}
