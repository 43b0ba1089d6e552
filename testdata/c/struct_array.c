/*
 * struct_array: NT workers each fill their own slot of an array of structs
 * inside a global struct, found by pointer arithmetic, with a value computed
 * by a recursive function, and count themselves in an atomic field. Main
 * walks the array with a pointer and checks the sums. No race, no failure.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define NT 3

struct item {
	int key;
	int val;
};

struct table {
	struct item items[NT];
	atomic_int done;
};

struct table tab;

static int fact(int n)
{
	if (n <= 1)
		return 1;
	return n * fact(n - 1);
}

void *worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	struct item *p = tab.items + id;

	p->key = id;
	(*p).val = fact(id + 2);
	atomic_fetch_add(&tab.done, 1);
	return NULL;
}

int main(void)
{
	pthread_t t[NT];
	struct item *q;
	int i, keys = 0, vals = 0;

	for (i = 0; i < NT; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
	for (i = 0; i < NT; i++)
		pthread_join(t[i], NULL);
	for (q = tab.items; q < tab.items + NT; q++) {
		assert(q->key == q - tab.items);
		keys += q->key;
		vals += q->val;
	}
	assert(keys == 0 + 1 + 2);
	assert(vals == 2 + 6 + 24);
	assert(atomic_load(&tab.done) == NT);
	return 0;
}
