/* inline_asm: inline assembly is not supported. */
#include <pthread.h>
#include <stddef.h>

int x;

void *thread(void *arg)
{
	(void)arg;
	__asm__ volatile("nop");
	x = 1;
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, thread, NULL);
	pthread_join(t, NULL);
	return 0;
}
