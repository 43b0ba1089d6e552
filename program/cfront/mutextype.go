package cfront

import "mcr/program"

// This file implements the error-checking mutex type (issue 15: SV-COMP's
// goblint-regression tasks set PTHREAD_MUTEX_ERRORCHECK to make unlocking
// a mutex one does not hold defined behaviour). POSIX gives such a mutex
// two error returns, both decided by the calling thread's own state, so
// neither is an event:
//
//   - pthread_mutex_unlock of a mutex the thread does not hold returns
//     EPERM and changes nothing (a default mutex: undefined behaviour,
//     reported as a runtime error);
//   - pthread_mutex_lock of a mutex the thread holds returns EDEADLK (a
//     default mutex: the thread waits forever).
//
// The type travels from pthread_mutexattr_settype to the attribute object
// and from pthread_mutex_init to the mutex, in the execution's own tables:
// attributes and initialisation are not shared-memory accesses in this
// model (a program that races on them is not modelled). Recursive mutexes
// are refused by name: the execution ends as bounded (incomplete).

// The mutex types, with glibc's values.
const (
	mutexNormal     = 0
	mutexRecursive  = 1
	mutexErrorCheck = 2
)

const (
	eperm   = 1
	edeadlk = 35
)

// setMutexAttrType is pthread_mutexattr_settype(attr, kind).
func (x *execution) setMutexAttrType(th *thread, attr, kind int64) bool {
	switch kind {
	case mutexNormal, mutexErrorCheck:
	case mutexRecursive:
		x.fail(th, program.Bounded, "recursive mutexes (PTHREAD_MUTEX_RECURSIVE) are not supported")
		return false
	default:
		return false // EINVAL
	}
	if x.attrTypes == nil {
		x.attrTypes = map[int64]int64{}
	}
	x.attrTypes[attr] = kind
	return true
}

// initMutex is pthread_mutex_init(m, attr): m takes attr's type (a null
// attr, or one never given a type: the default type).
func (x *execution) initMutex(m, attr int64) {
	kind := x.attrTypes[attr]
	if kind == mutexNormal && x.mutexTypes == nil {
		return
	}
	if x.mutexTypes == nil {
		x.mutexTypes = map[program.Loc]int64{}
	}
	x.mutexTypes[program.Loc(m)] = kind
}

// mutexError returns the error an error-checking mutex m gives thread th
// for a lock (lock true) or an unlock, 0 if there is none.
func (x *execution) mutexError(th *thread, m int64, lock bool) int64 {
	if x.mutexTypes[program.Loc(m)] != mutexErrorCheck {
		return 0
	}
	h, held := x.locks[program.Loc(m)]
	mine := held && h == th.id
	switch {
	case lock && mine:
		return edeadlk
	case !lock && !mine:
		return eperm
	}
	return 0
}
