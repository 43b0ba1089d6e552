// An uninitialised address-taken local read through a pointer: its value
// is an input, and the branch on it is explored both ways (the assertion
// fails only when it starts as 7).
#include <assert.h>
static void check(int *p) {
	if (*p == 7)
		assert(0);
}
int main(void) {
	int v;
	check(&v);
	return 0;
}
