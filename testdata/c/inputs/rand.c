// rand() as an input (mcr check --rand-inputs): a worker thread races on
// `hits` only when the random draw is below 100; srand is a no-op. Without
// the flag the first call of rand ends its execution (unmodelled) and the
// search is incomplete.
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
int hits;
void *worker(void *a) {
	hits++;
	return 0;
}
int main(void) {
	pthread_t t;
	srand(42);
	int r = rand();
	if (r < 0)
		return 1; // never: rand() is in [0, RAND_MAX]
	pthread_create(&t, 0, worker, 0);
	if (r < 100)
		hits++;
	pthread_join(t, 0);
	return 0;
}
