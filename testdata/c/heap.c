/*
 * heap: a malloc'd struct shared by two threads through their argument.
 * Each thread writes its own field without locking (different scalars, no
 * race) and adds to total under a mutex; main checks and frees the struct.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

struct shared {
	int a;
	int b;
	int total;
};

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *left(void *arg)
{
	struct shared *s = arg;

	s->a = 1;
	pthread_mutex_lock(&m);
	s->total = s->total + 1;
	pthread_mutex_unlock(&m);
	return NULL;
}

void *right(void *arg)
{
	struct shared *s = arg;

	s->b = 2;
	pthread_mutex_lock(&m);
	s->total = s->total + 2;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	struct shared *s = malloc(sizeof *s);

	if (s == NULL)
		return 1;
	s->a = 0;
	s->b = 0;
	s->total = 0;
	pthread_create(&t1, NULL, left, s);
	pthread_create(&t2, NULL, right, s);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	assert(s->a == 1 && s->b == 2 && s->total == 3);
	free(s);
	return 0;
}
