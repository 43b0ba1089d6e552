// issue 15: readers poll a flag and decide by an input whether to stop
// polling (the shape of SV-COMP's qrcu readers; the second switches on the
// input, as ldv-races' thread loops do). An iteration in which the input
// said "go on" and the flag was unchanged keeps nothing: it is idle
// (program/cfront/idle.go; a switch's dead temporary is cleared), so the
// thread stops there instead of spinning to the event bound, and the
// search is complete: TRUE.
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

void *switcher(void *arg) {
  int r;
  while (1) {
    r = ready;
    switch (__VERIFIER_nondet_int()) {
    case 7:
      goto done;
    }
  }
done:
  if (r)
    assert(data == 1);
  return 0;
}

int main(void) {
  pthread_t t, u;
  pthread_create(&t, 0, reader, 0);
  pthread_create(&u, 0, switcher, 0);
  data = 1;
  ready = 1;
  pthread_join(t, 0);
  pthread_join(u, 0);
  return 0;
}
