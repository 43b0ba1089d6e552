package cfront

import (
	"strings"
	"testing"

	"mcr/program"
)

// TestIndeterminateReads checks which reads the interpreter reports as
// reads of indeterminate values (program.Unmodelled): locals declared
// without an initialiser and malloc'd memory, read before they are set;
// and which it does not: set first, calloc, initialised declarations,
// atomic stores, a declaration in a loop set on every iteration.
func TestIndeterminateReads(t *testing.T) {
	cases := []struct {
		body string
		want string // fragment of Unmodelled, "" for none
	}{
		{"int u; return u;", "uninitialised local variable at line 2"},
		{"int u; u = 2; return u;", ""},
		{"int u = 3; return u;", ""},
		{"int a[3]; a[0] = 1; return a[0];", ""},
		{"int a[3]; a[0] = 1; return a[1];", "uninitialised main.a"},
		{"int a[2] = {1}; return a[1];", ""},
		{"int *p = malloc(8); p[0] = 1; return p[0];", ""},
		{"int *p = malloc(8); p[0] = 1; return p[1];", "malloc'd memory"},
		{"int *p = calloc(2, 4); return p[1];", ""},
		{"int v; int *q = &v; __atomic_store_n(q, 4, 5); return v;", ""},
		{"int v; int *q = &v; return __atomic_load_n(q, 5);", "an uninitialised local variable (main.v)"},
		{"int s = 0; for (int i = 0; i < 3; i++) { int t; t = i; s += t; } return s;", ""},
		{"int s = 0; for (int i = 0; i < 3; i++) { int t; if (i == 0) t = 1; s += t; } return s;", "uninitialised local variable"},
		// bit-fields: a unit never stored to is indeterminate; setting one
		// field of it (a read-modify-write of the unit) reads nothing
		{"struct { int a : 3; unsigned b : 2; } v; return v.b;", "uninitialised main.v"},
		{"struct { int a : 3; unsigned b : 2; } v; v.b = 1; return v.b;", ""},
		{"struct { int a : 3; unsigned b : 2; } *p = malloc(4); p->a = 1; return p->a;", ""},
		{"struct { int a : 3; unsigned b : 2; } *p = malloc(4); return p->a;", "malloc'd memory"},
	}
	for _, c := range cases {
		src := "#include <stdlib.h>\nint main(void) { " + c.body + " }"
		p := loadSrc(t, src)
		x, err := program.Replay(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := x.(program.Unmodelled).Unmodelled()
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: Unmodelled %q, want %q", c.body, got, c.want)
		}
	}
}

// TestTimeIsAnInput checks that time(NULL) runs, reads a fixed value and
// makes the search incomplete (it is an input), and that strerror and
// sleep run.
func TestTimeIsAnInput(t *testing.T) {
	src := "#include <time.h>\n#include <string.h>\n#include <unistd.h>\nint main(void) { long t = time(NULL); sleep(1); const char *m = strerror(2); return t > 0 && m != 0 ? 0 : 1; }"
	x, err := program.Replay(loadSrc(t, src), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, out := x.Done()
	got := x.(program.Unmodelled).Unmodelled()
	if out.Kind != program.Normal || !strings.Contains(got, "time() at line 4 is an input") {
		t.Fatalf("outcome %s %q, unmodelled %q", out.Kind, out.Message, got)
	}
}
