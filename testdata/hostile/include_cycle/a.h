/* a.h and b.h include each other with no include guard: the preprocessor
   would follow the cycle forever. */
#include "b.h"
int fa(void);
