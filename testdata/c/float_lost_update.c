/*
 * float_lost_update: two threads update a shared double without a lock,
 * one doubling it, one adding 0.5; main joins both and asserts that the
 * result is one of the two serial outcomes (1.5 * 2 + 0.5 = 3.5 or
 * (1.5 + 0.5) * 2 = 4). A lost update (3.0 or 2.0) fails the assertion,
 * and the accesses race.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

double balance = 1.5;

void *twice(void *arg)
{
	(void)arg;
	balance = balance * 2.0;
	return NULL;
}

void *add(void *arg)
{
	(void)arg;
	balance += 0.5f;
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	pthread_create(&t1, NULL, twice, NULL);
	pthread_create(&t2, NULL, add, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	assert(balance == 3.5 || balance == 4.0);
	return 0;
}
