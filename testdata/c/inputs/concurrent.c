// Two threads branch on inputs of their own, with no causal order between
// the branches: rf reports its input exploration incomplete, dfs covers
// every (schedule, path) pair. The violation needs c1 && c2 and an
// interleaving.
#include <pthread.h>
#include <assert.h>
extern _Bool __VERIFIER_nondet_bool(void);
int x, y;
void *t1(void *a) {
	if (__VERIFIER_nondet_bool())
		x = 1;
	return 0;
}
void *t2(void *a) {
	if (__VERIFIER_nondet_bool())
		y = x + 1;
	return 0;
}
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, t1, 0);
	pthread_create(&b, 0, t2, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(y != 2);
	return 0;
}
