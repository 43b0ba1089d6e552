/* Single-threaded semantics of the synchronisation primitives of sync_test.go
   (rwlock.go, barrier.go, semaphore.go, spin locks): return values of the
   try operations, barrier serial thread, semaphore counts. Built with gcc
   too, against glibc, whose answers must be the same. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
pthread_barrier_t b;
pthread_spinlock_t s;
sem_t sem;

int main(void) {
  /* reader-writer lock: readers share, a writer excludes */
  assert(pthread_rwlock_rdlock(&l) == 0);
  assert(pthread_rwlock_tryrdlock(&l) == 0);
  assert(pthread_rwlock_trywrlock(&l) == EBUSY);
  assert(pthread_rwlock_unlock(&l) == 0);
  assert(pthread_rwlock_unlock(&l) == 0);
  assert(pthread_rwlock_trywrlock(&l) == 0);
  assert(pthread_rwlock_tryrdlock(&l) == EBUSY);
  assert(pthread_rwlock_trywrlock(&l) == EBUSY);
  assert(pthread_rwlock_unlock(&l) == 0);
  assert(pthread_rwlock_wrlock(&l) == 0);
  assert(pthread_rwlock_unlock(&l) == 0);
  assert(pthread_rwlock_destroy(&l) == 0);
  assert(pthread_rwlock_init(&l, NULL) == 0);
  assert(pthread_rwlock_trywrlock(&l) == 0);
  assert(pthread_rwlock_unlock(&l) == 0);

  /* a barrier for one thread: every wait is the serial one */
  assert(pthread_barrier_init(&b, NULL, 0) == EINVAL);
  assert(pthread_barrier_init(&b, NULL, 1) == 0);
  assert(pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD);
  assert(pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD);
  assert(pthread_barrier_destroy(&b) == 0);

  /* semaphore: the value counts posts minus waits */
  int v = -1;
  assert(sem_init(&sem, 0, 2) == 0);
  assert(sem_getvalue(&sem, &v) == 0 && v == 2);
  assert(sem_wait(&sem) == 0);
  assert(sem_trywait(&sem) == 0);
  assert(sem_trywait(&sem) == -1);
  assert(sem_post(&sem) == 0);
  assert(sem_getvalue(&sem, &v) == 0 && v == 1);
  assert(sem_trywait(&sem) == 0);
  assert(sem_destroy(&sem) == 0);

  /* spin lock */
  assert(pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE) == 0);
  assert(pthread_spin_trylock(&s) == 0);
  assert(pthread_spin_trylock(&s) == EBUSY);
  assert(pthread_spin_unlock(&s) == 0);
  assert(pthread_spin_lock(&s) == 0);
  assert(pthread_spin_unlock(&s) == 0);
  assert(pthread_spin_destroy(&s) == 0);
  return 0;
}
