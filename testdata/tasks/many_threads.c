// issue 15: main creates more threads than the thread bound (the shape of
// goblint-regression's races-as-reachability tasks), then checks that none
// has run yet. The threads beyond the bound are created but never run
// (program/cfront/threadbound.go), so main goes on to its assertion, which
// fails when a thread ran first: FALSE. Stopping main at the bound never
// reached it.
#include <assert.h>
#include <pthread.h>

#define N 10000

int started;

void *worker(void *arg) {
  started = 1;
  return 0;
}

int main(void) {
  pthread_t ids[N];
  for (int i = 0; i < N; i++)
    pthread_create(&ids[i], 0, worker, 0);
  assert(started == 0);
  for (int i = 0; i < N; i++)
    pthread_join(ids[i], 0);
  return 0;
}
