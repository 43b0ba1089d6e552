#include "a.h"
int fb(void);
