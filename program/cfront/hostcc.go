package cfront

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"

	"modernc.org/cc/v4"
)

// This file caches what cc/v4 asks the system C compiler: its predefined
// macros (cc -dM -E -) and its include paths (cc -v -E -). Asking starts
// two compiler processes, about 0.1 s, which was most of the time of a
// run on a small program (issue 17). The answers are a function of the
// compiler binary, so they are stored in the user cache directory under
// a key made of the compiler's resolved path, size and modification time;
// a later run with the same compiler starts no process. Deleting the
// cache directory ($XDG_CACHE_HOME/mcr or ~/.cache/mcr) is always safe,
// and MCR_NO_CACHE=1 turns the cache off.

// hostCache is the cached part of a cc.Config: what cc.NewConfig learns
// from the compiler.
type hostCache struct {
	Version         int      `json:"version"`
	CC              string   `json:"cc"`
	Predefined      string   `json:"predefined"`
	IncludePaths    []string `json:"include_paths"`
	SysIncludePaths []string `json:"sys_include_paths"`
}

// hostCacheVersion changes when hostCache's meaning does.
const hostCacheVersion = 1

// hostConfig returns cc.NewConfig's configuration of the system compiler
// for this GOOS and GOARCH, from the cache when it has an entry for the
// compiler cc.NewConfig would run, else by running it and storing the
// answer. Any cache problem (no cache directory, an unreadable or stale
// entry) falls back to cc.NewConfig; only its errors are returned.
func hostConfig() (*cc.Config, error) {
	path := hostCachePath()
	if path != "" {
		if cfg := readHostCache(path); cfg != nil {
			return cfg, nil
		}
	}
	cfg, err := cc.NewConfig(runtime.GOOS, runtime.GOARCH)
	if err != nil || path == "" || stdcVersion(cfg.Predefined) >= 202000 {
		return cfg, err
	}
	data, err := json.Marshal(hostCache{Version: hostCacheVersion, CC: cfg.CC, Predefined: cfg.Predefined,
		IncludePaths: cfg.HostIncludePaths, SysIncludePaths: cfg.HostSysIncludePaths})
	if err == nil {
		writeCacheFile(path, data)
	}
	return cfg, nil
}

// writeCacheFile writes a cache entry whole, then renames it into place:
// a concurrent run reads the old entry or the new one, never half of one.
// Errors only lose the entry.
func writeCacheFile(path string, data []byte) {
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if os.WriteFile(tmp, data, 0o644) != nil || os.Rename(tmp, path) != nil {
		os.Remove(tmp)
	}
}

// cacheDir is mcr's directory in the user cache directory, "" when the
// caches are off (MCR_NO_CACHE set, not linux) or there is none.
func cacheDir() string {
	if os.Getenv("MCR_NO_CACHE") != "" || runtime.GOOS != "linux" {
		return ""
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "mcr")
}

// readHostCache returns the configuration stored at path, nil if there is
// none usable. A configuration is built as cc.NewConfig builds it without
// options on linux (the only difference, C23 keywords, is not cached: an
// entry whose compiler defaults to C23 is never written).
func readHostCache(path string) *cc.Config {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var h hostCache
	if json.Unmarshal(data, &h) != nil || h.Version != hostCacheVersion || h.Predefined == "" || stdcVersion(h.Predefined) >= 202000 {
		return nil
	}
	abi, err := cc.NewABI(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		return nil
	}
	inc := append([]string(nil), h.IncludePaths...)
	sys := append([]string(nil), h.SysIncludePaths...)
	return &cc.Config{
		ABI:                 abi,
		CC:                  h.CC,
		HostIncludePaths:    inc[:len(inc):len(inc)],
		HostSysIncludePaths: sys[:len(sys):len(sys)],
		IncludePaths:        append(append([]string{""}, inc...), sys...),
		Predefined:          h.Predefined,
		SysIncludePaths:     sys[:len(sys):len(sys)],
	}
}

// hostCachePath returns the cache file for the compiler cc.NewConfig would
// run ($CC, cc or gcc, the first found), "" if there is no cache: it is
// turned off, there is no cache directory, the platform is not linux (where
// NewConfig adds platform paths this file does not), or no compiler is found.
func hostCachePath() string {
	dir := cacheDir()
	if dir == "" {
		return ""
	}
	for _, name := range []string{os.Getenv("CC"), "cc", "gcc"} {
		if name == "" {
			continue
		}
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return ""
		}
		fi, err := os.Stat(real)
		if err != nil {
			return ""
		}
		key := fmt.Sprintf("%d|%s|%s|%s|%s|%d|%d", hostCacheVersion, runtime.GOOS, runtime.GOARCH, name, real, fi.Size(), fi.ModTime().UnixNano())
		sum := sha256.Sum256([]byte(key))
		return filepath.Join(dir, "cc-"+hex.EncodeToString(sum[:8])+".json")
	}
	return ""
}

var stdcVersionRE = regexp.MustCompile(`(?m)^#define __STDC_VERSION__ (\d+)L`)

// stdcVersion returns the value of __STDC_VERSION__ in predefined macros,
// 0 if it is not defined.
func stdcVersion(predefined string) int {
	m := stdcVersionRE.FindStringSubmatch(predefined)
	if m == nil {
		return 0
	}
	v, _ := strconv.Atoi(m[1])
	return v
}
