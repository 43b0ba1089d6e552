// Inputs that matter to the path but never to the assertion: no violation,
// and the search is complete.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int x, n;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *a) {
	pthread_mutex_lock(&m);
	x += n;
	pthread_mutex_unlock(&m);
	return 0;
}
int main(void) {
	n = __VERIFIER_nondet_int();
	__VERIFIER_assume(0 <= n && n < 3);
	pthread_t a, b;
	pthread_create(&a, 0, t, 0);
	pthread_create(&b, 0, t, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	if (n == 2)
		assert(x == 4);
	else
		assert(x == 2 * n);
	return 0;
}
