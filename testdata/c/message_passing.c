/*
 * message_passing (MP litmus test): data = 42; flag = 1  ||  if (flag == 1)
 * assert(data == 42), with seq_cst atomics. Holds under SC and TSO (fails
 * under PSO).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

atomic_int data, flag;

void *producer(void *arg)
{
	(void)arg;
	atomic_store(&data, 42);
	atomic_store(&flag, 1);
	return NULL;
}

void *consumer(void *arg)
{
	(void)arg;
	if (atomic_load(&flag) == 1)
		assert(atomic_load(&data) == 42);
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
