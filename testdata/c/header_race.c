/*
 * header_race: two threads call a header's non-atomic increment
 * (include/counter.h); the race and the lost update are reported, the race
 * at the header's lines, the assertion here.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include "include/counter.h"

void *worker(void *arg)
{
	(void)arg;
	counter_bump();
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	pthread_create(&t1, NULL, worker, NULL);
	pthread_create(&t2, NULL, worker, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	assert(counter == 2);
	return 0;
}
