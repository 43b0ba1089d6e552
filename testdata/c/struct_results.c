/*
 * struct_results: two threads build their results with helpers that take
 * and return structs by value (a nested struct, a union), then publish a
 * copy into a shared table under a mutex; main checks the table. The
 * helpers' copies are private (no events); publishing writes the table's
 * scalars, reading the counter and the table is locked: clean.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

struct stats {
	int count;
	int total;
};

union payload {
	int small;
	long big;
};

struct result {
	int id;
	struct stats s;
	union payload p;
};

struct result table[2];
int published;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

struct stats add(struct stats s, int v)
{
	s.count = s.count + 1;
	s.total = s.total + v;
	return s;
}

union payload wide(long v)
{
	union payload p;

	p.big = v;
	return p;
}

struct result build(int id)
{
	struct result r;

	r.id = id;
	r.s.count = 0;
	r.s.total = 0;
	for (int i = 0; i < 3; i++)
		r.s = add(r.s, id * 10 + i);
	r.p = wide(r.s.total);
	return r;
}

void *worker(void *arg)
{
	int id = (int)(long)arg;
	struct result r = build(id);

	assert(r.s.count == 3 && build(id).p.big == r.s.total);
	pthread_mutex_lock(&m);
	table[published] = r;
	published = published + 1;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	pthread_create(&t1, NULL, worker, (void *)1);
	pthread_create(&t2, NULL, worker, (void *)2);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	pthread_mutex_lock(&m);
	struct result a = table[0], b = table[1];
	assert(published == 2 && a.id + b.id == 3);
	assert(a.s.total + b.s.total == 33 + 63 && a.p.big == a.s.total);
	pthread_mutex_unlock(&m);
	return 0;
}
