/* sem_trywait on a semaphore with one token and two takers: exactly one
   gets it, the other gets -1; after a sem_post the value is 1 again. The
   final checks use sem_getvalue. Clean. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

sem_t s;
int got;

void *taker(void *arg) {
  (void)arg;
  if (sem_trywait(&s) == 0)
    __atomic_fetch_add(&got, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  int v;
  sem_init(&s, 0, 1);
  pthread_create(&a, NULL, taker, NULL);
  pthread_create(&b, NULL, taker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(got == 1);
  sem_post(&s);
  sem_getvalue(&s, &v);
  assert(v == 1);
  return 0;
}
