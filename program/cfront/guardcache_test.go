package cfront

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestGuardCache: a second load of an unchanged file skips the guard pass;
// a header that changes to build deep nesting from macros is refused
// again, as are changed -D definitions and main files; a header too young
// to trust its stamp is not cached; MCR_NO_CACHE=1 runs the pass always.
func TestGuardCache(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the cache is used on linux only")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("MCR_NO_CACHE", "")
	dir := t.TempDir()
	mainC, header := filepath.Join(dir, "main.c"), filepath.Join(dir, "h.h")
	old := time.Now().Add(-time.Hour)
	write := func(path, text string, mod time.Time) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	// load loads main.c and reports whether the guard pass ran.
	load := func(defines ...string) (bool, error) {
		t.Helper()
		before := guardPasses.Load()
		_, err := Load(mainC, Options{Defines: defines})
		return guardPasses.Load() != before, err
	}
	expect := func(what string, ran, wantRan bool, err error, wantErr string) {
		t.Helper()
		if ran != wantRan {
			t.Errorf("%s: guard pass ran %v, want %v", what, ran, wantRan)
		}
		if wantErr == "" && err != nil || wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)) {
			t.Errorf("%s: error %v, want %q", what, err, wantErr)
		}
	}
	deep := `#define A0 ((((((((((
#define B0 A0 A0 A0 A0 A0 A0 A0 A0 A0 A0
#define C0 B0 B0 B0 B0 B0 B0 B0 B0 B0 B0
#define A2 ))))))))))
#define B2 A2 A2 A2 A2 A2 A2 A2 A2 A2 A2
#define C2 B2 B2 B2 B2 B2 B2 B2 B2 B2 B2
#define A C0 C0 1 C2 C2
`
	// the benign header as long as the deep one: the size of the user's
	// sources is part of the key (the expansion limit), the stamps must
	// catch the change
	benign := "#define A (1)\n"
	benign += "/*" + strings.Repeat(" ", len(deep)-len(benign)-len("/**/\n")) + "*/\n"
	if len(benign) != len(deep) {
		t.Fatalf("benign header %d bytes, deep %d", len(benign), len(deep))
	}
	write(header, benign, old)
	write(mainC, "#include <pthread.h>\n#include \"h.h\"\nint main(void) { return A; }\n", old)
	ran, err := load()
	expect("first load", ran, true, err, "")
	ran, err = load()
	expect("second load", ran, false, err, "")
	write(header, deep, old.Add(time.Minute))
	ran, err = load()
	expect("deep header", ran, true, err, "nested more than 1000 deep after macro expansion")
	ran, err = load()
	expect("deep header again", ran, true, err, "nested more than 1000 deep after macro expansion")

	write(header, benign, old)
	if _, err = load(); err != nil {
		t.Fatal(err)
	}
	ran, err = load("X=1")
	expect("other -D", ran, true, err, "")
	write(mainC, "#include \"h.h\"\nint main(void) { return A + 1; }\n", old)
	ran, err = load()
	expect("main changed", ran, true, err, "")

	write(header, "#define A (2)\n", time.Now())
	ran, err = load()
	expect("young header", ran, true, err, "")
	ran, err = load()
	expect("young header again", ran, true, err, "")

	write(header, benign, old)
	load()
	t.Setenv("MCR_NO_CACHE", "1")
	ran, err = load()
	expect("MCR_NO_CACHE=1", ran, true, err, "")
}
