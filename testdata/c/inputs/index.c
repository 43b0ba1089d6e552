// An input-dependent array index (concretised: each index value is a
// path of its own); the assertion fails only for i == 3.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int a[4];
int i;
void *t(void *arg) { a[i] = 1; return 0; }
int main(void) {
	i = __VERIFIER_nondet_int();
	__VERIFIER_assume(i >= 0 && i < 4);
	pthread_t th;
	pthread_create(&th, 0, t, 0);
	pthread_join(th, 0);
	assert(a[3] == 0);
	return 0;
}
