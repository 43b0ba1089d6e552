/* A ring buffer of SIZE slots with counting semaphores: `empty` counts free
   slots, `full` filled ones. One producer puts 1, ..., ITEMS; one consumer
   takes ITEMS items and checks their order. Each slot is written and read under
   the semaphores' ordering only (one producer, one consumer): clean. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

#ifndef SIZE
#define SIZE 2
#endif
#ifndef ITEMS
#define ITEMS 2
#endif
sem_t empty, full;
int buf[SIZE];

void *producer(void *arg) {
  (void)arg;
  for (int i = 0; i < ITEMS; i++) {
    sem_wait(&empty);
    buf[i % SIZE] = i + 1;
    sem_post(&full);
  }
  return NULL;
}

int main(void) {
  pthread_t p;
  sem_init(&empty, 0, SIZE);
  sem_init(&full, 0, 0);
  pthread_create(&p, NULL, producer, NULL);
  for (int i = 0; i < ITEMS; i++) {
    sem_wait(&full);
    assert(buf[i % SIZE] == i + 1);
    sem_post(&empty);
  }
  pthread_join(p, NULL);
  sem_destroy(&empty);
  sem_destroy(&full);
  return 0;
}
