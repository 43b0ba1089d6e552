// The number of threads is an input: n in 1..3 threads each add 1 to x
// atomically; the assertion fails only when n == 3.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int x;
void *t(void *a) {
	__atomic_fetch_add(&x, 1, __ATOMIC_SEQ_CST);
	return 0;
}
int main(void) {
	int n = __VERIFIER_nondet_int();
	__VERIFIER_assume(0 < n && n <= 3);
	pthread_t ts[3];
	for (int i = 0; i < n; i++)
		pthread_create(&ts[i], 0, t, 0);
	for (int i = 0; i < n; i++)
		pthread_join(ts[i], 0);
	assert(x != 3);
	return 0;
}
