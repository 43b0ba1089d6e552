/* The same cycle as include_cycle/, stopped by include guards. */
#ifndef A_H
#define A_H
#include "b.h"
int fa(void);
#endif
