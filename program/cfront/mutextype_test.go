package cfront

import (
	"strings"
	"testing"

	"mcr/program"
)

// TestRecursiveMutexRefused: a recursive mutex is not modelled, so setting
// the type ends the execution as bounded, naming it (never a wrong answer
// about relocking).
func TestRecursiveMutexRefused(t *testing.T) {
	src := `#include <pthread.h>
pthread_mutex_t m;
int main(void) {
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&m, &a);
	pthread_mutex_lock(&m);
	pthread_mutex_lock(&m);
	return 0;
}`
	p, err := LoadSource("rec.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	x, err := program.Replay(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, out := x.Done(); out.Kind != program.Bounded || !strings.Contains(out.Message, "PTHREAD_MUTEX_RECURSIVE") {
		t.Errorf("outcome %s %q, want bounded naming PTHREAD_MUTEX_RECURSIVE", out.Kind, out.Message)
	}
}
