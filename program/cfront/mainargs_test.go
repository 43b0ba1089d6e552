package cfront

import (
	"strings"
	"testing"

	"mcr/program"
)

// TestMainArgs: main sees argc 1 and argv {file name, NULL}, as a run
// without arguments does; main(void) and main(int) work too.
func TestMainArgs(t *testing.T) {
	for _, src := range []string{
		"#include <assert.h>\nint main(int argc, char **argv) { assert(argc == 1); assert(argv[1] == 0); assert(argv[0][0] == 't' && argv[0][5] == 'c'); return 0; }",
		"#include <assert.h>\nint main(int argc) { assert(argc == 1); return 0; }",
		"#include <assert.h>\nint main(void) { int x; x = 2; assert(x == 2); return 0; }",
	} {
		if _, out := runDefault(t, loadSrc(t, src)); out.Kind != program.Normal {
			t.Errorf("%q: outcome %s %q, want normal", src, out.Kind, out.Message)
		}
	}
}

// TestVLA: a variable-length array is a local whose length is evaluated at
// its declaration: indexing within it works, one past its end is an
// out-of-bounds access naming it, and sizeof of it is refused.
func TestVLA(t *testing.T) {
	cases := []struct {
		src  string
		kind program.OutcomeKind
		msg  string
	}{
		{"#include <assert.h>\nint n = 3;\nint main(void) { int a[n]; for (int i = 0; i < n; i++) a[i] = i; assert(a[2] == 2); return 0; }", program.Normal, ""},
		{"int n = 3;\nint main(void) { int a[n]; a[n] = 1; return 0; }", program.RuntimeError, "out-of-bounds access to main.a at offset 12 (size 12)"},
		{"int n = 3;\nint main(void) { int a[n]; return a[1]; }", program.Normal, ""},
	}
	for _, c := range cases {
		_, out := runDefault(t, loadSrc(t, c.src))
		if out.Kind != c.kind || !strings.Contains(out.Message, c.msg) {
			t.Errorf("%q: outcome %s %q, want %s containing %q", c.src, out.Kind, out.Message, c.kind, c.msg)
		}
	}
	if _, err := LoadSource("test.c", []byte("int n = 3;\nint main(void) { int a[n]; return sizeof a; }"), Options{}); err == nil || !strings.Contains(err.Error(), "sizeof of a variable-length type") {
		t.Errorf("sizeof of a VLA: error %v", err)
	}
}
