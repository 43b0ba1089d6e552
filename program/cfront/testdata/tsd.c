/* Thread-specific data with destructors (POSIX pthread_key_create): every
   assert holds under glibc (the test also compiles and runs it with gcc).
   The assertions run in main after joins, so every schedule agrees. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

pthread_key_t key, again, plain, gone, lookk;
int freed, rounds, seen_plain, gone_calls;

static void release(void *p) { free(p); freed++; }
/* sets its value again: called once per round, PTHREAD_DESTRUCTOR_ITERATIONS (4) rounds */
static void reset(void *p) { rounds++; pthread_setspecific(again, p); }
/* glibc clears every value of a round before its destructor runs, with
   or without a destructor (POSIX leaves it open) */
static void look(void *p) { (void)p; seen_plain = pthread_getspecific(plain) != NULL; }
static void never(void *p) { (void)p; gone_calls++; }

static void *worker(void *arg)
{
	pthread_setspecific(key, malloc(8));
	pthread_setspecific(again, (void *)1);
	pthread_setspecific(plain, (void *)2);
	pthread_setspecific(gone, (void *)3);
	pthread_setspecific(lookk, (void *)4);
	if ((intptr_t)arg == 2)
		pthread_exit(NULL);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_key_create(&key, release);
	pthread_key_create(&again, reset);
	pthread_key_create(&plain, NULL);
	pthread_key_create(&gone, never);
	pthread_key_delete(gone);
	pthread_key_create(&lookk, look);
	pthread_create(&t, NULL, worker, (void *)1);
	pthread_join(t, NULL);
	assert(freed == 1);
	assert(rounds == 4);
	assert(gone_calls == 0);
	assert(seen_plain == 0);
	pthread_create(&t, NULL, worker, (void *)2);
	pthread_join(t, NULL);
	assert(freed == 2 && rounds == 8);
	assert(gone_calls == 0);
	assert(seen_plain == 0);
	/* main returning is exit(): no destructors */
	pthread_setspecific(key, malloc(8));
	assert(pthread_getspecific(key) != NULL);
	return 0;
}
