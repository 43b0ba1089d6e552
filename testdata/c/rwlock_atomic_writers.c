/* The two-writer version of rwlock_counter.c, its reader-writer lock written with
   atomics and __VERIFIER_assume awaits: two writers add 2 to a counter in two steps
   under the write lock, main reads it under the read lock. The read lock tests and
   then increments (not one compare-exchange): a writer can take the lock in between
   and the reader's increment turns its -1 into 0, letting the other writer in too.
   Main then sees an odd count (assertion), and the writers' updates interleave.
   mcr-seeds reached 36 of the 42 outcomes (34 with Z3): the executions that stopped
   at main's failed assertion held none of the writers' later writes, so no seed
   could ask main to read them (runOn in mcr/mcr.go). It reaches all 42 now
   (TestSeedsRunOnPastViolations); see README.md for what the others still do. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

extern void __VERIFIER_assume(int cond);

atomic_int st; /* -1: a writer holds it; n >= 0: n readers hold it */
int count;

static void wrlock(void) {
  int e = 0;
  __VERIFIER_assume(atomic_compare_exchange_strong(&st, &e, -1));
}

static void wrunlock(void) { atomic_store(&st, 0); }

static void rdlock(void) {
  __VERIFIER_assume(atomic_load(&st) >= 0);
  atomic_fetch_add(&st, 1);
}

static void rdunlock(void) { atomic_fetch_sub(&st, 1); }

void *writer(void *arg) {
  (void)arg;
  wrlock();
  count = count + 1;
  count = count + 1;
  wrunlock();
  return NULL;
}

int main(void) {
  pthread_t w1, w2;
  pthread_create(&w1, NULL, writer, NULL);
  pthread_create(&w2, NULL, writer, NULL);
  rdlock();
  assert(count % 2 == 0);
  rdunlock();
  pthread_join(w1, NULL);
  pthread_join(w2, NULL);
  assert(count == 4);
  return 0;
}
