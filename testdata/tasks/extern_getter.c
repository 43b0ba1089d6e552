// extern_getter: the program declares a getter it never defines. Some
// definition returns the same account to both threads, whose updates then
// race (no-data-race false); what else the getter may do is not explored,
// so the assertion-free unreach-call search can never be complete.
#include <pthread.h>

struct account {
  int balance;
  pthread_mutex_t lock;
};

extern struct account *current_account(void);

void *worker(void *arg) {
  struct account *a = current_account();
  a->balance += 10;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  struct account *a = current_account();
  a->balance -= 5;
  pthread_join(t, 0);
  return 0;
}
