/*
 * lock_order_deadlock: two threads take mutexes a and b in opposite orders;
 * deadlocks when each holds its first mutex. counter is always accessed
 * with both mutexes held, so there is no race.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int counter;
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

void *ab(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&a);
	pthread_mutex_lock(&b);
	counter = counter + 1;
	pthread_mutex_unlock(&b);
	pthread_mutex_unlock(&a);
	return NULL;
}

void *ba(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&b);
	pthread_mutex_lock(&a);
	counter = counter + 1;
	pthread_mutex_unlock(&a);
	pthread_mutex_unlock(&b);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	pthread_create(&t1, NULL, ab, NULL);
	pthread_create(&t2, NULL, ba, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	assert(counter == 2);
	return 0;
}
