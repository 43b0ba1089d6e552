/*
 * racy_flag: message passing through plain ints. Under SC the assertion
 * holds, but the write and the read of flag race (the accesses to data
 * cannot be adjacent: the read of data needs flag == 1 first).
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int data, flag;

void *producer(void *arg)
{
	(void)arg;
	data = 42;
	flag = 1;
	return NULL;
}

void *consumer(void *arg)
{
	(void)arg;
	if (flag == 1)
		assert(data == 42);
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, producer, NULL);
	pthread_create(&b, NULL, consumer, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
