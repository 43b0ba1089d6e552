// A non-linear condition: x*x == 49. Z3 solves it; the explicit solver
// cannot enumerate 2^32 values and says the search is incomplete.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
	int x = __VERIFIER_nondet_int();
	assert(x * x != 49);
	return 0;
}
