/* mutex_timedlock: a timed mutex lock is not supported (pthread_mutex_lock,
   pthread_cond_timedwait and sem_timedwait are). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ready;

int main(void)
{
	struct timespec until = {1, 0};

	if (pthread_mutex_timedlock(&m, &until) == 0) {
		ready = 1;
		pthread_mutex_unlock(&m);
	}
	return 0;
}
