/*
 * account: amount starts at 1000; N deposit threads each add 100 and one
 * withdraw thread subtracts 10, each as a separate load and store. Main
 * creates the deposits first, joins all threads, then loads amount.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 2
#endif

atomic_int amount;

void *deposit(void *arg)
{
	int tmp;

	(void)arg;
	tmp = atomic_load(&amount);
	atomic_store(&amount, tmp + 100);
	return NULL;
}

void *withdraw(void *arg)
{
	int tmp;

	(void)arg;
	tmp = atomic_load(&amount);
	atomic_store(&amount, tmp - 10);
	return NULL;
}

int main(void)
{
	pthread_t d[N], w;
	int i, final;

	atomic_init(&amount, 1000);
	for (i = 0; i < N; i++)
		pthread_create(&d[i], NULL, deposit, NULL);
	pthread_create(&w, NULL, withdraw, NULL);
	for (i = 0; i < N; i++)
		pthread_join(d[i], NULL);
	pthread_join(w, NULL);
	final = atomic_load(&amount);
	(void)final;
	return 0;
}
