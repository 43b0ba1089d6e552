/* SV-COMP's unreach-call property (issue 15): calling reach_error is the
   violation, whatever the task's definition of it does; here it does
   nothing, and the call was not reported. */
#include <pthread.h>

void reach_error(void) {}

int x;

void *worker(void *arg) {
  (void)arg;
  __atomic_store_n(&x, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  if (__atomic_load_n(&x, __ATOMIC_SEQ_CST) == 1)
    reach_error();
  pthread_join(t, NULL);
  return 0;
}
