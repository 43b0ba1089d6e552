/* complex: complex floating types are not supported (float and double are). */
#include <pthread.h>
#include <stddef.h>

_Complex double balance = 1.5;

void *thread(void *arg)
{
	(void)arg;
	balance = balance * 2.0;
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, thread, NULL);
	pthread_join(t, NULL);
	return 0;
}
