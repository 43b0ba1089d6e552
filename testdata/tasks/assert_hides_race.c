/* assert_hides_race: thread a's assertion always fails; thread b's write
 * races with main's. Every execution that ends at the failure before b
 * writes hides the race, so a search that leaves assertions out (SV-COMP's
 * no-data-race property) must not call the program race-free. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int g;
int never;

void *a(void *arg)
{
	(void)arg;
	assert(never == 1);
	return NULL;
}

void *b(void *arg)
{
	(void)arg;
	g = 1;
	return NULL;
}

int main(void)
{
	pthread_t ta, tb;

	pthread_create(&ta, NULL, a, NULL);
	pthread_create(&tb, NULL, b, NULL);
	g = 2;
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	return 0;
}
