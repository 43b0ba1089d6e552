/* A barrier for three threads that only two ever reach: both wait
   forever (a deadlock). */
#include <pthread.h>

pthread_barrier_t b;

void *worker(void *arg) {
  (void)arg;
  pthread_barrier_wait(&b);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  pthread_barrier_init(&b, NULL, 3);
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  return 0;
}
