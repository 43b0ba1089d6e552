/*
 * An out-of-bounds write (undefined behaviour) before a reachable
 * reach_error: mcr stops the thread at the runtime error, so it never sees
 * the call. For unreach-call that must be UNKNOWN, not TRUE: the program
 * after undefined behaviour was not explored (SV-COMP's ldv/goblint tasks
 * with out-of-bounds accesses gave a wrong TRUE before session 10).
 */
#include <stdlib.h>
extern void abort(void);
void reach_error(void) { abort(); }
int main(void)
{
	int *q = malloc(sizeof(int));
	q[1] = 0;
	reach_error();
	return 0;
}
