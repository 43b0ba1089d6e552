/* A negative size is the program's error, not a limit of the tool. */
#include <stdlib.h>
int main(void) {
  int n = -5;
  char *p = malloc(n);
  return p != 0;
}
