package cfront

import (
	"modernc.org/cc/v4"
)

// This file implements failing locks (Options.FailingLocks): a call of
// pthread_mutex_lock whose result the program uses may fail.
//
// POSIX lets pthread_mutex_lock fail (XSH "pthread_mutex_lock": EAGAIN,
// EINVAL, EDEADLK, EOWNERDEAD, ENOTRECOVERABLE); glibc's default mutex
// never does, so mcr's lock normally returns 0. SV-COMP's tasks assume the
// POSIX reading where a program tests the result: goblint-regression's
// 04-mutex_13-failed_locking (its task file: "PARAM: --set
// exp.failing-locks true") expects the race on its `if
// (pthread_mutex_lock(&m)) { ...unprotected access... }` branch. So under
// FailingLocks (on for SV-COMP tasks, --failing-locks) such a call makes a
// nondeterministic choice, an input of type _Bool as a timed lock's
// timeout (timedwait.go): lock as usual and return 0, or return EINVAL
// without locking. A call whose result is discarded (an expression
// statement, or one cast to void) always locks: a program that does not
// look cannot act on a failure, and letting it run on unlocked would
// report races that no implementation produces.
//
// The choice is idle, as every input (idle.go): a loop that retries a
// failed lock and changed nothing stops its thread, every run after it
// being a run without it.

// failingLock compiles pthread_mutex_lock(as[0]) as a lock that may fail,
// if FailingLocks is on and the call's result is used; false otherwise.
func (c *compiler) failingLock(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) bool {
	if !c.failingLocks || name != "pthread_mutex_lock" || x == c.discarded {
		return false
	}
	m := c.syncObj(x, name, as, 1)
	pos := toPos(x)
	c.p.hasInputs = true
	c.push(int64(c.str("failure of " + name)))
	// no position: the input is no nondet call's result (see timed)
	c.emit(instr{op: opBuiltin, a: bNondet, k: 1, w: 1, flag: fUndef})
	fail := c.emit(instr{op: opJnz, pos: pos})
	c.get(m)
	c.emit(instr{op: opBuiltin, a: bLock, k: 1, pos: pos})
	done := c.emit(instr{op: opJmp})
	c.patch(fail)
	c.push(einval)
	c.patch(done)
	return true
}

// discardedCall is the call whose value expression statement e discards:
// e itself, or the operand of a cast to void, inside any parentheses; nil
// if e is no call.
func discardedCall(e cc.ExpressionNode) *cc.PostfixExpression {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			if x.Case != cc.PrimaryExpressionExpr {
				return nil
			}
			e = x.ExpressionList
		case *cc.CastExpression:
			if x.Case != cc.CastExpressionCast || x.Type().Kind() != cc.Void {
				return nil
			}
			e = x.CastExpression
		case *cc.PostfixExpression:
			if x.Case != cc.PostfixExpressionCall {
				return nil
			}
			return x
		default:
			return nil
		}
	}
}
