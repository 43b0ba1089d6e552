// issue 15: a reader polls a flag and decides by an input whether to stop
// polling (the shape of SV-COMP's qrcu readers). An iteration in which the
// input said "go on" and the flag was unchanged keeps nothing: it is idle
// (program/cfront/idle.go), so the thread stops there instead of spinning
// to the event bound, and the search is complete: TRUE.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int ready, data;

void *reader(void *arg) {
  int r;
  while (1) {
    r = ready;
    if (__VERIFIER_nondet_int())
      break;
  }
  if (r)
    assert(data == 1);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  data = 1;
  ready = 1;
  pthread_join(t, 0);
  return 0;
}
