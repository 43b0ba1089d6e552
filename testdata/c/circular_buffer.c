/*
 * circular_buffer: a log of CAPACITY chars shared by a sender and a receiver
 * that take turns under one mutex. Each of the two threads makes N rounds;
 * in each it locks the mutex and acts only if the turn is its own: the
 * sender (its turn while `send` is set) appends its round number i to the
 * log, asserts the append returned i, publishes i in `value` and hands the
 * turn over (send = 0, receive = 1); the receiver (its turn while `receive`
 * is set) takes the oldest entry, asserts it equals `value` and hands the
 * turn back. Appending checks `next < size && size > 0`, stores, advances
 * next modulo size and asserts next < size; taking asserts first >= 0 (an
 * unsigned compare, always true, but a read of first) and takes buffer[first]
 * while `next > 0 && first < size`. Main sets size = CAPACITY, next, first,
 * send = 1 and receive = 0, forks the sender then the receiver and joins
 * both. Every access is a plain (non-atomic) one under the mutex, so the
 * program is race free and its assertions hold. This is the shape of
 * SCTBench's circular_buffer_ok.c as Nidhugg's
 * benchmarks/from_SCTBench/circular_buffer.c has it (CAPACITY 10, N 7 by
 * default); written anew.
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 7
#endif
#define CAPACITY 10
#define NONE (-1)

static char log_buf[CAPACITY];
static unsigned int first; /* oldest entry, taken next */
static unsigned int next;  /* where the next entry goes */
static int size;

_Bool send, receive;
int value;
pthread_mutex_t turn;

/* append stores c at the end of the log; NONE if the log is full. */
static int append(int c)
{
	if (!(next < size && size > 0))
		return NONE;
	log_buf[next] = c;
	next = (next + 1) % size;
	assert(next < size);
	return c;
}

/* take returns the oldest entry of the log; NONE if there is none. */
static int take(void)
{
	assert(first >= 0);
	if (next > 0 && first < size) {
		first = first + 1;
		return log_buf[first - 1];
	}
	return NONE;
}

static void *sender(void *arg)
{
	(void)arg;
	for (int i = 0; i < N; i++) {
		pthread_mutex_lock(&turn);
		if (send) {
			assert(append(i) == i);
			value = i;
			send = 0;
			receive = 1;
		}
		pthread_mutex_unlock(&turn);
	}
	return 0;
}

static void *receiver(void *arg)
{
	(void)arg;
	for (int i = 0; i < N; i++) {
		pthread_mutex_lock(&turn);
		if (receive) {
			assert(take() == value);
			receive = 0;
			send = 1;
		}
		pthread_mutex_unlock(&turn);
	}
	return 0;
}

int main(void)
{
	pthread_t s, r;

	pthread_mutex_init(&turn, 0);
	size = CAPACITY;
	next = 0;
	first = 0;
	send = 1;
	receive = 0;
	pthread_create(&s, 0, sender, 0);
	pthread_create(&r, 0, receiver, 0);
	pthread_join(s, 0);
	pthread_join(r, 0);
	return 0;
}
