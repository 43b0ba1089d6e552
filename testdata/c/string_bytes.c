// issue 15: <string.h> functions run as C (program/cfront/libc.go), so each
// byte they read or write of shared memory is an event. The writer's strcpy
// stores 'a', 'b', 0 one at a time; main's strlen can meet the name half
// written ("a" with the 0 it started with): the assertion n != 1 fails, and
// the two race.
#include <assert.h>
#include <pthread.h>
#include <string.h>

char name[4];

void *writer(void *arg) {
  strcpy(name, "ab");
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  unsigned long n = strlen(name);
  assert(n != 1);
  pthread_join(t, 0);
  assert(strcmp(name, "ab") == 0 && memcmp(name, "ab", 3) == 0);
  return 0;
}
