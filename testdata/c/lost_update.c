/*
 * lost_update: two threads increment a plain int without synchronisation;
 * main joins both and asserts x == 2, which fails when both read 0.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int x;

void *inc(void *arg)
{
	(void)arg;
	x = x + 1;
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
