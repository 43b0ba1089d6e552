// A nondet array whose element order matters to a lock-free algorithm: two
// threads publish a[0] and a[1] into a shared maximum. The compare-and-swap
// loop is correct; the read-then-write shortcut (SHORTCUT) loses the larger
// value when the thread with the larger element reads first and writes last,
// so the assertion fails only for inputs with a[0] != a[1] and such an
// interleaving (lockfree_max_shortcut.c).
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
unsigned char a[2];
atomic_int m;
void *publish(void *arg) {
	int v = a[(long)arg];
#ifdef SHORTCUT
	int old = atomic_load(&m);
	if (v > old)
		atomic_store(&m, v);
#else
	int old = atomic_load(&m);
	while (v > old && !atomic_compare_exchange_strong(&m, &old, v))
		;
#endif
	return 0;
}
int main(void) {
	for (int i = 0; i < 2; i++) {
		a[i] = __VERIFIER_nondet_uchar();
		__VERIFIER_assume(a[i] < 3);
	}
	pthread_t t0, t1;
	pthread_create(&t0, 0, publish, (void *)0);
	pthread_create(&t1, 0, publish, (void *)1);
	pthread_join(t0, 0);
	pthread_join(t1, 0);
	assert(m == (a[0] > a[1] ? a[0] : a[1]));
	return 0;
}
