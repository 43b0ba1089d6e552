// issue 15: under SV-COMP's reading a pthread_mutex_lock whose result the
// program tests may fail (program/cfront/failinglock.go), so main's failure
// branch, which writes the counter unlocked, races with the worker. A plain
// check (locks never fail, as glibc's) finds no race.
#include <pthread.h>

int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m); // result dropped: always locks
  counter++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (pthread_mutex_lock(&m) != 0) {
    counter = -1; // only after a failed lock
    return 1;
  }
  counter++;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
