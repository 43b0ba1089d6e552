#ifndef B_H
#define B_H
#include "a.h"
int fb(void);
#endif
