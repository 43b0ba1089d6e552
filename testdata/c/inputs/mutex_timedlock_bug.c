/* mutex_timedlock.c with BUG: the worker writes after its timeout. */
#define BUG
#include "mutex_timedlock.c"
