/* mcr_z3.h: the C helpers of the Z3 binding (z3_cgo.go includes it; it is
   not a public header). Every Z3 call that can fail goes through one of them,
   so that a Go operation costs one cgo call and the error of that call is
   read on the OS thread that made it. */
#ifndef MCR_Z3_H
#define MCR_Z3_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

// mcr_err is the first Z3 error code reported on this OS thread since the last mcr_begin. A cgo call runs
// on one thread from start to end, so each helper sees exactly the errors of its own Z3 calls. This header
// is compiled once per cgo file (z3_cgo.go, bv_cgo.go); z3_cgo.go defines mcr_err, which they all share.
extern __thread int mcr_err;

static void mcr_on_error(Z3_context c, Z3_error_code e) {
	(void)c;
	if (mcr_err == Z3_OK) mcr_err = (int)e;
}

static void mcr_begin(void) { mcr_err = Z3_OK; }

// mcr_fail is the error to report for a helper whose Z3 call returned no result: Z3's code if it gave one.
static int mcr_fail(void) { return mcr_err != Z3_OK ? mcr_err : Z3_EXCEPTION; }

// width is the bit-vector width of a if a bit-vector helper made it (see mcr_keep_bv), else 0.
typedef struct { Z3_ast a; int err; unsigned width; } mcr_ast;

// mcr_keep ends an AST constructor: on success it takes one reference to a for the Go arena.
static mcr_ast mcr_keep(Z3_context c, Z3_ast a) {
	mcr_ast r = {NULL, Z3_OK, 0};
	if (mcr_err != Z3_OK || a == NULL) {
		r.err = mcr_fail();
		return r;
	}
	Z3_inc_ref(c, a);
	r.a = a;
	return r;
}

typedef struct { Z3_context c; Z3_sort ints; } mcr_context;

static mcr_context mcr_new_context(void) {
	mcr_context r = {NULL, NULL};
	Z3_config cfg = Z3_mk_config();
	if (cfg == NULL) return r;
	Z3_context c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (c == NULL) return r;
	Z3_set_error_handler(c, mcr_on_error);
	mcr_begin();
	Z3_sort ints = Z3_mk_int_sort(c);
	if (mcr_err != Z3_OK || ints == NULL) {
		Z3_del_context(c);
		return r;
	}
	Z3_inc_ref(c, Z3_sort_to_ast(c, ints));
	r.c = c;
	r.ints = ints;
	return r;
}

static void mcr_del_context(Z3_context c, Z3_sort ints) {
	Z3_dec_ref(c, Z3_sort_to_ast(c, ints));
	Z3_del_context(c);
}

static void mcr_dec_refs(Z3_context c, Z3_ast *as, size_t n) {
	for (size_t i = 0; i < n; i++) Z3_dec_ref(c, as[i]);
}

// mcr_mk_var makes the integer constant called name, or "o<idx>" if name is NULL.
static mcr_ast mcr_mk_var(Z3_context c, Z3_sort ints, const char *name, long long idx) {
	char buf[32];
	mcr_begin();
	if (name == NULL) {
		snprintf(buf, sizeof buf, "o%lld", idx);
		name = buf;
	}
	Z3_symbol sym = Z3_mk_string_symbol(c, name);
	if (mcr_err != Z3_OK) return mcr_keep(c, NULL);
	return mcr_keep(c, Z3_mk_const(c, sym, ints));
}

// mcr_mk_bool_var makes the boolean constant "b<idx>".
static mcr_ast mcr_mk_bool_var(Z3_context c, long long idx) {
	char buf[32];
	mcr_begin();
	snprintf(buf, sizeof buf, "b%lld", idx);
	Z3_symbol sym = Z3_mk_string_symbol(c, buf);
	if (mcr_err != Z3_OK) return mcr_keep(c, NULL);
	Z3_sort b = Z3_mk_bool_sort(c);
	if (mcr_err != Z3_OK) return mcr_keep(c, NULL);
	return mcr_keep(c, Z3_mk_const(c, sym, b));
}

static mcr_ast mcr_mk_int(Z3_context c, Z3_sort ints, int64_t v) {
	mcr_begin();
	return mcr_keep(c, Z3_mk_int64(c, v, ints));
}

static mcr_ast mcr_mk_bool(Z3_context c, bool v) {
	mcr_begin();
	return mcr_keep(c, v ? Z3_mk_true(c) : Z3_mk_false(c));
}

enum { MCR_LT, MCR_LE, MCR_EQ, MCR_GE, MCR_GT, MCR_IMPLIES, MCR_ADD, MCR_SUB, MCR_AND, MCR_OR, MCR_DISTINCT };

static mcr_ast mcr_mk_binary(Z3_context c, int op, Z3_ast a, Z3_ast b) {
	Z3_ast r = NULL;
	mcr_begin();
	switch (op) {
	case MCR_LT: r = Z3_mk_lt(c, a, b); break;
	case MCR_LE: r = Z3_mk_le(c, a, b); break;
	case MCR_EQ: r = Z3_mk_eq(c, a, b); break;
	case MCR_GE: r = Z3_mk_ge(c, a, b); break;
	case MCR_GT: r = Z3_mk_gt(c, a, b); break;
	case MCR_IMPLIES: r = Z3_mk_implies(c, a, b); break;
	}
	return mcr_keep(c, r);
}

static mcr_ast mcr_mk_nary(Z3_context c, int op, unsigned n, Z3_ast *args) {
	Z3_ast r = NULL;
	mcr_begin();
	switch (op) {
	case MCR_AND: r = Z3_mk_and(c, n, args); break;
	case MCR_OR: r = Z3_mk_or(c, n, args); break;
	case MCR_DISTINCT: r = Z3_mk_distinct(c, n, args); break;
	}
	return mcr_keep(c, r);
}

static mcr_ast mcr_mk_not(Z3_context c, Z3_ast a) {
	mcr_begin();
	return mcr_keep(c, Z3_mk_not(c, a));
}

// mcr_mk_offset makes t + k (op MCR_ADD) or t - k (op MCR_SUB).
static mcr_ast mcr_mk_offset(Z3_context c, Z3_sort ints, int op, Z3_ast t, int64_t k) {
	mcr_begin();
	Z3_ast lit = Z3_mk_int64(c, k, ints);
	if (mcr_err != Z3_OK || lit == NULL) return mcr_keep(c, NULL);
	Z3_inc_ref(c, lit);
	Z3_ast args[2] = {t, lit};
	mcr_ast r = mcr_keep(c, op == MCR_SUB ? Z3_mk_sub(c, 2, args) : Z3_mk_add(c, 2, args));
	Z3_dec_ref(c, lit);
	return r;
}

// mcr_keep_bv is mcr_keep that also reads a's width: 0 if a is not a bit-vector.
static mcr_ast mcr_keep_bv(Z3_context c, Z3_ast a) {
	mcr_ast r = mcr_keep(c, a);
	if (r.a == NULL) return r;
	Z3_sort s = Z3_get_sort(c, r.a);
	if (Z3_get_sort_kind(c, s) == Z3_BV_SORT) r.width = Z3_get_bv_sort_size(c, s);
	return r;
}

typedef struct { Z3_sort s; int err; } mcr_sort;

// mcr_bv_sort makes the bit-vector sort of the given width and takes one reference to it.
static mcr_sort mcr_bv_sort(Z3_context c, unsigned width) {
	mcr_sort r = {NULL, Z3_OK};
	mcr_begin();
	Z3_sort s = Z3_mk_bv_sort(c, width);
	if (mcr_err != Z3_OK || s == NULL) {
		r.err = mcr_fail();
		return r;
	}
	Z3_inc_ref(c, Z3_sort_to_ast(c, s));
	r.s = s;
	return r;
}

static void mcr_dec_sort(Z3_context c, Z3_sort s) { Z3_dec_ref(c, Z3_sort_to_ast(c, s)); }

// mcr_mk_bv_var makes the constant called name of the bit-vector sort bv.
static mcr_ast mcr_mk_bv_var(Z3_context c, Z3_sort bv, const char *name) {
	mcr_begin();
	Z3_symbol sym = Z3_mk_string_symbol(c, name);
	if (mcr_err != Z3_OK) return mcr_keep(c, NULL);
	return mcr_keep_bv(c, Z3_mk_const(c, sym, bv));
}

static mcr_ast mcr_mk_bv(Z3_context c, Z3_sort bv, uint64_t v) {
	mcr_begin();
	return mcr_keep_bv(c, Z3_mk_unsigned_int64(c, v, bv));
}

// The bit-vector operations of mcr_mk_bv_binary; z3_cgo.go maps BVOp and BVCmp to them.
enum {
	MCR_BVADD, MCR_BVSUB, MCR_BVMUL, MCR_BVSDIV, MCR_BVUDIV, MCR_BVSREM, MCR_BVUREM, MCR_BVAND, MCR_BVOR,
	MCR_BVXOR, MCR_BVSHL, MCR_BVLSHR, MCR_BVASHR,
	MCR_BVEQ, MCR_BVNE, MCR_BVSLT, MCR_BVSLE, MCR_BVSGT, MCR_BVSGE, MCR_BVULT, MCR_BVULE, MCR_BVUGT, MCR_BVUGE
};

static mcr_ast mcr_mk_bv_binary(Z3_context c, int op, Z3_ast a, Z3_ast b) {
	Z3_ast r = NULL, ab[2] = {a, b};
	mcr_begin();
	switch (op) {
	case MCR_BVADD: r = Z3_mk_bvadd(c, a, b); break;
	case MCR_BVSUB: r = Z3_mk_bvsub(c, a, b); break;
	case MCR_BVMUL: r = Z3_mk_bvmul(c, a, b); break;
	case MCR_BVSDIV: r = Z3_mk_bvsdiv(c, a, b); break;
	case MCR_BVUDIV: r = Z3_mk_bvudiv(c, a, b); break;
	case MCR_BVSREM: r = Z3_mk_bvsrem(c, a, b); break;
	case MCR_BVUREM: r = Z3_mk_bvurem(c, a, b); break;
	case MCR_BVAND: r = Z3_mk_bvand(c, a, b); break;
	case MCR_BVOR: r = Z3_mk_bvor(c, a, b); break;
	case MCR_BVXOR: r = Z3_mk_bvxor(c, a, b); break;
	case MCR_BVSHL: r = Z3_mk_bvshl(c, a, b); break;
	case MCR_BVLSHR: r = Z3_mk_bvlshr(c, a, b); break;
	case MCR_BVASHR: r = Z3_mk_bvashr(c, a, b); break;
	case MCR_BVEQ: r = Z3_mk_eq(c, a, b); break;
	case MCR_BVNE: r = Z3_mk_distinct(c, 2, ab); break;
	case MCR_BVSLT: r = Z3_mk_bvslt(c, a, b); break;
	case MCR_BVSLE: r = Z3_mk_bvsle(c, a, b); break;
	case MCR_BVSGT: r = Z3_mk_bvsgt(c, a, b); break;
	case MCR_BVSGE: r = Z3_mk_bvsge(c, a, b); break;
	case MCR_BVULT: r = Z3_mk_bvult(c, a, b); break;
	case MCR_BVULE: r = Z3_mk_bvule(c, a, b); break;
	case MCR_BVUGT: r = Z3_mk_bvugt(c, a, b); break;
	case MCR_BVUGE: r = Z3_mk_bvuge(c, a, b); break;
	}
	return mcr_keep_bv(c, r);
}

enum { MCR_BVNEG, MCR_BVNOT, MCR_EXTRACT, MCR_SIGN_EXT, MCR_ZERO_EXT };

// mcr_mk_bv_unary makes -a, ~a, bits i..j of a, or a extended by i bits.
static mcr_ast mcr_mk_bv_unary(Z3_context c, int op, Z3_ast a, unsigned i, unsigned j) {
	Z3_ast r = NULL;
	mcr_begin();
	switch (op) {
	case MCR_BVNEG: r = Z3_mk_bvneg(c, a); break;
	case MCR_BVNOT: r = Z3_mk_bvnot(c, a); break;
	case MCR_EXTRACT: r = Z3_mk_extract(c, i, j, a); break;
	case MCR_SIGN_EXT: r = Z3_mk_sign_ext(c, i, a); break;
	case MCR_ZERO_EXT: r = Z3_mk_zero_ext(c, i, a); break;
	}
	return mcr_keep_bv(c, r);
}

static mcr_ast mcr_mk_ite(Z3_context c, Z3_ast cond, Z3_ast a, Z3_ast b) {
	mcr_begin();
	return mcr_keep_bv(c, Z3_mk_ite(c, cond, a, b));
}

// mcr_mk_bool_to_bv makes ite(cond, 1, 0) of the bit-vector sort bv.
static mcr_ast mcr_mk_bool_to_bv(Z3_context c, Z3_sort bv, Z3_ast cond) {
	mcr_begin();
	Z3_ast one = Z3_mk_unsigned_int64(c, 1, bv);
	if (mcr_err != Z3_OK || one == NULL) return mcr_keep(c, NULL);
	Z3_inc_ref(c, one);
	Z3_ast zero = Z3_mk_unsigned_int64(c, 0, bv);
	if (mcr_err != Z3_OK || zero == NULL) {
		Z3_dec_ref(c, one);
		return mcr_keep(c, NULL);
	}
	Z3_inc_ref(c, zero);
	mcr_ast r = mcr_keep_bv(c, Z3_mk_ite(c, cond, one, zero));
	Z3_dec_ref(c, one);
	Z3_dec_ref(c, zero);
	return r;
}

typedef struct { Z3_solver s; int err; } mcr_solver;

// The kinds of mcr_new_solver.
enum { MCR_DEFAULT, MCR_IDL, MCR_DL };

// mcr_new_solver makes a solver for the logic QF_IDL (MCR_IDL), Z3's default solver, which picks its
// tactic from the assertions at each Check (MCR_DEFAULT), or Z3's incremental SMT core without
// preprocessing (MCR_DL; mcr_set_params gives it the difference-logic theory).
static mcr_solver mcr_new_solver(Z3_context c, int kind) {
	mcr_solver r = {NULL, Z3_OK};
	mcr_begin();
	Z3_solver s = NULL;
	if (kind == MCR_DL) {
		s = Z3_mk_simple_solver(c);
	} else if (kind == MCR_IDL) {
		Z3_symbol logic = Z3_mk_string_symbol(c, "QF_IDL");
		if (mcr_err == Z3_OK) s = Z3_mk_solver_for_logic(c, logic);
	} else {
		s = Z3_mk_solver(c);
	}
	if (mcr_err != Z3_OK || s == NULL) {
		r.err = mcr_fail();
		return r;
	}
	Z3_solver_inc_ref(c, s);
	r.s = s;
	return r;
}

// mcr_set_params sets the solver's timeout (UINT_MAX: none) and resource limit per check (rlimit, in Z3's
// resource units; 0: none), and turns off Z3's SIGINT handler, which would otherwise replace Go's during
// every check. Z3_solver_check applies rlimit to each check on its own (a limit relative to the count at
// the check's start). dl selects the sparse difference-logic theory (arith.solver 1, Bellman-Ford over
// the atoms' graph) for a solver of kind MCR_DL.
static int mcr_set_params(Z3_context c, Z3_solver s, unsigned timeout_ms, unsigned rlimit, bool dl) {
	mcr_begin();
	Z3_params p = Z3_mk_params(c);
	if (mcr_err != Z3_OK || p == NULL) return mcr_fail();
	Z3_params_inc_ref(c, p);
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), timeout_ms);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"), rlimit);
	if (dl) Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "arith.solver"), 1);
	if (mcr_err == Z3_OK) Z3_solver_set_params(c, s, p);
	int err = mcr_err;
	Z3_params_dec_ref(c, p);
	return err;
}

static int mcr_assert(Z3_context c, Z3_solver s, Z3_ast a) {
	mcr_begin();
	Z3_solver_assert(c, s, a);
	return mcr_err;
}

static int mcr_push(Z3_context c, Z3_solver s) {
	mcr_begin();
	Z3_solver_push(c, s);
	return mcr_err;
}

static int mcr_pop(Z3_context c, Z3_solver s, unsigned n) {
	mcr_begin();
	Z3_solver_pop(c, s, n);
	return mcr_err;
}

static int mcr_reset(Z3_context c, Z3_solver s) {
	mcr_begin();
	Z3_solver_reset(c, s);
	return mcr_err;
}

typedef struct { int r; int err; } mcr_lbool;

static mcr_lbool mcr_check(Z3_context c, Z3_solver s) {
	mcr_begin();
	mcr_lbool r;
	r.r = (int)Z3_solver_check(c, s);
	r.err = mcr_err;
	return r;
}

typedef struct { Z3_model m; int err; } mcr_model;

static mcr_model mcr_get_model(Z3_context c, Z3_solver s) {
	mcr_model r = {NULL, Z3_OK};
	mcr_begin();
	Z3_model m = Z3_solver_get_model(c, s);
	if (mcr_err != Z3_OK || m == NULL) {
		r.err = mcr_fail();
		return r;
	}
	Z3_model_inc_ref(c, m);
	r.m = m;
	return r;
}

typedef struct { int64_t v; bool ok; } mcr_int;

// mcr_model_int evaluates t in m, completing the model, and reads the value as an int64. ok is false if
// the evaluation fails or the value is not an integer numeral that fits in an int64.
static mcr_int mcr_model_int(Z3_context c, Z3_model m, Z3_ast t) {
	mcr_int r = {0, false};
	Z3_ast v = NULL;
	mcr_begin();
	if (!Z3_model_eval(c, m, t, true, &v) || mcr_err != Z3_OK || v == NULL) return r;
	Z3_inc_ref(c, v);
	int64_t x = 0;
	if (Z3_get_numeral_int64(c, v, &x) && mcr_err == Z3_OK) {
		r.v = x;
		r.ok = true;
	}
	Z3_dec_ref(c, v);
	return r;
}

typedef struct { uint64_t v; bool ok; } mcr_uint;

// mcr_model_bv evaluates t in m, completing the model, and reads the value as a uint64. ok is false if
// the evaluation fails or the value is not a bit-vector numeral of at most 64 bits.
static mcr_uint mcr_model_bv(Z3_context c, Z3_model m, Z3_ast t) {
	mcr_uint r = {0, false};
	Z3_ast v = NULL;
	mcr_begin();
	if (!Z3_model_eval(c, m, t, true, &v) || mcr_err != Z3_OK || v == NULL) return r;
	Z3_inc_ref(c, v);
	Z3_sort s = Z3_get_sort(c, v);
	uint64_t x = 0;
	if (Z3_get_sort_kind(c, s) == Z3_BV_SORT && Z3_get_bv_sort_size(c, s) <= 64 &&
	    Z3_get_numeral_uint64(c, v, &x) && mcr_err == Z3_OK) {
		r.v = x;
		r.ok = true;
	}
	Z3_dec_ref(c, v);
	return r;
}

// mcr_model_bool evaluates the formula t in m, completing the model: Z3_L_TRUE, Z3_L_FALSE, or Z3_L_UNDEF
// if the evaluation fails or gives no Boolean constant.
static int mcr_model_bool(Z3_context c, Z3_model m, Z3_ast t) {
	Z3_ast v = NULL;
	mcr_begin();
	if (!Z3_model_eval(c, m, t, true, &v) || mcr_err != Z3_OK || v == NULL) return Z3_L_UNDEF;
	Z3_inc_ref(c, v);
	int r = Z3_L_UNDEF;
	if (Z3_get_sort_kind(c, Z3_get_sort(c, v)) == Z3_BOOL_SORT) r = Z3_get_bool_value(c, v);
	if (mcr_err != Z3_OK) r = Z3_L_UNDEF;
	Z3_dec_ref(c, v);
	return r;
}

typedef struct { const char *s; int err; } mcr_string;

// mcr_solver_string returns Z3_solver_to_string (reason == false) or Z3_solver_get_reason_unknown
// (reason == true). The string is owned by Z3 and valid until the next call on c.
static mcr_string mcr_solver_string(Z3_context c, Z3_solver s, bool reason) {
	mcr_string r;
	mcr_begin();
	r.s = reason ? Z3_solver_get_reason_unknown(c, s) : Z3_solver_to_string(c, s);
	r.err = r.s == NULL ? mcr_fail() : mcr_err;
	return r;
}
// mcr_memory_mb returns Z3's "memory" statistic: the megabytes its allocator holds now, summed over every
// context of the process (Z3 keeps one global count), or -1 if the statistics have no such key. s is a
// solver of a context of its own (z3_cgo.go's memory probe), so that reading it never races with checks.
static double mcr_memory_mb(Z3_context c, Z3_solver s) {
	double v = -1;
	mcr_begin();
	Z3_stats st = Z3_solver_get_statistics(c, s);
	if (mcr_err != Z3_OK || st == NULL) return v;
	Z3_stats_inc_ref(c, st);
	for (unsigned i = 0; i < Z3_stats_size(c, st); i++) {
		if (strcmp(Z3_stats_get_key(c, st, i), "memory") != 0) continue;
		v = Z3_stats_is_uint(c, st, i) ? (double)Z3_stats_get_uint_value(c, st, i) : Z3_stats_get_double_value(c, st, i);
		break;
	}
	Z3_stats_dec_ref(c, st);
	return v;
}

// mcr_global_params sets the global Z3 parameters mcr runs with, before any context exists (Z3's global
// parameters are not thread-safe): model.compact false. Compacting a model (on by default) rewrites its
// interpretations after every satisfiable check; mcr reads only the values of constants, which it does not
// change, and on the seed queries of sunflow.std (about 1,500 assertions, several checks a query) it was
// half the time of Z3_solver_get_model, a sixth of the time of the whole Z3 decider.
static void mcr_global_params(void) { Z3_global_param_set("model.compact", "false"); }

// mcr_malloc_arenas caps glibc's malloc arenas at n (M_ARENA_MAX; 0 or another C library: does nothing).
// glibc gives each OS thread that allocates an arena of its own, up to 8 per core, and keeps what a freed
// formula leaves in each; Z3 runs on whatever OS thread Go schedules a check on, so without the cap the
// process keeps several formulas' worth of freed memory.
//
// It also takes blocks of up to 32 MB from the heap (M_MMAP_THRESHOLD), where a closed context's memory
// serves the next one: every Z3 context allocates two tables of 8.5 MB and writes all of them, and with
// glibc's default (such blocks mmapped, and unmapped when freed) each new context faulted its 17 MB in
// afresh: on sunflow.std, --decider z3, about 40% of the page faults. A fixed threshold also fixes the
// trim threshold at its default (128 KB), so free heap tops still go back to the system (raising it too
// saved no more, and malloc_trim cannot shrink the heap top of an arena other than the main one).
static void mcr_malloc_arenas(int n) {
#ifdef __GLIBC__
	if (n > 0) mallopt(M_ARENA_MAX, n);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
#else
	(void)n;
#endif
}

// mcr_heap_bytes returns the bytes the C heap has handed out and not taken back (glibc's mallinfo2: in-use
// chunks of every arena plus mmapped blocks), or -1 without glibc 2.33 or later. In mcr that is Z3's memory:
// nothing else of the process allocates much in the C heap. mallinfo2 takes each arena's lock in turn, so it
// is safe while checks run on other threads; it walks the free lists, which costs microseconds.
static long long mcr_heap_bytes(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 mi = mallinfo2();
	return (long long)(mi.uordblks + mi.hblkhd);
#else
	return -1;
#endif
}

// mcr_malloc_trim returns the free memory at the top and inside glibc's arenas to the system
// (malloc_trim); it does nothing on another C library.
static void mcr_malloc_trim(void) {
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

#endif
