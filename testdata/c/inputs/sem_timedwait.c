/*
 * sem_timedwait: the producer writes item, then posts; the consumer takes
 * the token with sem_timedwait and reads item only if it got it (clean: the
 * post orders the write before the read). A timed-out wait returns -1 and
 * takes no token; the consumer then leaves item alone. With -DBUG it reads
 * item even after a timeout: a race with the producer's write, and its
 * assertion fails when the read comes first.
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <time.h>

sem_t full;
int item;

void *producer(void *arg)
{
	(void)arg;
	item = 1;
	sem_post(&full);
	return NULL;
}

int main(void)
{
	pthread_t t;
	struct timespec ts = { 0, 1000 };

	sem_init(&full, 0, 0);
	pthread_create(&t, NULL, producer, NULL);
	int rc = sem_timedwait(&full, &ts);
#ifdef BUG
	assert(item == 1);
#else
	if (rc == 0)
		assert(item == 1);
#endif
	pthread_join(t, NULL);
	int v;
	sem_getvalue(&full, &v);
	assert(v == (rc == 0 ? 0 : 1));
	return 0;
}
