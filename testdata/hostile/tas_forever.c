/* main creates threads forever; each takes a test-and-set lock forever.
   Without a thread bound one execution had 100,000 threads, and every
   explorer ran out of memory or past --timeout (the shape of SV-COMP's
   pthread-ext test-and-set tasks). */
#include <assert.h>
#include <pthread.h>
volatile int taken;
int inside;
void __VERIFIER_atomic_grab(volatile int *lock, int *was) {
  *was = *lock;
  *lock = 1;
}
void *worker(void *arg) {
  for (;;) {
    int was;
    do __VERIFIER_atomic_grab(&taken, &was); while (was);
    inside++;
    assert(inside == 1);
    inside--;
    taken = 0;
  }
  return 0;
}
int main(void) {
  pthread_t t;
  for (;;) pthread_create(&t, 0, worker, 0);
}
