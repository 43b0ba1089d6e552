package cfront

import (
	"strings"
	"testing"

	"mcr/program"
)

// TestSscanfBeyondModel: the sscanf calls __mcr_sscanf does not run are
// left unmodelled (the execution ends when one is reached, never a guess),
// and a program's own sscanf wins. TestSemantics checks the modelled ones
// (testdata/sscanf.c, against gcc).
func TestSscanfBeyondModel(t *testing.T) {
	const inc = "#include <stdio.h>\n"
	for _, src := range []string{
		`int main(void) { const char *f = "%d"; int x; return sscanf("1", f, &x); }`,                              // computed format
		`int main(void) { float x; return sscanf("1.5", "%f", &x); }`,                                             // float
		`int main(void) { int x; return sscanf("1", "%d%n", &x, &x); }`,                                           // %n
		`int main(void) { char b[4]; return sscanf("ab", "%[a-z]", b); }`,                                         // scan set
		`int main(void) { long x; return sscanf("1", "%d", &x); }`,                                                // int conversion, long object
		`int main(void) { int x; return sscanf("1", "%d %d", &x); }`,                                              // too few pointers
		`int main(void) { int x; return sscanf("1", "%d %", &x); }`,                                               // lone %
		`int main(void) { int x; return sscanf("1", "%d%d%d%d%d%d%d%d%d", &x, &x, &x, &x, &x, &x, &x, &x, &x); }`, // nine
	} {
		_, out := runDefault(t, loadSrc(t, inc+src))
		if out.Kind != program.Bounded || !strings.Contains(out.Message, "call to sscanf") {
			t.Errorf("%s: outcome %s %q, want the call unmodelled", src, out.Kind, out.Message)
		}
	}
	own := inc + `int sscanf(const char *s, const char *f, ...) { return 7; }
int main(void) { int x = 0; int r = sscanf("1", "%d", &x); return r == 7 && x == 0 ? 0 : 1 / x; }`
	if _, out := runDefault(t, loadSrc(t, own)); out.Kind != program.Normal {
		t.Errorf("the program's own sscanf: outcome %s %q", out.Kind, out.Message)
	}
}
