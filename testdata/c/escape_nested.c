/* A local reached by another thread only through a pointer stored in
   another local (issue 15): main's count is shared once the box holding
   its address is passed to the thread. Before escape was transitive the
   count stayed private: its accesses were no events, and the race between
   main's and the thread's increments was never seen. */
#include <pthread.h>
#include <stddef.h>

struct box {
  int *count;
};

void *worker(void *arg) {
  struct box *b = arg;
  *b->count = *b->count + 1;
  return NULL;
}

int main(void) {
  int count = 0;
  struct box b = {&count};
  pthread_t t;
  pthread_create(&t, NULL, worker, &b);
  count = count + 1;
  pthread_join(t, NULL);
  return 0;
}
