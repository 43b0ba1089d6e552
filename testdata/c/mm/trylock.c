// A trylock drains its thread's store buffer whether it succeeds or fails
// (a locked instruction on x86; program.Drains), so data = 1 reaches memory
// before flag = 1 under TSO and PSO: clean under all three models. With
// -DNOTRY (no trylock) PSO lets flag = 1 overtake data = 1: a violation.
// With -DHOLD main holds the lock across the join, so the first execution's
// trylock fails inside main's section, and the class where it succeeds
// before main's lock comes only from the lock rule for a failed trylock
// (seed 002 Section 7; explicit/rfsmc_relaxed_trylock.go, replaceFailed).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
atomic_int data, flag; // atomics: no data races, only the assertion
int won;

void *writer(void *arg) {
	atomic_store(&data, 1);
#ifndef NOTRY
	if (pthread_mutex_trylock(&m) == 0) {
		won = 1;
		pthread_mutex_unlock(&m);
	}
#endif
	atomic_store(&flag, 1);
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, writer, 0);
	pthread_mutex_lock(&m);
#ifdef HOLD
	pthread_join(t, 0);
#endif
	int f = atomic_load(&flag);
	int d = atomic_load(&data);
	pthread_mutex_unlock(&m);
#ifndef HOLD
	pthread_join(t, 0);
#endif
	assert(!(f == 1 && d == 0));
	return 0;
}
