/* A semaphore meant as a lock but initialised to 2: both threads can be
   inside the "critical section" at once, and an update is lost. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

sem_t s;
int balance;

void *deposit(void *arg) {
  (void)arg;
  sem_wait(&s);
  balance = balance + 10;
  sem_post(&s);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  sem_init(&s, 0, 2); /* should be 1 */
  pthread_create(&a, NULL, deposit, NULL);
  pthread_create(&b, NULL, deposit, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(balance == 20);
  return 0;
}
