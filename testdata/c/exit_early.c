/* An exit that hides a write (issue 15): main exits when it reads x = 0,
   else it fails an assertion. Run as the lowest thread first, main reads
   x = 0 before the worker runs; ending the execution at the exit left the
   worker's store out of the trace, and rf and mcr-seeds never tried x = 1.
   exit stops its thread and the others run on (the exit executed last). */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int x;

void *worker(void *arg) {
  (void)arg;
  x = 1;
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  if (x == 0)
    exit(0);
  assert(x == 0);
  return 0;
}
