/* once_init: two workers and main call pthread_once with the same routine; every caller returns only after it ran, exactly once: clean (issue 15). */
#include <pthread.h>
#include <assert.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
int inits, ready;
void init(void) { inits++; ready = 1; }
void *w(void *a) { pthread_once(&once, init); assert(ready == 1 && inits == 1); return 0; }
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
	pthread_once(&once, init);
	assert(inits == 1);
	pthread_join(a, 0); pthread_join(b, 0);
	return 0;
}
