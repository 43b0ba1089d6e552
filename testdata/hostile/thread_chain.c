/* Each thread creates and joins the next: the 2049th cannot get memory
   (the thread limit). The names of the threads grow with the depth
   (T0.0.0...), so one line must name the limit without the whole name. */
#include <pthread.h>
void *t(void *a) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  pthread_join(th, 0);
  return 0;
}
int main(void) {
  t(0);
  return 0;
}
