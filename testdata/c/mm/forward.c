// Store-buffer forwarding: a thread reads its own latest buffered write,
// whole or in part (a byte of a buffered int), before it reaches memory,
// while another thread may still see the old value. Clean under every model.
#include <pthread.h>
#include <assert.h>

union { int w; unsigned char b[4]; } u;
int x, seen;

void *t0(void *arg) {
	x = 1;
	x = 2;
	assert(x == 2);
	return 0;
}

void *t1(void *arg) {
	seen = x; // 0, 1 or 2: races with t0's writes
	return 0;
}

int main(void) {
	pthread_t a, b;
	u.w = 0x01020304; // buffered until the fork drains it
	assert(u.b[0] == 4 && u.w == 0x01020304);
	pthread_create(&a, 0, t0, 0);
	pthread_create(&b, 0, t1, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(x == 2 && u.w == 0x01020304);
	return 0;
}
