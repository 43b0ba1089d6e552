/* 300 MB allocated over time, at most 1 MB live: freed blocks are credited
   against the interpreter's 256 MB heap limit. */
#include <stdlib.h>
int main(void) {
  char *p;
  for (int i = 0; i < 300; i++) {
    p = malloc(1 << 20);
    p[0] = 1;
    free(p);
  }
  return 0;
}
