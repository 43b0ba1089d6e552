package cfront

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"modernc.org/cc/v4"
)

// This file caches the verdict of the guard pass (load.go): the separate
// cc.Preprocess run that refuses preprocessing errors and macro-built
// nesting before cc/v4's parser can hang or overflow the stack on them.
// That pass preprocesses the whole translation unit a second time, system
// headers included: on the small programs of issue 17 it was 40% of the
// time of a run (lastwrite -DN=7: 45 -> 27 ms of CPU without it).
//
// The verdict is a function of the preprocessor's input: the main file's
// text, the -D definitions, the configuration (include paths, predefined
// macros, expansion limit), the mcr binary, and every file the
// preprocessor looked for. cc/v4 asks Config.FS for every file it opens
// or tests (#include, __has_include) before it falls back to the host file
// system, so a recording FS learns all of them; each is stamped (exists,
// size, modification time, inode, mode) when it is first asked for, before
// cc/v4 reads it, so that a change during the run shows as a changed stamp
// next time, never as a stale match. A later load whose key is the same
// and whose stamps all still match skips the pass: ccache's direct mode,
// for a verdict instead of an object file. Only a pass that succeeded is
// stored; failures are always recomputed, and so is everything else the
// pass guarded (the include-cycle and size checks run every time).
//
// Entries live beside the compiler cache (hostcc.go): $XDG_CACHE_HOME/mcr
// or ~/.cache/mcr, one of 256 files chosen by the key, so that the cache
// stays bounded however many files are checked, and runs that alternate
// -D values or binaries do not evict each other; a collision only costs a
// pass. MCR_NO_CACHE=1 turns it off, like the compiler cache.

// guardCacheVersion changes when the guard or the entry format does.
const guardCacheVersion = 1

// guardRecent: an entry is not written while a stamped file is younger
// than this, since a file changed again within the file system's
// timestamp granularity would keep its stamp (ccache's "too new" rule).
const guardRecent = 2 * time.Second

// guardPasses counts the guard passes run, for the tests: a hit runs none.
var guardPasses atomic.Int64

// fileStamp is what a file looked like when the preprocessor asked for it.
type fileStamp struct {
	Name   string `json:"name"`
	Exists bool   `json:"exists,omitempty"`
	Size   int64  `json:"size,omitempty"`
	ModNs  int64  `json:"mod_ns,omitempty"`
	Ino    uint64 `json:"ino,omitempty"`
	Mode   uint32 `json:"mode,omitempty"`
}

// stampFile stamps the file name (relative names against the working
// directory, which is part of the key).
func stampFile(name string) fileStamp {
	fi, err := os.Stat(name)
	if err != nil {
		return fileStamp{Name: name}
	}
	s := fileStamp{Name: name, Exists: true, Size: fi.Size(), ModNs: fi.ModTime().UnixNano(), Mode: uint32(fi.Mode())}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.Ino = st.Ino
	}
	return s
}

// guardEntry is one cache file.
type guardEntry struct {
	Version int         `json:"version"`
	Key     string      `json:"key"`
	Files   []fileStamp `json:"files"`
}

// guardCache is the cache entry of one load; nil means no caching.
type guardCache struct {
	path, key string
	rec       *recordingFS
}

// newGuardCache returns the cache of the guard pass for preprocessing src
// (the main file name, relative to the working directory) with
// defs (the <defines> source) under cfg, or nil when caching is off or
// impossible (no cache directory, no executable to stamp).
func newGuardCache(name string, src []byte, defs string, cfg *cc.Config) *guardCache {
	dir := cacheDir()
	exe := exeStamp()
	if dir == "" || exe == "" {
		return nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	h := sha256.New()
	// every part length-prefixed, so that no two keys run together
	for _, part := range []string{fmt.Sprint(guardCacheVersion, maxNesting), exe, wd, name, string(src), defs,
		strings.Join(cfg.IncludePaths, "\x00"), strings.Join(cfg.SysIncludePaths, "\x00"), cfg.Predefined,
		fmt.Sprint(cfg.ExpansionLimit, cfg.FSOnly)} {
		fmt.Fprintf(h, "%d:", len(part))
		h.Write([]byte(part))
	}
	key := h.Sum(nil)
	return &guardCache{
		path: filepath.Join(dir, fmt.Sprintf("guard-%02x.json", key[0])),
		key:  hex.EncodeToString(key),
	}
}

// hit reports whether a stored pass with the same key saw the same files.
func (g *guardCache) hit() bool {
	if g == nil {
		return false
	}
	data, err := os.ReadFile(g.path)
	if err != nil {
		return false
	}
	var e guardEntry
	if json.Unmarshal(data, &e) != nil || e.Version != guardCacheVersion || e.Key != g.key {
		return false
	}
	for _, f := range e.Files {
		if stampFile(f.Name) != f {
			return false
		}
	}
	return true
}

// fs returns base wrapped to record what the preprocessor asks for (base
// itself when g is nil).
func (g *guardCache) fs(base fs.FS) fs.FS {
	guardPasses.Add(1)
	if g == nil {
		return base
	}
	g.rec = &recordingFS{base: base, seen: map[string]bool{}}
	return g.rec
}

// store writes the entry for a pass that succeeded, unless a file it saw
// is too recent to trust its stamp. Errors only lose the entry.
func (g *guardCache) store() {
	if g == nil || g.rec == nil {
		return
	}
	recent := time.Now().Add(-guardRecent).UnixNano()
	for _, f := range g.rec.stamps {
		if f.Exists && f.ModNs > recent {
			return
		}
	}
	data, err := json.Marshal(guardEntry{Version: guardCacheVersion, Key: g.key, Files: g.rec.stamps})
	if err != nil {
		return
	}
	writeCacheFile(g.path, data)
}

// recordingFS is the front end's header FS, stamping every name cc/v4
// asks it for (found in it or not: cc/v4 then tries the host file system
// under the same name).
type recordingFS struct {
	base   fs.FS
	mu     sync.Mutex
	seen   map[string]bool
	stamps []fileStamp
}

func (r *recordingFS) Open(name string) (fs.File, error) {
	r.mu.Lock()
	if !r.seen[name] {
		r.seen[name] = true
		r.stamps = append(r.stamps, stampFile(name))
	}
	r.mu.Unlock()
	return r.base.Open(name)
}

var (
	exeOnce sync.Once
	exeID   string
)

// exeStamp identifies the running binary (path, size, modification time),
// "" if it cannot: a rebuilt mcr may guard differently.
func exeStamp() string {
	exeOnce.Do(func() {
		p, err := os.Executable()
		if err != nil {
			return
		}
		fi, err := os.Stat(p)
		if err != nil {
			return
		}
		exeID = fmt.Sprintf("%s|%d|%d", p, fi.Size(), fi.ModTime().UnixNano())
	})
	return exeID
}
