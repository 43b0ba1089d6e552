package randprog

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/seed1.c")

// optionsFor varies the options over seeds so that the compile test covers
// the zero value, fixed sizes and every feature switch.
func optionsFor(seed int64) Options {
	switch seed % 5 {
	case 0:
		return Options{}
	case 1:
		return Options{Threads: 3, Ops: 4, Globals: 3, Mutex: true, Atomics: true, Asserts: true, Requests: int(seed % 3)}
	case 2:
		return Options{Threads: 2, Ops: 1, Globals: 1, Atomics: true, Asserts: true}
	case 3:
		return SmallOptions()
	default:
		return DefaultOptions()
	}
}

func TestDeterministic(t *testing.T) {
	distinct := map[string]bool{}
	for seed := int64(0); seed < 50; seed++ {
		a := Generate(seed, DefaultOptions())
		b := Generate(seed, DefaultOptions())
		if a != b {
			t.Fatalf("seed %d: two generations differ:\n%s\n---\n%s", seed, a, b)
		}
		distinct[a] = true
	}
	if len(distinct) < 45 {
		t.Errorf("only %d distinct programs for 50 seeds", len(distinct))
	}
}

func TestGolden(t *testing.T) {
	got := Generate(1, DefaultOptions())
	path := filepath.Join("testdata", "seed1.c")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("Generate(1) differs from %s (run go test -update if the change is intended):\n%s", path, got)
	}
}

func TestOptions(t *testing.T) {
	for seed := int64(0); seed < 200; seed++ {
		src := Generate(seed, Options{Threads: 3, Ops: 2, Globals: 2})
		if n := strings.Count(src, "pthread_create("); n != 3 {
			t.Errorf("seed %d: %d pthread_create calls, want 3", seed, n)
		}
		for _, banned := range []string{"atomic", "pthread_mutex", "assert"} {
			if strings.Contains(src, banned) {
				t.Errorf("seed %d: %q with the feature disabled:\n%s", seed, banned, src)
			}
		}
		if strings.Contains(src, "g2") {
			t.Errorf("seed %d: a third global with Globals: 2", seed)
		}
	}
}

// TestCoverage checks that the default options produce every kind of
// operation somewhere among a few hundred seeds.
func TestCoverage(t *testing.T) {
	var all strings.Builder
	for seed := int64(0); seed < 300; seed++ {
		all.WriteString(Generate(seed, DefaultOptions()))
	}
	text := all.String()
	for _, want := range []string{
		"atomic_int", "atomic_load(", "atomic_store(", "atomic_init(", "atomic_fetch_add(",
		"atomic_compare_exchange_strong(", "pthread_mutex_lock(&m);", "if (", "} else {",
		"for (int k = 0; k < 2; k++)", "pthread_join(", "assert(", "||", "&&",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no program contains %q", want)
		}
	}
}

func writePrograms(t *testing.T, dir string, n int) []string {
	t.Helper()
	var files []string
	for seed := range int64(n) {
		path := filepath.Join(dir, fmt.Sprintf("p%03d.c", seed))
		if err := os.WriteFile(path, []byte(Generate(seed, optionsFor(seed))), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	return files
}

func TestCompilesWithGCC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	files := writePrograms(t, t.TempDir(), 500)
	const batch = 100
	for i := 0; i < len(files); i += batch {
		args := append([]string{"-std=c11", "-Wall", "-Werror", "-pthread", "-fsyntax-only"}, files[i:min(i+batch, len(files))]...)
		if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
			t.Fatalf("gcc: %v\n%s", err, out)
		}
	}
}

// TestRunsNatively builds a few programs and runs each a few times: every run
// must end, either normally or by a failed assertion.
func TestRunsNatively(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	dir := t.TempDir()
	for i, src := range writePrograms(t, dir, 20) {
		bin := filepath.Join(dir, fmt.Sprintf("p%03d", i))
		if out, err := exec.Command(gcc, "-std=c11", "-pthread", "-o", bin, src).CombinedOutput(); err != nil {
			t.Fatalf("gcc %s: %v\n%s", src, err, out)
		}
		for range 3 {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			var stderr bytes.Buffer
			cmd := exec.CommandContext(ctx, bin)
			cmd.Stderr = &stderr
			err := cmd.Run()
			timedOut := ctx.Err() != nil
			cancel()
			if timedOut {
				t.Fatalf("%s did not terminate", src)
			}
			var exit *exec.ExitError
			if err != nil && !(errors.As(err, &exit) && strings.Contains(stderr.String(), "Assertion")) {
				t.Fatalf("%s: %v\n%s", src, err, stderr.String())
			}
		}
	}
}

// TestSyncCompilesWithGCC checks that programs with Options.Sync are valid
// POSIX C: gcc with warnings as errors accepts them (gnu11: the barrier
// and spin lock declarations are POSIX, not ISO C).
func TestSyncCompilesWithGCC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	dir := t.TempDir()
	var files []string
	for seed := int64(1); seed <= 200; seed++ {
		path := filepath.Join(dir, fmt.Sprintf("sync%d.c", seed))
		if err := os.WriteFile(path, []byte(Generate(seed, SyncOptions())), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	args := append([]string{"-std=gnu11", "-Wall", "-Werror", "-pthread", "-fsyntax-only"}, files...)
	if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
}
