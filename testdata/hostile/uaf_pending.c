/* T0.0 frees the block while T0's read of it is pending: when the read
   fires it is a use after free, not a crash of the interpreter. */
#include <pthread.h>
#include <stdlib.h>
int *p;
void *t(void *a) {
  free(p);
  return 0;
}
int main(void) {
  pthread_t th;
  p = malloc(sizeof(int));
  pthread_create(&th, 0, t, 0);
  int v = *p;
  pthread_join(th, 0);
  return v;
}
