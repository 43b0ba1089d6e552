// issue 15: a pthread_mutex_lock whose result is dropped (an expression
// statement, or cast to void) always locks, even where locks whose result
// is tested may fail (program/cfront/failinglock.go): no race.
#include <pthread.h>

int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  (void)pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  ((pthread_mutex_lock(&m)));
  counter++;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
