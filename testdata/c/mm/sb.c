// Store buffering (SB): each thread writes its flag, then reads the other's.
// Under SC some write comes first, so at least one read sees 1; under TSO and
// PSO both writes can wait in their store buffers while both reads see 0
// (004_fe58e94b2666f77b.txt Section 2.1). With -DFENCE, an
// atomic_thread_fence(memory_order_seq_cst) between each write and read
// drains the buffer first: clean under all three models. Atomics, so that
// there is no data race under any model.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int x, y;
int r1, r2;

void *t0(void *arg) {
	atomic_store_explicit(&x, 1, memory_order_relaxed);
#ifdef FENCE
	atomic_thread_fence(memory_order_seq_cst);
#endif
	r1 = atomic_load_explicit(&y, memory_order_relaxed);
	return 0;
}

void *t1(void *arg) {
	atomic_store_explicit(&y, 1, memory_order_relaxed);
#ifdef FENCE
	atomic_thread_fence(memory_order_seq_cst);
#endif
	r2 = atomic_load_explicit(&x, memory_order_relaxed);
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, t0, 0);
	pthread_create(&b, 0, t1, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(r1 == 1 || r2 == 1);
	return 0;
}
