package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestProfileFlags: --cpuprofile and --memprofile write their files, also
// when the verb fails (exit 2 here), and an unwritable path is bad input.
func TestProfileFlags(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	var out, errb bytes.Buffer
	code := run([]string{"predict", "--cpuprofile", cpu, "--memprofile", mem, filepath.Join(dir, "missing.std")}, &out, &errb)
	if code != exitBadInput {
		t.Fatalf("exit %d, want %d (%s)", code, exitBadInput, errb.String())
	}
	for _, f := range []string{cpu, mem} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: not written (%v)", f, err)
		}
	}
	errb.Reset()
	code = run([]string{"version", "--cpuprofile", filepath.Join(dir, "no", "such", "dir", "x")}, &out, &errb)
	if code != exitBadInput {
		t.Errorf("unwritable --cpuprofile: exit %d, want %d (%s)", code, exitBadInput, errb.String())
	}
}
