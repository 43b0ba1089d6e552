/* Each worker should write its slot before the barrier and read the
   other's after it. Worker 1 writes its slot one phase late, after the
   barrier: worker 0's read in the second phase races with that write and
   can see the old value (a phase bug), which main's check catches. */
#include <assert.h>
#include <pthread.h>

pthread_barrier_t b;
int slot[2];
int seen[2];

void *worker0(void *arg) {
  (void)arg;
  slot[0] = 1;
  pthread_barrier_wait(&b);
  seen[0] = slot[1];
  return NULL;
}

void *worker1(void *arg) {
  (void)arg;
  pthread_barrier_wait(&b);
  slot[1] = 1; /* belongs before the barrier */
  seen[1] = slot[0];
  return NULL;
}

int main(void) {
  pthread_t t0, t1;
  pthread_barrier_init(&b, NULL, 2);
  pthread_create(&t0, NULL, worker0, NULL);
  pthread_create(&t1, NULL, worker1, NULL);
  pthread_join(t0, NULL);
  pthread_join(t1, NULL);
  assert(seen[0] == 1 && seen[1] == 1);
  return 0;
}
