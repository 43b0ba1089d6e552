// The read of x in r takes 0 from w's write of its input n (0 in the first
// input vector) or from z's write of the constant 0: one value, two terms.
// Only the first makes r's assertion depend on n, and only n == 5 fails
// it. mcr's first execution has r read z's write, and no read-value map
// tells the other apart: a search by read values that trusted values
// would say "complete, no assertion" (it did). mcr sees that a read can
// take one value with two terms and explores the schedules again with rf.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int x;
void *r(void *a) { int v = x; assert(v != 5); return 0; }
void *w(void *a) { x = __VERIFIER_nondet_int(); return 0; }
void *z(void *a) { x = 0; return 0; }
int main(void) {
	pthread_t a, b, c;
	pthread_create(&a, 0, r, 0);
	pthread_create(&b, 0, w, 0);
	pthread_create(&c, 0, z, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	pthread_join(c, 0);
	return 0;
}
