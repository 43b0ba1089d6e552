/*
 * bitfield_race: two threads each set a different bit-field of one shared
 * struct without a lock. C11 3.14 makes adjacent bit-fields one memory
 * location, so each write is a read-modify-write of the same storage unit:
 * the writes race, and one thread's store can overwrite the other's bit
 * with the old value (a lost update), failing main's assertion that both
 * are set. The plain member next to them is a location of its own.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

struct flags {
	unsigned ready : 1;
	unsigned done : 1;
	int count;
} f;

void *setReady(void *arg)
{
	(void)arg;
	f.ready = 1;
	return NULL;
}

void *setDone(void *arg)
{
	(void)arg;
	f.done = 1;
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	pthread_create(&t1, NULL, setReady, NULL);
	pthread_create(&t2, NULL, setDone, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	assert(f.ready == 1 && f.done == 1);
	return 0;
}
