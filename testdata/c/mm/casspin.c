// A compare-and-swap spinlock whose unlock is a plain store, as x86 code
// releases a lock (`mov`): correct under SC and TSO, broken under PSO.
// Each thread tries to take the lock once with a strong compare-exchange
// (a locked instruction: it drains the store buffers, succeeds or fails;
// 004_fe58e94b2666f77b.txt Remark 1) and, holding it, writes or checks the
// pair (x, y), which the lock keeps equal. Under TSO the writer's buffer is
// FIFO, so x = 1 and y = 1 reach memory before lock = 0; under PSO each
// location has its own buffer and lock = 0 can overtake them: the reader
// takes the lock and sees x = 1, y = 0. With -DFENCE an
// atomic_thread_fence(memory_order_seq_cst) before the unlock (the
// store-store fence PSO needs; under TSO/PSO the fence drains every buffer)
// makes it correct under all three. Atomics, so that there is no data race
// under any model.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int lock, x, y;

void *writer(void *arg) {
	int expected = 0;
	if (atomic_compare_exchange_strong(&lock, &expected, 1)) {
		atomic_store_explicit(&x, 1, memory_order_relaxed);
		atomic_store_explicit(&y, 1, memory_order_relaxed);
#ifdef FENCE
		atomic_thread_fence(memory_order_seq_cst);
#endif
		atomic_store_explicit(&lock, 0, memory_order_relaxed);
	}
	return 0;
}

void *reader(void *arg) {
	int expected = 0;
	if (atomic_compare_exchange_strong(&lock, &expected, 1)) {
		int a = atomic_load_explicit(&x, memory_order_relaxed);
		int b = atomic_load_explicit(&y, memory_order_relaxed);
		assert(a == b);
		atomic_store_explicit(&lock, 0, memory_order_relaxed);
	}
	return 0;
}

int main(void) {
	pthread_t w, r;
	pthread_create(&w, 0, writer, 0);
	pthread_create(&r, 0, reader, 0);
	pthread_join(w, 0);
	pthread_join(r, 0);
	return 0;
}
