// Message passing (MP): the writer stores the data, then the flag; the reader
// reads the flag, then the data. Under SC and TSO (one FIFO store buffer per
// thread) the data reaches memory before the flag, so a reader that sees the
// flag sees the data; under PSO (one buffer per location) the flag's write can
// be flushed first (004_fe58e94b2666f77b.txt Section 2.1). With -DFENCE, an
// atomic_thread_fence(memory_order_seq_cst) between the two stores drains the
// data first: clean under all three models. With -DREREAD the writer reads
// its data back before the flag: it forwards 42 from its own buffer, which
// says nothing about memory, so PSO's violation stays (a source filter that
// took a thread's read of its own write for a drained write lost it).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int data, flag;

void *writer(void *arg) {
	atomic_store_explicit(&data, 42, memory_order_relaxed);
#ifdef REREAD
	if (atomic_load_explicit(&data, memory_order_relaxed) != 42)
		return 0;
#endif
#ifdef FENCE
	atomic_thread_fence(memory_order_seq_cst);
#endif
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return 0;
}

void *reader(void *arg) {
	if (atomic_load_explicit(&flag, memory_order_relaxed) == 1)
		assert(atomic_load_explicit(&data, memory_order_relaxed) == 42);
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, writer, 0);
	pthread_create(&b, 0, reader, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
