/* Try-locks on a reader-writer lock: a writer that gets the lock with
   pthread_rwlock_trywrlock sets a pair of fields, a reader that gets it
   with pthread_rwlock_tryrdlock checks that the pair is consistent. A
   failed try changes nothing. Clean. */
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int lo, hi;

void *writer(void *arg) {
  (void)arg;
  if (pthread_rwlock_trywrlock(&l) == 0) {
    lo = 1;
    hi = 1;
    pthread_rwlock_unlock(&l);
  }
  return NULL;
}

void *reader(void *arg) {
  (void)arg;
  if (pthread_rwlock_tryrdlock(&l) == 0) {
    assert(lo == hi);
    pthread_rwlock_unlock(&l);
  }
  return NULL;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  return 0;
}
