// Package randtest runs tests over random programs of package randprog:
// how many (from an environment variable), generating and loading each, and
// printing the source of a program that makes the test fail. It exists so
// that the differential tests of every explorer share one loop.
package randtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"mcr/program"
	"mcr/program/cfront"
	"mcr/program/explore"
	"mcr/program/randprog"
)

// Count returns how many random programs a test runs: the value of the
// environment variable env if it is set, else short under -short, else def.
func Count(env string, def, short int) int {
	if s := os.Getenv(env); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	if testing.Short() {
		return short
	}
	return def
}

// Seeds returns the seeds 1..n after the given extra ones (regressions).
func Seeds(n int, extra ...int64) []int64 {
	out := append([]int64(nil), extra...)
	for s := int64(1); s <= int64(n); s++ {
		out = append(out, s)
	}
	return out
}

// Each generates the program of every seed with opts, loads it as
// PREFIXSEED.c and calls f with the seed. When f makes t fail, the program's source is
// logged and Each stops: one failing program is enough to debug.
func Each(t *testing.T, prefix string, seeds []int64, opts randprog.Options, f func(seed int64, name string, p program.Program)) {
	t.Helper()
	EachLoaded(t, prefix, seeds, opts, cfront.Options{}, f)
}

// EachLoaded is Each with the programs loaded with load (bounds).
func EachLoaded(t *testing.T, prefix string, seeds []int64, opts randprog.Options, load cfront.Options, f func(seed int64, name string, p program.Program)) {
	t.Helper()
	for _, seed := range seeds {
		src := randprog.Generate(seed, opts)
		name := fmt.Sprintf("%s%d.c", prefix, seed)
		p, err := cfront.LoadSource(name, []byte(src), load)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		before := t.Failed()
		f(seed, name, p)
		if !before && t.Failed() {
			t.Logf("%s:\n%s", name, src)
			return
		}
	}
}

// Fresh returns p as if just loaded (cfront.Program.Fresh): differential
// tests run each explorer on a fresh program, so that none inherits the
// thread table an earlier exploration of p grew. Programs of other kinds
// are returned as they are.
func Fresh(p program.Program) program.Program {
	if c, ok := p.(*cfront.Program); ok {
		return c.Fresh()
	}
	return p
}

// DFS runs explore.DFS on p with opts, giving up after limit executions
// (counted through opts.Observe, so the cut is the same on every run):
// complete is false then, and p is too big to compare with dfs.
func DFS(p program.Program, limit int, opts explore.Options) (r *explore.Result, complete bool) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n, observe := 0, opts.Observe
	opts.Observe = func(x program.Execution) {
		if observe != nil {
			observe(x)
		}
		if n++; n >= limit {
			cancel()
		}
	}
	r = explore.DFS(ctx, p, opts)
	return r, r.Stats.Complete && n < limit
}

// LoadModel loads the C source src (file name name, -D defines) to run
// under memory model m; it fails the test on an error.
func LoadModel(t testing.TB, name, src string, defines []string, m program.MemoryModel) *cfront.Program {
	t.Helper()
	return LoadModelWith(t, name, src, cfront.Options{Defines: defines}, m)
}

// LoadModelWith is LoadModel with the load options (defines, bounds).
func LoadModelWith(t testing.TB, name, src string, load cfront.Options, m program.MemoryModel) *cfront.Program {
	t.Helper()
	p, err := cfront.LoadSource(name, []byte(src), load)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := p.SetModel(m); err != nil {
		t.Fatal(err)
	}
	return p
}

// ModelCase is a testdata run under a relaxed memory model, with its source.
type ModelCase struct {
	explore.Case
	Model program.MemoryModel
	Src   string
}

// Load returns the load options of the run: its defines and event bound.
func (c *ModelCase) Load() cfront.Options {
	return cfront.Options{Defines: c.DefineList(), MaxEvents: c.MaxEvents}
}

// ModelCases returns the runs of the testdata directory dir whose memory
// model is TSO or PSO; it fails the test when dir cannot be read.
func ModelCases(t testing.TB, dir string) []ModelCase {
	t.Helper()
	cases, err := explore.LoadCases(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []ModelCase
	for _, c := range cases {
		m, ok := program.ParseMemoryModel(c.MM)
		if !ok || m == program.SC {
			continue
		}
		src, err := os.ReadFile(c.File)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ModelCase{c, m, string(src)})
	}
	return out
}

// RelaxedSweep generates the program of every seed with opts and calls
// compare on its source under TSO and under PSO; compare returns false
// when it compared nothing (dfs was cut). It logs how many (program,
// model) pairs were compared: the shared loop of the differential tests
// under the relaxed models.
func RelaxedSweep(t *testing.T, seeds []int64, opts randprog.Options, compare func(name, src string, m program.MemoryModel) bool) {
	t.Helper()
	compared := 0
	for _, seed := range seeds {
		src := randprog.Generate(seed, opts)
		for _, m := range program.Models[1:] { // TSO, PSO
			if compare(fmt.Sprintf("random%d.c", seed), src, m) {
				compared++
			}
		}
	}
	t.Logf("%d programs, %d (program, model) pairs compared with dfs", len(seeds), compared)
}

// BlockingFiles are the programs of testdata/c whose executions block
// (failed assumes, awaits, condition waits, barriers) or end with threads
// waiting for a lock, small enough for dfs under TSO and PSO (names, if
// given, instead); every program of dir if env is set. It returns (file
// name, source) pairs read from dir; it fails the test when a file cannot
// be read.
func BlockingFiles(t testing.TB, dir, env string, names ...string) [][2]string {
	t.Helper()
	files := names
	if len(files) == 0 {
		files = []string{
			"assume.c", "assume_await.c", "assume_locked.c", "assume_stuck.c",
			"barrier_ok.c", "barrier_phase.c", "barrier_short.c",
			"cond_if.c", "cond_lost.c", "cond_pc.c", "lock_order_deadlock.c",
		}
	}
	if os.Getenv(env) != "" {
		all, _ := filepath.Glob(filepath.Join(dir, "*.c"))
		files = files[:0]
		for _, f := range all {
			files = append(files, filepath.Base(f))
		}
	}
	var out [][2]string
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, [2]string{f, string(src)})
	}
	return out
}
