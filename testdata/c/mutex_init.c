/*
 * mutex_init: locked_counter with the mutex set up by pthread_mutex_init in
 * main and destroyed at the end; the final assertion always holds.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int x;
pthread_mutex_t m;

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

	pthread_mutex_init(&m, NULL);
	pthread_create(&t1, NULL, inc, NULL);
	pthread_create(&t2, NULL, inc, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	assert(x == 2);
	pthread_mutex_destroy(&m);
	return 0;
}
