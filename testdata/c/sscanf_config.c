/*
 * sscanf on strings of the program (issue 15): main parses a constant
 * configuration, "workers=2 step=3 name=ab", and two workers add the
 * step to a counter. With LOCKED=1 they add under a mutex and the total
 * is 2 * 3; without, an update can be lost (race, assertion). A format
 * that does not match ("size=...") returns 0 and leaves its object
 * alone; one past the end of the string returns EOF.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifndef LOCKED
#define LOCKED 0
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int workers, step, total;

void *work(void *arg)
{
	(void)arg;
	if (LOCKED)
		pthread_mutex_lock(&m);
	total = total + step;
	if (LOCKED)
		pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	char name[8];
	int size = -1, x = -1;
	int got = sscanf("workers=2 step=0x3 name=ab", "workers=%d step=%i name=%7s", &workers, &step, name);
	assert(got == 3 && workers == 2 && step == 3 && strcmp(name, "ab") == 0);
	assert(sscanf("workers=2", "size=%d", &size) == 0 && size == -1);
	assert(sscanf("  ", "%d", &x) == EOF && x == -1);
	pthread_t t[2];
	for (int i = 0; i < workers; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < workers; i++)
		pthread_join(t[i], NULL);
	assert(total == workers * step);
	return 0;
}
