// An assertion that fails for one input value out of 2^32.
#include <assert.h>
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
	unsigned int v = __VERIFIER_nondet_uint();
	unsigned int w = v ^ 0x5a5a5a5a;
	assert(w + 1 != 0xdeadbef0);
	return 0;
}
