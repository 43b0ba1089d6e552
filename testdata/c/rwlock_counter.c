/* A counter behind a reader-writer lock: a writer adds 2 to it in two
   steps under the write lock, main reads it under the read lock and never
   sees the odd value in between. Clean. */
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int count;

void *writer(void *arg) {
  (void)arg;
  pthread_rwlock_wrlock(&l);
  count = count + 1;
  count = count + 1;
  pthread_rwlock_unlock(&l);
  return NULL;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, NULL, writer, NULL);
  pthread_rwlock_rdlock(&l);
  assert(count % 2 == 0);
  pthread_rwlock_unlock(&l);
  pthread_join(w, NULL);
  assert(count == 2);
  return 0;
}
