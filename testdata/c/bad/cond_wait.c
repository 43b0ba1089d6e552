/* cond_wait: condition variables are not supported. */
#include <pthread.h>
#include <stddef.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

void *signaller(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	ready = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, signaller, NULL);
	pthread_mutex_lock(&m);
	while (!ready)
		pthread_cond_wait(&cv, &m);
	pthread_mutex_unlock(&m);
	pthread_join(t, NULL);
	return 0;
}
