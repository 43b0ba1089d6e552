/* cond_timedwait.c with its CHECK assertion: the waiter asserts that it was
   signalled, which fails through the timeout. */
#define CHECK
#include "cond_timedwait.c"
