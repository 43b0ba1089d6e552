/* Two consumers take one item each from a counter of items; they wait with
   `if` instead of `while`. The producer adds one item and broadcasts, then
   another and broadcasts: a consumer woken by the first broadcast can find
   the item taken by the other, and takes from an empty buffer. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t more = PTHREAD_COND_INITIALIZER;
int items;

void *consumer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  if (items == 0)
    pthread_cond_wait(&more, &m);
  assert(items > 0);
  items = items - 1;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, consumer, NULL);
  pthread_create(&b, NULL, consumer, NULL);
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    items = items + 1;
    pthread_cond_broadcast(&more);
    pthread_mutex_unlock(&m);
  }
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
