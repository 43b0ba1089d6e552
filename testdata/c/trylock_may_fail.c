/*
 * A trylock that succeeds in the first execution but fails in others: main
 * waits until t has written x inside its critical section, then tries the
 * lock. It fails only if t still holds it, and only then the assertion is
 * reached. Before session 10, rvf and mcr explored only the successful
 * trylock and reported a complete search without the violation; now dfs
 * and rf (under SC) explore both outcomes and every other explorer says that
 * trylocks make it incomplete.
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
_Atomic int x;

void *t(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	x = 1;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t th;

	pthread_create(&th, NULL, t, NULL);
	while (x == 0)
		;
	if (pthread_mutex_trylock(&m) != 0)
		assert(0);
	else
		pthread_mutex_unlock(&m);
	pthread_join(th, NULL);
	return 0;
}
