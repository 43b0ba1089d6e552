package cfront

import (
	"strings"
	"testing"

	"mcr/program"
)

// TestSpinAwait checks which loops run as awaits (spin.go): a spin loop
// whose exit condition is false stops its thread at once (blocked, naming
// the loop); any other loop spins to the event bound. With NoSpinAwait
// every loop spins.
func TestSpinAwait(t *testing.T) {
	cases := []struct {
		body  string
		await bool
	}{
		{"while (!flag) ;", true},
		{"while (!flag) {}", true},
		{"while (1) ;", true}, // SV-COMP's way to stop a thread
		{"while (__atomic_load_n(&flag, 5) == 0) sched_yield();", true},
		{"do { } while (flag == 0);", true},
		{"for (; flag == 0; ) { ; }", true},
		{"int v; while ((v = flag) == 0) ; return v;", true},
		{"int k = 0; while (!flag) k++; return k;", false}, // the body counts
		{"while (!flag) other = 1;", false},                // the body writes
		{"while (!flag) { (void)other; }", false},          // the body reads
		{"while ((flag = 0) == 0) ;", false},               // the condition writes
		{"for (int i = 0; flag == 0; ) ;", false},          // a declaration in the loop
		{"while (!flag) { if (other) break; }", false},     // a way out
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
			wantAwait := c.await && !noAwait
			gotAwait := out.Kind == program.Blocked && strings.Contains(out.Message, "spin loop at line 3")
			if gotAwait != wantAwait || !gotAwait && out.Kind != program.Bounded {
				t.Errorf("%s (NoSpinAwait %v): outcome %s %q, want await %v", c.body, noAwait, out.Kind, out.Message, wantAwait)
			}
		}
	}
}
