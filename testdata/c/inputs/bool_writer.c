// A nondet bool chooses which thread writes x; the assertion fails only
// when thread 2 writes and main reads after it.
#include <pthread.h>
#include <assert.h>
extern _Bool __VERIFIER_nondet_bool(void);
int x, b;
void *t1(void *a) { if (!b) x = 1; return 0; }
void *t2(void *a) { if (b) x = 2; return 0; }
int main(void) {
	b = __VERIFIER_nondet_bool();
	pthread_t a1, a2;
	pthread_create(&a1, 0, t1, 0);
	pthread_create(&a2, 0, t2, 0);
	int v = x;
	assert(v != 2);
	pthread_join(a1, 0);
	pthread_join(a2, 0);
	return 0;
}
