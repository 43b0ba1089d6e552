// Inputs that never reach a decision: one input vector, complete.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int x;
void *t(void *a) { x = __VERIFIER_nondet_int(); return 0; }
int main(void) {
	pthread_t th;
	pthread_create(&th, 0, t, 0);
	pthread_join(th, 0);
	return 0;
}
