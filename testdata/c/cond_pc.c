/* A one-slot buffer guarded by a mutex and a condition variable: the
   producer fills it, the consumer waits in a loop until it is full. Clean. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t filled = PTHREAD_COND_INITIALIZER;
int full, item;

void *producer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  item = 42;
  full = 1;
  pthread_cond_signal(&filled);
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t p;
  pthread_create(&p, NULL, producer, NULL);
  pthread_mutex_lock(&m);
  while (!full)
    pthread_cond_wait(&filled, &m);
  assert(item == 42);
  pthread_mutex_unlock(&m);
  pthread_join(p, NULL);
  return 0;
}
