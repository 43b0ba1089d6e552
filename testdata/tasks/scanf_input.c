// issue 15: scanf reads an input (program/cfront/scanf.go): the result is
// EOF or the number of conversions made, each converted value any value
// of its type, the objects of the conversions not made left alone. Main
// reads the limit while the worker reads it unlocked: a race. The
// assertion holds on every outcome (the limit is written only when the
// result says so).
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

int limit = 10;

void *worker(void *arg) {
  int l = limit;
  (void)l;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int r = scanf("%d", &limit);
  if (r != 1)
    assert(limit == 10);
  pthread_join(t, 0);
  return 0;
}
