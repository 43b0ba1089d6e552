// The assertion fails once main reads the child's first write; the child
// reads its input only after a later event, so the violation's witness
// has no function_return waypoint (the input comes after the target).
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g, h;
void *t(void *arg) {
	h = 1;
	pthread_mutex_lock(&m);
	g = __VERIFIER_nondet_int();
	pthread_mutex_unlock(&m);
	return 0;
}
int main(void) {
	pthread_t th;
	pthread_create(&th, 0, t, 0);
	int x = h;
	assert(x == 0);
	pthread_join(th, 0);
	return 0;
}
