// lockfree_max.c with the read-then-write shortcut instead of the CAS loop:
// fails for a[0] != a[1] when the thread with the larger element reads
// first and writes last.
#define SHORTCUT
#include "lockfree_max.c"
