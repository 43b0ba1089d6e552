/* A barrier phase bug written with atomic flags and spin-loop awaits: worker 0 reads slot[1] after the "barrier", worker 1 writes it after too. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int a0, a1;
int slot[2];
void *worker0(void *arg) {
  slot[0] = 1;
  atomic_store(&a0, 1);
  while (!atomic_load(&a1));
  assert(slot[1] == 1);
  return NULL;
}
void *worker1(void *arg) {
  atomic_store(&a1, 1);
  while (!atomic_load(&a0));
  slot[1] = 1;
  assert(slot[0] == 1);
  return NULL;
}
int main(void) {
  pthread_t t0, t1;
  pthread_create(&t0, NULL, worker0, NULL);
  pthread_create(&t1, NULL, worker1, NULL);
  pthread_join(t0, NULL);
  pthread_join(t1, NULL);
  return 0;
}
