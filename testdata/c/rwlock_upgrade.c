/* A thread that holds a reader-writer lock for reading asks for it for
   writing (a lock "upgrade"): the write lock waits for every reader to
   leave, itself included, so it waits forever. POSIX: "results are
   undefined if the calling thread holds the read-write lock (whether a read
   or write lock)"; a deadlock is what implementations do. */
#include <pthread.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int x;

void *upgrader(void *arg) {
  (void)arg;
  pthread_rwlock_rdlock(&l);
  if (x == 0) {
    pthread_rwlock_wrlock(&l);
    x = 1;
    pthread_rwlock_unlock(&l);
  }
  pthread_rwlock_unlock(&l);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, upgrader, NULL);
  pthread_join(t, NULL);
  return 0;
}
