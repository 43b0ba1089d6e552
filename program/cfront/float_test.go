package cfront

import (
	"strings"
	"testing"

	"mcr/program"
)

// TestFloatInputsIncomplete checks that an input-dependent value reaching
// a floating-point operation marks the input coverage incomplete, naming
// the operation and its line, and that a program whose floats do not
// depend on inputs keeps its shadow complete.
func TestFloatInputsIncomplete(t *testing.T) {
	cases := []struct{ body, want string }{
		{"double d = n; if (d > 2.5) g = 1;", "itof) at line 4"},
		{"union { int i; float f; } u; u.i = n; if (u.f < 0) g = 1;", "flt) at line 4"},
		{"double d = 1.5; if (d * 2 == 3 && n > 1) g = 1;", ""},
	}
	for _, c := range cases {
		p := loadSrc(t, "extern int __VERIFIER_nondet_int(void);\nint g;\nint main(void) { int n = __VERIFIER_nondet_int();\n"+c.body+"\nreturn 0; }")
		path, out := runInputs(t, p, []program.InputValue{{Thread: "0", K: 0, Value: 3}})
		if out.Kind != program.Normal {
			t.Errorf("%s: outcome %s %s", c.body, out.Kind, out.Message)
		}
		switch {
		case c.want == "" && path.Incomplete != "":
			t.Errorf("%s: incomplete: %s", c.body, path.Incomplete)
		case c.want != "" && !strings.Contains(path.Incomplete, c.want):
			t.Errorf("%s: incomplete %q, want it to name %q", c.body, path.Incomplete, c.want)
		}
	}
}
