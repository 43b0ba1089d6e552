/* Two million heap blocks, one live at a time: beyond the allocations one
   thread can number (2^20), a limit of the tool. */
#include <stdlib.h>
int main(void) {
  for (int i = 0; i < 2000000; i++) {
    char *p = malloc(1);
    free(p);
  }
  return 0;
}
