// issue 15: a switch on a shared value, with fall-through and a default;
// its temporary is cleared once a case is chosen (program/cfront/stmt.go),
// which must not change what the cases see.
#include <assert.h>
#include <pthread.h>

int x, y;

void *writer(void *arg) {
  x = 2;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  int seen = 0;
  switch (x) {
  case 2:
    seen += 10;
    /* fall through */
  case 1:
    seen += 1;
    break;
  default:
    seen = 100;
  }
  y = seen;
  pthread_join(t, 0);
  assert(y == 11 || y == 100);
  assert(y != 100);
  return 0;
}
