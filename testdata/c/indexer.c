/*
 * indexer: THREADS threads fill a shared open-addressing hash table of SLOTS
 * atomic slots. Thread t inserts ITEMS keys k*11+t (k = 1..ITEMS): it hashes
 * a key to (key*7) % SLOTS and claims the first free slot from there on,
 * each claim a compare-and-swap made of a per-slot mutex, a load and a store
 * (the shape of SV-COMP's pthread/indexer.c as Nidhugg's
 * benchmarks/SV-COMP/indexer.c has it, written anew; that file defaults to
 * 14 threads when NUM_THREADS is not given). Two threads meet only where
 * their keys hash to the same slot or a probe runs into another's; main
 * initialises every slot and mutex, then joins. Reads-from classes (rf):
 * 8 at THREADS=12, 64 at 13, 512 at 14, 4,096 at 15.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef THREADS
#define THREADS 13
#endif
#ifndef SLOTS
#define SLOTS 128
#endif
#ifndef ITEMS
#define ITEMS 4
#endif

atomic_int table[SLOTS];
pthread_mutex_t guard[SLOTS];
int ident[THREADS];

/* claim stores key into slot h if the slot is still free. */
static int claim(int h, int key)
{
	int won = 0;

	pthread_mutex_lock(&guard[h]);
	if (atomic_load(&table[h]) == 0) {
		atomic_store(&table[h], key);
		won = 1;
	}
	pthread_mutex_unlock(&guard[h]);
	return won;
}

static void *inserter(void *arg)
{
	int me = *(int *)arg;

	for (int k = 1; k <= ITEMS; k++) {
		int key = k * 11 + me;
		int h = (key * 7) % SLOTS;

		assert(h >= 0);
		while (!claim(h, key))
			h = (h + 1) % SLOTS;
	}
	return 0;
}

int main(void)
{
	pthread_t th[THREADS];
	int i;

	for (i = 0; i < SLOTS; i++)
		pthread_mutex_init(&guard[i], 0);
	for (i = 0; i < SLOTS; i++)
		atomic_init(&table[i], 0);
	for (i = 0; i < THREADS; i++) {
		ident[i] = i;
		pthread_create(&th[i], 0, inserter, &ident[i]);
	}
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], 0);
	return 0;
}
