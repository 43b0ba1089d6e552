/* 300 MB live at once: beyond the interpreter's heap limit, which is a
   limit of the tool (exit 3), not an error of the program. */
#include <stdlib.h>
char *blocks[300];
int main(void) {
  for (int i = 0; i < 300; i++)
    blocks[i] = malloc(1 << 20);
  return 0;
}
