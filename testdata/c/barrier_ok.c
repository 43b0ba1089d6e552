/* Two workers each fill their own slot, meet at a barrier, then read the
   other's slot. The barrier orders the writes before the reads: clean.
   Exactly one of them is the serial thread. */
#include <assert.h>
#include <pthread.h>

pthread_barrier_t b;
int slot[2];
int serial;

void *worker(void *arg) {
  int i = (int)(long)arg;
  slot[i] = i + 1;
  if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD)
    __atomic_fetch_add(&serial, 1, __ATOMIC_SEQ_CST);
  assert(slot[1 - i] == 2 - i);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  pthread_barrier_init(&b, NULL, 2);
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  assert(serial == 1);
  pthread_barrier_destroy(&b);
  return 0;
}
