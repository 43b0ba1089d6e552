// Two threads increment a counter in loops longer than the event bound of
// the runs (max_events in bounded.json): every execution is cut, bounded.
// Under TSO and PSO, as under SC, a bounded execution is a reads-from class
// like any other: rf and mcr count it (bounded), mutate its reads and go
// on, and the search ends incomplete (exit 3) with what cut it
// (bounded_by), never at the first one.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x;

void *inc(void *arg) {
	for (int i = 0; i < 100; i++)
		atomic_store(&x, atomic_load(&x) + 1);
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, inc, 0);
	pthread_create(&b, 0, inc, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(atomic_load(&x) <= 200);
	return 0;
}
