/* mcr's model of C11 <stdatomic.h>: each operation maps to one interpreter
   builtin; all are sequentially consistent (memory orders are accepted and
   ignored). The builtins are generic: the access width comes from the pointer
   argument's type. */
#ifndef _MCR_STDATOMIC_H
#define _MCR_STDATOMIC_H
#include <stddef.h>
#include <stdint.h>
typedef enum {
	memory_order_relaxed, memory_order_consume, memory_order_acquire,
	memory_order_release, memory_order_acq_rel, memory_order_seq_cst
} memory_order;
typedef _Atomic _Bool atomic_bool;
typedef _Atomic char atomic_char;
typedef _Atomic signed char atomic_schar;
typedef _Atomic unsigned char atomic_uchar;
typedef _Atomic short atomic_short;
typedef _Atomic unsigned short atomic_ushort;
typedef _Atomic int atomic_int;
typedef _Atomic unsigned int atomic_uint;
typedef _Atomic long atomic_long;
typedef _Atomic unsigned long atomic_ulong;
typedef _Atomic long long atomic_llong;
typedef _Atomic unsigned long long atomic_ullong;
typedef _Atomic intptr_t atomic_intptr_t;
typedef _Atomic uintptr_t atomic_uintptr_t;
typedef _Atomic size_t atomic_size_t;
typedef struct { _Bool __mcr_flag; } atomic_flag;
#define ATOMIC_FLAG_INIT { 0 }
#define ATOMIC_VAR_INIT(v) (v)
long __mcr_atomic_load(const volatile void *);
void __mcr_atomic_store(volatile void *, long);
long __mcr_atomic_exchange(volatile void *, long);
_Bool __mcr_atomic_cas(volatile void *, void *, long);
long __mcr_atomic_fetch_add(volatile void *, long);
long __mcr_atomic_fetch_sub(volatile void *, long);
long __mcr_atomic_fetch_and(volatile void *, long);
long __mcr_atomic_fetch_or(volatile void *, long);
long __mcr_atomic_fetch_xor(volatile void *, long);
void __mcr_fence(void);
#define atomic_init(p, v) __mcr_atomic_store((p), (v))
#define atomic_load(p) __mcr_atomic_load(p)
#define atomic_load_explicit(p, mo) __mcr_atomic_load(p)
#define atomic_store(p, v) __mcr_atomic_store((p), (v))
#define atomic_store_explicit(p, v, mo) __mcr_atomic_store((p), (v))
#define atomic_exchange(p, v) __mcr_atomic_exchange((p), (v))
#define atomic_exchange_explicit(p, v, mo) __mcr_atomic_exchange((p), (v))
#define atomic_compare_exchange_strong(p, e, d) __mcr_atomic_cas((p), (e), (d))
#define atomic_compare_exchange_weak(p, e, d) __mcr_atomic_cas((p), (e), (d))
#define atomic_compare_exchange_strong_explicit(p, e, d, s, f) __mcr_atomic_cas((p), (e), (d))
#define atomic_compare_exchange_weak_explicit(p, e, d, s, f) __mcr_atomic_cas((p), (e), (d))
#define atomic_fetch_add(p, v) __mcr_atomic_fetch_add((p), (v))
#define atomic_fetch_add_explicit(p, v, mo) __mcr_atomic_fetch_add((p), (v))
#define atomic_fetch_sub(p, v) __mcr_atomic_fetch_sub((p), (v))
#define atomic_fetch_sub_explicit(p, v, mo) __mcr_atomic_fetch_sub((p), (v))
#define atomic_fetch_and(p, v) __mcr_atomic_fetch_and((p), (v))
#define atomic_fetch_and_explicit(p, v, mo) __mcr_atomic_fetch_and((p), (v))
#define atomic_fetch_or(p, v) __mcr_atomic_fetch_or((p), (v))
#define atomic_fetch_or_explicit(p, v, mo) __mcr_atomic_fetch_or((p), (v))
#define atomic_fetch_xor(p, v) __mcr_atomic_fetch_xor((p), (v))
#define atomic_fetch_xor_explicit(p, v, mo) __mcr_atomic_fetch_xor((p), (v))
#define atomic_flag_test_and_set(p) ((_Bool)__mcr_atomic_exchange(&(p)->__mcr_flag, 1))
#define atomic_flag_test_and_set_explicit(p, mo) ((_Bool)__mcr_atomic_exchange(&(p)->__mcr_flag, 1))
#define atomic_flag_clear(p) __mcr_atomic_store(&(p)->__mcr_flag, 0)
#define atomic_flag_clear_explicit(p, mo) __mcr_atomic_store(&(p)->__mcr_flag, 0)
#define atomic_thread_fence(mo) __mcr_fence()
#define atomic_signal_fence(mo) ((void)0)
#define kill_dependency(y) (y)
#endif
