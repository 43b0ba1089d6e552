// The input is read by a child thread; one value out of 256 sets the flag.
#include <pthread.h>
#include <assert.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
int flag;
void *t(void *arg) {
	unsigned char v = __VERIFIER_nondet_uchar();
	if (v == 200)
		flag = 1;
	return 0;
}
int main(void) {
	pthread_t th;
	pthread_create(&th, 0, t, 0);
	pthread_join(th, 0);
	assert(!flag);
	return 0;
}
