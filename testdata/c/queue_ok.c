/*
 * queue_ok: a bounded queue of SIZE atomic ints (head, tail and amount
 * atomic too) filled by ENQUEUERS threads and drained by DEQUEUERS threads,
 * each of which runs once, entirely under one mutex, and acts only if its
 * side's flag is set. An enqueuer j (value j) loads its argument before it
 * locks; then, for each i < SIZE, if amount != SIZE it adds the count of its
 * own earlier enqueues to its value, enqueues it, records it in
 * stored[i] and fails if the queue now tests empty; at the end it clears
 * the enqueue flag and sets the dequeue flag. A dequeuer, for each i < SIZE,
 * if the queue does not test empty, loads stored[i], dequeues and fails if
 * the two differ; then it clears the dequeue flag and sets the enqueue flag.
 * Enqueue: load tail, store the element at tail, load amount, store
 * amount+1, load tail and store 0 if it is SIZE-1, else load tail again and
 * store tail+1. Dequeue is the same with head, reading the element instead
 * of writing it and storing amount-1. Testing empty loads head, tail and
 * amount (empty when head == tail and amount == 0). Main sets the enqueue
 * flag, clears the dequeue flag, initialises the mutex, head, tail, amount
 * and the elements, fails unless the queue tests empty, clears stored[],
 * then forks the enqueuers (each with the address of its id in a global
 * array) and the dequeuers, and returns without joining. Only the order in
 * which the threads take the mutex matters; the assertions hold. This is
 * the shape of SV-COMP's pthread/queue_ok_true-unreach-call.c as Nidhugg's
 * benchmarks/SV-COMP/queue_ok.c has it (SIZE 6, three threads of each
 * kind); written anew.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef SIZE
#define SIZE 6
#endif
#ifndef ENQUEUERS
#define ENQUEUERS 3
#endif
#ifndef DEQUEUERS
#define DEQUEUERS 3
#endif
#define EMPTY (-1)
#define FULL (-2)

atomic_int slot[SIZE];
atomic_int head, tail, amount;
atomic_int stored[SIZE];
atomic_int may_enqueue, may_dequeue;
pthread_mutex_t queue_lock;
int ids[ENQUEUERS];

static int is_empty(void)
{
	int h = atomic_load(&head);
	int t = atomic_load(&tail);
	int a = atomic_load(&amount);

	return h == t && a == 0 ? EMPTY : 0;
}

static int is_full(void)
{
	return atomic_load(&amount) == SIZE ? FULL : 0;
}

/* advance moves the index *at one slot on, wrapping after SIZE-1. */
static void advance(atomic_int *at)
{
	if (atomic_load(at) == SIZE - 1) {
		atomic_store(at, 0);
	} else {
		int v = atomic_load(at);
		atomic_store(at, v + 1);
	}
}

static void enqueue(int v)
{
	int t = atomic_load(&tail);

	atomic_store(&slot[t], v);
	int a = atomic_load(&amount);
	atomic_store(&amount, a + 1);
	advance(&tail);
}

static int dequeue(void)
{
	int h = atomic_load(&head);
	int v = atomic_load(&slot[h]);
	int a = atomic_load(&amount);

	atomic_store(&amount, a - 1);
	advance(&head);
	return v;
}

static void *enqueuer(void *arg)
{
	int v = *(int *)arg;
	int done = 0;

	pthread_mutex_lock(&queue_lock);
	if (atomic_load(&may_enqueue)) {
		for (int i = 0; i < SIZE; i++) {
			if (is_full() == FULL)
				continue;
			v += done;
			done++;
			enqueue(v);
			atomic_store(&stored[i], v);
			if (is_empty())
				assert(0);
		}
		atomic_store(&may_enqueue, 0);
		atomic_store(&may_dequeue, 1);
	}
	pthread_mutex_unlock(&queue_lock);
	return 0;
}

static void *dequeuer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&queue_lock);
	if (atomic_load(&may_dequeue)) {
		for (int i = 0; i < SIZE; i++) {
			if (is_empty() == EMPTY)
				continue;
			int want = atomic_load(&stored[i]);
			if (dequeue() != want)
				assert(0);
		}
		atomic_store(&may_dequeue, 0);
		atomic_store(&may_enqueue, 1);
	}
	pthread_mutex_unlock(&queue_lock);
	return 0;
}

int main(void)
{
	pthread_t enq[ENQUEUERS], deq[DEQUEUERS];
	int i;

	atomic_init(&may_enqueue, 1);
	atomic_init(&may_dequeue, 0);
	pthread_mutex_init(&queue_lock, 0);
	atomic_init(&head, 0);
	atomic_init(&tail, 0);
	atomic_init(&amount, 0);
	for (i = 0; i < SIZE; i++)
		atomic_init(&slot[i], 0);
	if (is_empty() != EMPTY)
		assert(0);
	for (i = 0; i < SIZE; i++)
		atomic_init(&stored[i], 0);
	for (i = 0; i < ENQUEUERS; i++) {
		ids[i] = i;
		pthread_create(&enq[i], 0, enqueuer, &ids[i]);
	}
	for (i = 0; i < DEQUEUERS; i++)
		pthread_create(&deq[i], 0, dequeuer, 0);
	return 0;
}
