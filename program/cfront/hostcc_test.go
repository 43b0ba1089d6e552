package cfront

import (
	"os"
	"reflect"
	"runtime"
	"testing"

	"modernc.org/cc/v4"
)

// TestHostConfigCache: the configuration read from the cache is the one
// cc.NewConfig builds, a second call uses the entry the first wrote, and a
// corrupt entry falls back to asking the compiler.
func TestHostConfigCache(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the cache is used on linux only")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("MCR_NO_CACHE", "")
	want, err := cc.NewConfig(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		t.Skip("no C compiler:", err)
	}
	path := hostCachePath()
	if path == "" {
		t.Fatal("no cache path")
	}
	if stdcVersion(want.Predefined) >= 202000 {
		t.Skip("the compiler defaults to C23, which is not cached")
	}
	same := func(what string, got *cc.Config) {
		t.Helper()
		if got.Predefined != want.Predefined || !reflect.DeepEqual(got.IncludePaths, want.IncludePaths) ||
			!reflect.DeepEqual(got.SysIncludePaths, want.SysIncludePaths) || !reflect.DeepEqual(got.HostIncludePaths, want.HostIncludePaths) ||
			!reflect.DeepEqual(got.HostSysIncludePaths, want.HostSysIncludePaths) || got.CC != want.CC || !reflect.DeepEqual(got.ABI, want.ABI) {
			t.Errorf("%s: configuration differs from cc.NewConfig's:\n%+v\n%+v", what, got, want)
		}
	}
	first, err := hostConfig()
	if err != nil {
		t.Fatal(err)
	}
	same("first call", first)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no cache entry written: %v", err)
	}
	cached := readHostCache(path)
	if cached == nil {
		t.Fatal("the entry just written is not readable")
	}
	same("from the cache", cached)
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if readHostCache(path) != nil {
		t.Error("a corrupt entry was used")
	}
	again, err := hostConfig()
	if err != nil {
		t.Fatal(err)
	}
	same("after a corrupt entry", again)
	if readHostCache(path) == nil {
		t.Error("the corrupt entry was not replaced")
	}
	t.Setenv("MCR_NO_CACHE", "1")
	if hostCachePath() != "" {
		t.Error("MCR_NO_CACHE=1 did not turn the cache off")
	}
}
