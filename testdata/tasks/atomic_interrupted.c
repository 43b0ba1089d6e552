// atomic_interrupted: a write outside any atomic section lands between two
// accesses inside one. SV-COMP runs an atomic section without interruption,
// so the check in deposit never fails (unreach-call true), but the two
// writes of balance race (no-data-race false). The lock that models the
// section lets reset's write in; the failure that needs it is no run.
#include <pthread.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void reach_error(void);

int balance;

void *deposit(void *arg) {
  __VERIFIER_atomic_begin();
  balance = 10;
  int seen = balance;
  __VERIFIER_atomic_end();
  if (seen != 10)
    reach_error();
  return 0;
}

void *reset(void *arg) {
  balance = 0;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, deposit, 0);
  pthread_create(&b, 0, reset, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
