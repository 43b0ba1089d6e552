package cfront

import (
	"strings"
	"testing"

	"mcr/program"
)

// TestSpinAwait checks which loops run as awaits (spin.go): a spin loop
// whose exit condition is false stops its thread at once (blocked, naming
// the loop); a loop whose iterations only read and change nothing stops
// its thread after the second such iteration (idle.go); any other loop
// spins to the event bound. With NoSpinAwait every loop spins.
func TestSpinAwait(t *testing.T) {
	const await, idle, spin = "spin loop at line 3", "loops at line 3 without effect", ""
	cases := []struct {
		body string
		want string
	}{
		{"while (!flag) ;", await},
		{"while (!flag) {}", await},
		{"while (1) ;", await}, // SV-COMP's way to stop a thread
		{"while (__atomic_load_n(&flag, 5) == 0) sched_yield();", await},
		{"do { } while (flag == 0);", await},
		{"for (; flag == 0; ) { ; }", await},
		{"int v; while ((v = flag) == 0) ; return v;", await},
		{"int k = 0; while (!flag) k++; return k;", spin},                 // the body counts
		{"while (!flag) other = 1;", spin},                                // the body writes
		{"int a[2]; while (!flag) a[flag] = 1;", spin},                    // the body stores
		{"int *p; while (!flag) { p = malloc(4); free(p); }", spin},       // the body allocates
		{"while (!flag) { (void)other; }", idle},                          // the body only reads
		{"while ((flag = 0) == 0) ;", spin},                               // the condition writes
		{"for (int i = 0; flag == 0; ) ;", idle},                          // a declaration in the loop
		{"while (!flag) { if (other) break; }", idle},                     // a way out not taken
		{"int t; while (flag < 1) { t = other; if (t) flag = 0; }", idle}, // dekker's shape
		{"int k = 0; while (!flag) { k = k ? 0 : 1; }", spin},             // the state alternates
	}
	for _, c := range cases {
		src := "#include <sched.h>\nint flag, other;\nint main(void) { " + c.body + " return 0; }"
		for _, noAwait := range []bool{false, true} {
			p, err := LoadSource("spin.c", []byte(src), Options{MaxEvents: 200, NoSpinAwait: noAwait})
			if err != nil {
				t.Fatalf("%s: %v", c.body, err)
			}
			x, err := program.Replay(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, out := x.Done()
			want := c.want
			if noAwait {
				want = spin
			}
			ok := out.Kind == program.Bounded
			if want != spin {
				ok = out.Kind == program.Blocked && strings.Contains(out.Message, want)
			}
			if !ok {
				t.Errorf("%s (NoSpinAwait %v): outcome %s %q, want %q (empty: bounded)", c.body, noAwait, out.Kind, out.Message, want)
			}
		}
	}
}
