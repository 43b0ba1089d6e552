// issue 15: every worker counts under its own mutex m1 while main checks
// under m2, with a global lock around each step (the shape of goblint's
// races-as-reachability tasks, N = 10000 threads). One worker between its
// increment and decrement is enough to fail main's check; among 31 running
// threads the search spends its time elsewhere, among 2 it finds it at
// once: a task run raises the thread bound in stages (cmd/mcr/task.go).
#include <assert.h>
#include <pthread.h>

#define N 10000

pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
int g;

void step(int d) {
  pthread_mutex_lock(&big);
  g += d;
  pthread_mutex_unlock(&big);
}

void *worker(void *arg) {
  pthread_mutex_lock(&m1);
  step(1);
  step(-1);
  pthread_mutex_unlock(&m1);
  return 0;
}

int main(void) {
  pthread_t ids[N];
  for (int i = 0; i < N; i++)
    pthread_create(&ids[i], 0, worker, 0);
  pthread_mutex_lock(&m2);
  pthread_mutex_lock(&big);
  assert(g == 0);
  pthread_mutex_unlock(&big);
  pthread_mutex_unlock(&m2);
  for (int i = 0; i < N; i++)
    pthread_join(ids[i], 0);
  return 0;
}
