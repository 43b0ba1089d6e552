/*
 * locked_counter: lost_update with the increment inside a statically
 * initialised mutex; the final assertion always holds.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *inc(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	x = x + 1;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	pthread_create(&t1, NULL, inc, NULL);
	pthread_create(&t2, NULL, inc, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	assert(x == 2);
	return 0;
}
