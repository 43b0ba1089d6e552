package cfront

import (
	"strings"
	"testing"

	"mcr/program"
)

// TestExternModel checks the behaviour mcr gives a function the program
// declares and never defines, and __VERIFIER_nondet_pointer (extern.go):
// the execution goes on through one behaviour and says that the others
// are not explored (Unmodelled).
func TestExternModel(t *testing.T) {
	cases := []struct {
		name, src string
		kind      program.OutcomeKind
		msg       string // in the outcome's message
		note      string // in Unmodelled
	}{
		{"void: no effect", "void f(int); int g; int main(void) { f(g); g = 1; return g - 1; }",
			program.Normal, "", "call to f, which has no definition: taken as a function that returns without side effects; its other behaviours"},
		{"the one global of the pointee struct", "void reach_error(void); struct S { int f; } s; struct S *getS(void);\nint main(void) { getS()->f = 3; if (s.f != 3) reach_error(); return 0; }",
			program.Normal, "", "one of two objects of its own (an input chooses)"},
		{"two globals of the type: an object of its own, the same every call (inputs 0)", "void reach_error(void); struct S { int f; } s, t; struct S *getS(void);\nint main(void) { getS()->f = 3; if (getS()->f != 3 || s.f != 0 || t.f != 0) reach_error(); return 0; }",
			program.Normal, "", "one of two objects of its own (an input chooses)"},
		{"a static global is not the extern's", "void reach_error(void); static struct S { int f; } s; struct S *getS(void);\nint main(void) { getS()->f = 3; if (s.f != 0) reach_error(); return 0; }",
			program.Normal, "", "one of two objects of its own (an input chooses)"},
		{"a callback is called once", "void reach_error(void); int g; void cb(void) { g++; } void reg(void (*)(void), int);\nint main(void) { reg(cb, 2); if (g != 1) reach_error(); return 0; }",
			program.Normal, "", "call to reg"},
		{"an integer result is an input", "void reach_error(void); int get(void);\nint main(void) { int v = get(); if (v == 7) reach_error(); return 0; }",
			program.Normal, "", "returning any value (an input)"},
		{"nondet pointers: fresh objects", "void reach_error(void); void *__VERIFIER_nondet_pointer(void);\nint main(void) { int *p = __VERIFIER_nondet_pointer(), *q = __VERIFIER_nondet_pointer(); if (!p || p == q) reach_error(); *p = 1; *q = 2; return *p - 1; }",
			program.Normal, "", "the pointer input is taken as a fresh object"},
		{"a floating result stays unmodelled", "double f(void); int main(void) { return f() > 0; }",
			program.Bounded, "call to f, which has no definition in the program and no model in mcr", ""},
	}
	for _, c := range cases {
		p := loadSrc(t, c.src)
		x, err := program.Replay(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, out := x.Done()
		note := x.(program.Unmodelled).Unmodelled()
		if out.Kind != c.kind || !strings.Contains(out.Message, c.msg) || !strings.Contains(note, c.note) || (c.note == "") != (note == "") {
			t.Errorf("%s: outcome %s %q, unmodelled %q; want %s containing %q, unmodelled containing %q", c.name, out.Kind, out.Message, note, c.kind, c.msg, c.note)
		}
		if fs := program.Failures(x); len(fs) > 0 {
			t.Errorf("%s: %s", c.name, fs[0].Message)
		}
	}
	// the inputs choose between the two objects of its own: the first
	// call's input 1 takes the second object, which the other call's 0
	// does not (goblint 06-symbeq_21 needs two calls to differ)
	p := loadSrc(t, "void reach_error(void); struct S { int f; }; struct S *getS(void);\nint main(void) { getS()->f = 3; if (getS()->f == 0) reach_error(); return 0; }")
	for _, in := range [][]program.InputValue{nil, {{Thread: "0", K: 0, Value: 1}}} {
		x, err := program.Replay(p.WithInputs(in), nil)
		if err != nil {
			t.Fatal(err)
		}
		x.Done()
		if fs := program.Failures(x); (len(fs) > 0) != (in != nil) {
			t.Errorf("inputs %v: failures %v, want one: %v", in, fs, in != nil)
		}
	}
	// a .i file: a function its line markers place in a system header is
	// the library's (bounded), one in the program's file its own
	src := "# 1 \"prog.c\"\n# 1 \"/usr/include/stdlib.h\" 1 3 4\nchar *getenv(const char *);\n# 3 \"prog.c\" 2\nint own(void);\nint main(void) { own(); getenv(\"X\"); return 0; }\n"
	q, err := LoadSource("prog.i", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	x, err := program.Replay(q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, out := x.Done(); out.Kind != program.Bounded || !strings.Contains(out.Message, "call to getenv") || !strings.Contains(x.(program.Unmodelled).Unmodelled(), "call to own") {
		t.Errorf(".i: outcome %s %q, unmodelled %q; want getenv bounded after own's model", out.Kind, out.Message, x.(program.Unmodelled).Unmodelled())
	}
}
