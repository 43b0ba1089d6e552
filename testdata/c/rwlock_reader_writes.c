/* Two threads increment a counter holding a reader-writer lock only for
   reading: readers share the lock, so the increments race and one can be
   lost. */
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t l;
int hits;

void *visit(void *arg) {
  (void)arg;
  pthread_rwlock_rdlock(&l);
  hits = hits + 1; /* a write under a read lock */
  pthread_rwlock_unlock(&l);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_rwlock_init(&l, NULL);
  pthread_create(&a, NULL, visit, NULL);
  pthread_create(&b, NULL, visit, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(hits == 2);
  pthread_rwlock_destroy(&l);
  return 0;
}
