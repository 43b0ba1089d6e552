package cfront

import (
	"context"
	"slices"
	"strings"
	"testing"

	"mcr/program"
	"mcr/program/explore"
)

// structDecls are the types and helpers the struct-value tests share.
const structDecls = `#include <assert.h>
#include <pthread.h>
struct P { int x, y; };
struct L { struct P a, b; long n; };
union U { int i; long l; char c[3]; };
struct T { int tag; union U u; };
struct P mk(int a) { struct P p; p.x = a; p.y = a + 1; return p; }
struct L line(int a) { struct L l; l.a = mk(a); l.b = mk(a + 10); l.n = 2; return l; }
int sum(struct P p) { int s = p.x + p.y; p.x = 100; p.y = 100; return s; }
struct P swap(struct P p) { int t = p.x; p.x = p.y; p.y = t; return p; }
union U mku(long v) { union U u; u.l = v; return u; }
struct T tagged(int t, union U u) { struct T r; r.tag = t; r.u = u; u.l = -1; return r; }
struct P shift(struct P p, int d) { p.x += d; p.y += d; return p; }
int dot(struct P a, int k, struct P b) { return k * (a.x * b.x + a.y * b.y); }
struct R { int ok; int val; };
struct R try(int a) { struct R r; r.ok = 0; if (a > 0) { r.ok = 1; r.val = a; } return r; }
`

// TestStructValues runs single-threaded programs that pass and return
// structs and unions by value: each must end normally (its asserts hold),
// read no indeterminate value, and, all objects being locals, produce no
// memory events.
func TestStructValues(t *testing.T) {
	cases := []struct{ name, body string }{
		{"initialiser", "struct P q = mk(3); assert(q.x == 3 && q.y == 4);"},
		{"assignment source", "struct P q = mk(1); q = mk(5); assert(q.x == 5 && q.y == 6);"},
		{"field of a call", "int z = mk(4).y; assert(z == 5 && mk(7).x == 7);"},
		{"nested return", "struct L l = line(1); assert(l.a.y == 2 && l.b.x == 11 && l.n == 2 && line(3).b.y == 14);"},
		{"call result as argument", "assert(sum(mk(2)) == 5 && swap(swap(mk(8))).x == 8);"},
		{"parameters after an aggregate", "struct P q = shift(mk(1), 10); assert(q.x == 11 && q.y == 12 && dot(q, 2, mk(1)) == 2 * (11 + 24));"},
		{"argument is a copy", "struct P q = mk(3); assert(sum(q) == 7); assert(q.x == 3 && q.y == 4);"},
		{"argument copied before later ones", "struct P q = mk(1); struct P r = swap(q); assert(r.x == 2 && r.y == 1 && q.x == 1);"},
		{"self assignment through a call", "struct P q = mk(1); q = swap(q); assert(q.x == 2 && q.y == 1);"},
		{"union by value", "union U a = mku(7); union U b; b = a; struct T w = tagged(5, b); assert(b.l == 7 && w.tag == 5 && w.u.l == 7 && mku(9).l == 9);"},
		{"function pointer", "struct P (*f)(struct P) = swap; struct P q = f(mk(4)); assert(q.x == 5 && q.y == 4);"},
		{"conditional", "int c = 1; struct P q = c ? mk(1) : mk(2); assert(q.x == 1 && (c ? mk(3) : mk(4)).y == 4);"},
		{"assignment value", "struct P a, b; a = b = mk(6); assert(a.y == 7 && (a = mk(2)).x == 2);"},
		{"in a loop", "int s = 0; for (int i = 0; i < 4; i++) { struct P q = mk(i); s += sum(q); } assert(s == 16);"},
		{"unset member copied", "struct R r = try(0); struct R s = r; assert(s.ok == 0);"},
	}
	for _, c := range cases {
		src := structDecls + "int main(void) { " + c.body + " return 0; }\n"
		x, err := program.Replay(loadSrc(t, src), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, out := x.Done()
		if out.Kind != program.Normal {
			t.Errorf("%s: outcome %s %q at %v", c.name, out.Kind, out.Message, out.Pos)
			continue
		}
		if u := x.(program.Unmodelled).Unmodelled(); u != "" {
			t.Errorf("%s: unmodelled %q", c.name, u)
		}
		for _, e := range x.Trace().Events {
			if e.Kind == program.Read || e.Kind == program.Write {
				t.Errorf("%s: private copies made a shared access %v", c.name, e)
				break
			}
		}
	}
	// reading a member nobody set is still an indeterminate read
	x, err := program.Replay(loadSrc(t, structDecls+"int main(void) { struct R r = try(0); return r.val; }\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if u := x.(program.Unmodelled).Unmodelled(); !strings.Contains(u, "uninitialised") {
		t.Errorf("read of an unset member copied: unmodelled %q", u)
	}
}

// TestStructValueThreads explores threaded programs with dfs: struct
// results and arguments are private to each call, while copies from or
// into shared objects (a global, an escaped local) are accesses like any
// other, so their races are found.
func TestStructValueThreads(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // finding kinds
		n         int      // number of findings, if not just one per kind
	}{
		{name: "private results", src: `
int out[2];
void *w(void *arg) { long i = (long)arg; struct P p = mk(i); p = swap(p); struct L l = line(p.x); out[i] = sum(l.b); return 0; }
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, w, (void *)0); pthread_create(&b, 0, w, (void *)1);
	pthread_join(a, 0); pthread_join(b, 0);
	assert(out[0] == 23 && out[1] == 25);
	return 0;
}`},
		{name: "copy from a shared global", src: `
struct P g;
void *w(void *arg) { g.x = 1; return 0; }
int main(void) {
	pthread_t a;
	pthread_create(&a, 0, w, 0);
	struct P q = g;
	int s = sum(g);
	pthread_join(a, 0);
	return q.x + s;
}`, want: []string{explore.KindRace}},
		{name: "copy into a shared global", src: `
struct P g;
void *w(void *arg) { int y = g.y; return (void *)(long)y; }
int main(void) {
	pthread_t a;
	pthread_create(&a, 0, w, 0);
	g = mk(2);
	pthread_join(a, 0);
	return 0;
}`, want: []string{explore.KindRace}},
		{name: "copy of an escaped local", src: `
void *w(void *arg) { struct P *p = arg; p->y = 5; return 0; }
int main(void) {
	struct P loc = mk(1);
	pthread_t a;
	pthread_create(&a, 0, w, &loc);
	struct P q = loc;
	pthread_join(a, 0);
	assert(q.y == 2 || q.y == 5);
	return 0;
}`, want: []string{explore.KindRace}},
		{name: "copy of an escaped local under a lock", src: `
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *arg) { struct P *p = arg; pthread_mutex_lock(&m); *p = swap(*p); pthread_mutex_unlock(&m); return 0; }
int main(void) {
	struct P loc = mk(1);
	pthread_t a;
	pthread_create(&a, 0, w, &loc);
	pthread_mutex_lock(&m);
	int s = sum(loc);
	pthread_mutex_unlock(&m);
	pthread_join(a, 0);
	assert(s == 3 && loc.x == 2);
	return 0;
}`},
		{name: "a union copied into shared memory shares what it points to", src: `
union V { long l; int *p; };
union V shared;
void *w(void *a) { int *q = shared.p; if (q) *q = 5; return 0; }
int main(void) {
	int x = 1;
	union V v; v.p = &x;
	pthread_t a; pthread_create(&a, 0, w, 0);
	shared = v;
	int y = x;
	pthread_join(a, 0);
	return y;
}`, want: []string{explore.KindRace}, n: 2}, // on shared, and on x
		{name: "struct-returning start routine", src: `
struct P f(void *a) { return mk(1); }
int main(void) { pthread_t a; pthread_create(&a, 0, (void *(*)(void *))f, 0); pthread_join(a, 0); return 0; }`,
			want: []string{explore.KindRuntimeError}},
	}
	for _, c := range cases {
		p := loadSrc(t, structDecls+c.src)
		res := explore.DFS(context.Background(), p, explore.Options{KeepGoing: true})
		if got := res.FindingKinds(); !slices.Equal(got, c.want) {
			t.Errorf("%s: findings %v, want %v (%+v)", c.name, got, c.want, res.Findings)
		}
		if c.n != 0 && len(res.Findings) != c.n {
			t.Errorf("%s: %d findings, want %d (%+v)", c.name, len(res.Findings), c.n, res.Findings)
		}
		if !res.Stats.Complete {
			t.Errorf("%s: search incomplete: %+v", c.name, res.Stats)
		}
	}
}
