/* sem_timedwait.c with BUG: the consumer reads item even after a timeout. */
#define BUG
#include "sem_timedwait.c"
