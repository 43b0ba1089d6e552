/* Both threads' assertions fail in every execution: both are findings, whatever the interleaving, since a
   violation stops only its thread and the other runs on to its own (when the first failure ended the execution,
   an explorer with one class saw only the failure that came first in its one trace). */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int g;

void *a(void *arg)
{
	assert(g == 5);
	return NULL;
}

void *b(void *arg)
{
	assert(g == 7);
	return NULL;
}

int main(void)
{
	pthread_t t, u;
	pthread_create(&t, NULL, a, NULL);
	pthread_create(&u, NULL, b, NULL);
	pthread_join(t, NULL);
	pthread_join(u, NULL);
	return 0;
}
