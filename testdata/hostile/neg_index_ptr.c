#include <stdlib.h>
int main(void) {
  int *p = malloc(4 * sizeof(int));
  int *q = p + 1;
  return q[-2];
}
