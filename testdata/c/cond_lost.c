/* A lost wake-up: the waiter waits without checking a condition, so a
   signal sent before it waits is lost and it waits forever (a deadlock). */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t go = PTHREAD_COND_INITIALIZER;

void *waiter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  pthread_cond_wait(&go, &m);
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, NULL, waiter, NULL);
  pthread_mutex_lock(&m);
  pthread_cond_signal(&go);
  pthread_mutex_unlock(&m);
  pthread_join(w, NULL);
  return 0;
}
