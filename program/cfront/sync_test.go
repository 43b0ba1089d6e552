package cfront

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"mcr/program"
)

// TestSyncSemantics runs testdata/sync.c, whose asserts check the return
// values of the reader-writer lock, barrier, semaphore and spin lock
// operations in one thread, and cross-checks the file with gcc and glibc
// when available.
func TestSyncSemantics(t *testing.T) {
	p, err := Load("testdata/sync.c", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, out := runDefault(t, p); out.Kind != program.Normal {
		t.Fatalf("outcome %s: %s at %s", out.Kind, out.Message, out.Pos)
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return
	}
	bin := filepath.Join(t.TempDir(), "sync")
	if out, err := exec.Command(gcc, "-std=gnu11", "-pthread", "-o", bin, "testdata/sync.c").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin).CombinedOutput(); err != nil {
		t.Fatalf("the gcc build of sync.c fails its own asserts: %v\n%s", err, out)
	}
}

// TestSyncErrors: misuse of the primitives in one thread ends as the
// model says (a waiter nobody can release is a deadlock naming what it
// waits for), and the operations mcr does not model are refused by name.
func TestSyncErrors(t *testing.T) {
	const inc = "#include <pthread.h>\n#include <semaphore.h>\n"
	cases := []struct {
		src  string
		kind program.OutcomeKind
		msg  string
	}{
		{"pthread_rwlock_t l; int main(void) { return pthread_rwlock_unlock(&l); }", program.RuntimeError, "no thread holds"},
		{"pthread_rwlock_t l; int main(void) { pthread_rwlock_wrlock(&l); return pthread_rwlock_rdlock(&l); }", program.Deadlock, "waits to read-lock"},
		{"pthread_rwlock_t l; int main(void) { pthread_rwlock_rdlock(&l); return pthread_rwlock_wrlock(&l); }", program.Deadlock, "waits to write-lock"},
		{"pthread_barrier_t b; int main(void) { pthread_barrier_init(&b, 0, 2); return pthread_barrier_wait(&b); }", program.Deadlock, "waits at a barrier"},
		{"sem_t s; int main(void) { sem_init(&s, 0, 0); return sem_wait(&s); }", program.Deadlock, "waits on a semaphore"},
		// a timed wait that would wait forever times out instead: no deadlock
		{"sem_t s; int main(void) { sem_init(&s, 0, 0); return sem_timedwait(&s, 0); }", program.Blocked, "a timed wait waits forever"},
		{"pthread_mutex_t m; pthread_cond_t c; int main(void) { pthread_mutex_lock(&m); return pthread_cond_timedwait(&c, &m, 0); }", program.Blocked, "a timed wait waits forever"},
		{"pthread_mutex_t m; int main(void) { pthread_mutex_lock(&m); return pthread_mutex_timedlock(&m, 0); }", program.Blocked, "a timed wait waits forever"},
		{"pthread_rwlock_t l; int main(void) { pthread_rwlock_rdlock(&l); return pthread_rwlock_timedwrlock(&l, 0); }", program.Blocked, "a timed wait waits forever"},
		{"pthread_spinlock_t s; int main(void) { pthread_spin_lock(&s); return pthread_spin_lock(&s); }", program.Deadlock, "waits for s"},
	}
	for _, c := range cases {
		p := loadSrc(t, inc+c.src)
		_, out := runDefault(t, p)
		if out.Kind != c.kind || !strings.Contains(out.Message, c.msg) {
			t.Errorf("%q: outcome %s %q, want %s containing %q", c.src, out.Kind, out.Message, c.kind, c.msg)
		}
	}
	refused := []struct{ src, want string }{
		{"int main(void) { sem_t *s = sem_open(\"/s\", 0); return s == 0; }", "call to sem_open (named semaphores"},
	}
	for _, c := range refused {
		if _, err := LoadSource("test.c", []byte(inc+c.src), Options{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.src, err, c.want)
		}
	}
}
