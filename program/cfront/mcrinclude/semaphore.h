/* mcr's model of <semaphore.h>: unnamed semaphores (semaphore.go). */
#ifndef _SEMAPHORE_H
/* glibc's guard name: <bits/semaphore.h> insists on it */
#define _SEMAPHORE_H 1
#include <sys/types.h>
/* sem_t is glibc's (32 bytes); the model uses its first four. */
#include <bits/semaphore.h>
int sem_init(sem_t *, int, unsigned);
int sem_destroy(sem_t *);
int sem_wait(sem_t *);
int sem_trywait(sem_t *);
int sem_post(sem_t *);
int sem_getvalue(sem_t *, int *);
/* Declared so that programs using them parse; calling them is reported as unsupported. */
struct timespec;
int sem_timedwait(sem_t *, const struct timespec *);
sem_t *sem_open(const char *, int, ...);
#endif
