/* Error-checking mutexes (issue 15): unlocking one the thread does not
 * hold returns EPERM and leaves it alone, relocking one it holds returns
 * EDEADLK instead of waiting forever. With UNLOCK_EARLY=1 main releases
 * its mutex before its increment, which then races with the worker's. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>

int shared;
pthread_mutex_t a, b;

void *worker(void *arg)
{
	pthread_mutex_lock(&a);
	shared++;
	pthread_mutex_unlock(&a);
	return 0;
}

int main(void)
{
	pthread_mutexattr_t attr;
	pthread_t t;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&a, &attr);
	pthread_mutex_init(&b, &attr);
	pthread_create(&t, 0, worker, 0);
	pthread_mutex_lock(&a);
	assert(pthread_mutex_unlock(&b) == EPERM); /* b is not held: a stays held */
	assert(pthread_mutex_lock(&a) == EDEADLK);
#if UNLOCK_EARLY
	pthread_mutex_unlock(&a);
	shared++;
	assert(pthread_mutex_unlock(&a) == EPERM); /* released already */
#else
	shared++;
	assert(pthread_mutex_unlock(&a) == 0);
#endif
	pthread_join(t, 0);
	assert(shared == 2);
	return 0;
}
