/*
 * bitfield_init: reads of bit-field units holding their initial values.
 * The first unit (a, b) is two bytes next to a short; the second (c, d)
 * has its top bit set by d = -1. The algorithms that predict values take a
 * unit's initial value from the program, which must read it as the code
 * does (the unit's width, unsigned). One thread sets a (a read-modify-write
 * of the first unit), the other reads b, s and d: the first unit's accesses
 * race; b, s and d hold their initial values whatever the order, and the
 * reader's copy of a shows whether the writer ran first.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

struct mix {
	unsigned a : 4, b : 8;
	short s;
	int c : 31, d : 1;
} g = { 1, 2, -1, 5, -1 };

int seen;

void *writer(void *arg)
{
	(void)arg;
	g.a = 3;
	return NULL;
}

void *reader(void *arg)
{
	(void)arg;
	assert(g.b == 2 && g.s == -1 && g.d == -1 && g.c == 5);
	seen = g.a;
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	pthread_create(&t1, NULL, writer, NULL);
	pthread_create(&t2, NULL, reader, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	assert(seen == 1 || seen == 3);
	assert(g.a == 3 && g.b == 2);
	return 0;
}
