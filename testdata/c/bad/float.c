/* float: floating-point shared data is not supported (for now). */
#include <pthread.h>
#include <stddef.h>

double balance = 1.5;

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
	return balance > 2.0 ? 0 : 1;
}
