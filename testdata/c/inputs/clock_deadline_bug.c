/* clock_deadline.c without the normalisation of the deadline. */
#define BUG
#include "clock_deadline.c"
