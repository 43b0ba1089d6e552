/* A counter behind a POSIX spin lock (a mutex to mcr): clean. */
#include <assert.h>
#include <pthread.h>

pthread_spinlock_t s;
int count;

void *inc(void *arg) {
  (void)arg;
  pthread_spin_lock(&s);
  count = count + 1;
  pthread_spin_unlock(&s);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
  pthread_create(&a, NULL, inc, NULL);
  pthread_create(&b, NULL, inc, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(count == 2);
  pthread_spin_destroy(&s);
  return 0;
}
