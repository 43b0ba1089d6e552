/* cond_timedwait: a timed condition wait is not supported (pthread_cond_wait is). */
#include <pthread.h>
#include <stddef.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

int main(void)
{
	struct timespec until = {1, 0};

	pthread_mutex_lock(&m);
	while (!ready)
		pthread_cond_timedwait(&cv, &m, &until);
	pthread_mutex_unlock(&m);
	return 0;
}
