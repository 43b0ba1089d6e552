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
#include <z3.h>

// mcr_err is the first Z3 error code reported on this OS thread since the last mcr_begin. A cgo call runs
// on one thread from start to end, so each helper sees exactly the errors of its own Z3 calls.
static __thread int mcr_err;

static void mcr_on_error(Z3_context c, Z3_error_code e) {
	(void)c;
	if (mcr_err == Z3_OK) mcr_err = (int)e;
}

static void mcr_begin(void) { mcr_err = Z3_OK; }

// mcr_fail is the error to report for a helper whose Z3 call returned no result: Z3's code if it gave one.
static int mcr_fail(void) { return mcr_err != Z3_OK ? mcr_err : Z3_EXCEPTION; }

typedef struct { Z3_ast a; int err; } mcr_ast;

// mcr_keep ends an AST constructor: on success it takes one reference to a for the Go arena.
static mcr_ast mcr_keep(Z3_context c, Z3_ast a) {
	mcr_ast r = {NULL, Z3_OK};
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

typedef struct { Z3_solver s; int err; } mcr_solver;

static mcr_solver mcr_new_solver(Z3_context c) {
	mcr_solver r = {NULL, Z3_OK};
	mcr_begin();
	Z3_symbol logic = Z3_mk_string_symbol(c, "QF_IDL");
	Z3_solver s = mcr_err == Z3_OK ? Z3_mk_solver_for_logic(c, logic) : NULL;
	if (mcr_err != Z3_OK || s == NULL) {
		r.err = mcr_fail();
		return r;
	}
	Z3_solver_inc_ref(c, s);
	r.s = s;
	return r;
}

// mcr_set_params sets the solver's timeout (UINT_MAX: none) and turns off Z3's SIGINT handler, which
// would otherwise replace Go's during every check.
static int mcr_set_params(Z3_context c, Z3_solver s, unsigned timeout_ms) {
	mcr_begin();
	Z3_params p = Z3_mk_params(c);
	if (mcr_err != Z3_OK || p == NULL) return mcr_fail();
	Z3_params_inc_ref(c, p);
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), timeout_ms);
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
#endif
