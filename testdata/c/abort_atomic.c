/* SV-COMP's way to write an assumption (issue 15): abort() inside a
   __VERIFIER_atomic_ function ends the program, so a thread that finds the
   flag taken ends the run there. abort is not a violation, and the threads
   left waiting for the atomic section it holds are not a deadlock: the
   execution is blocked. Between take and give only the thread that took
   the flag runs, so the assertion holds and the counter is race free (its
   accesses are ordered by the atomic sections). */
#include <assert.h>
#include <pthread.h>

extern void abort(void);

int taken, count;

void __VERIFIER_atomic_take(void) {
  if (taken)
    abort();
  taken = 1;
}

void __VERIFIER_atomic_give(void) { taken = 0; }

void *worker(void *arg) {
  (void)arg;
  __VERIFIER_atomic_take();
  count = count + 1;
  assert(count == 1);
  count = count - 1;
  __VERIFIER_atomic_give();
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
