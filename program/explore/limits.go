package explore

// This file implements the limits every search shares: why a context
// ended it (StopReason) and a memory limit that ends it like a timeout
// (WithMemoryLimit).

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MemoryLimitError is the cause of a context WithMemoryLimit cancelled.
type MemoryLimitError struct {
	Limit uint64 // bytes
}

func (e *MemoryLimitError) Error() string {
	return fmt.Sprintf("memory limit (%s; raise --max-memory)", FormatBytes(e.Limit))
}

// StopReason names why ctx ended a search: "timeout", "interrupted", or
// the memory limit. Explorers record it as Stats.Stopped.
func StopReason(ctx context.Context) string {
	var mem *MemoryLimitError
	switch cause := context.Cause(ctx); {
	case errors.As(cause, &mem):
		return mem.Error()
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "timeout"
	}
	return "interrupted"
}

// WithMemoryLimit returns a context that is cancelled, with cause
// *MemoryLimitError, when the process's resident memory (which counts what
// Z3 allocates outside the Go heap; the Go heap where /proc is missing)
// exceeds limit bytes. It samples every 25 ms and sets the Go runtime's
// soft limit a little below, so that the collector works harder first.
// limit 0 means no limit. Call stop when the run is over.
func WithMemoryLimit(ctx context.Context, limit uint64) (_ context.Context, stop func()) {
	if limit == 0 {
		return ctx, func() {}
	}
	old := debug.SetMemoryLimit(int64(limit / 10 * 9))
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(25 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if residentBytes() > limit {
				cancel(&MemoryLimitError{Limit: limit})
				return
			}
		}
	}()
	return ctx, func() {
		close(done)
		wg.Wait()
		cancel(nil)
		debug.SetMemoryLimit(old)
	}
}

// DefaultMemoryLimit is three quarters of the machine's memory (0 if it
// cannot be read): the default of --max-memory.
func DefaultMemoryLimit() uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024 / 4 * 3
		}
	}
	return 0
}

var pageSize = uint64(os.Getpagesize())

// residentBytes is the process's resident set size from /proc/self/statm,
// or the Go heap if that cannot be read.
func residentBytes() uint64 {
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 2 {
			if pages, err := strconv.ParseUint(f[1], 10, 64); err == nil {
				return pages * pageSize
			}
		}
	}
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}} // supported by every Go runtime since 1.16
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// FormatBytes writes n as "1.5 GiB", "300 MiB" or "12 KiB".
func FormatBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
	case n >= 1<<20:
		return strconv.FormatUint(n>>20, 10) + " MiB"
	}
	return strconv.FormatUint(n>>10, 10) + " KiB"
}

// ParseBytes reads a size: a number of bytes with an optional unit K, M,
// G or T (powers of 1024; "KiB", "MB" and the like are accepted too), or
// "0"/"none" for no limit.
func ParseBytes(s string) (uint64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	if t == "NONE" || t == "0" {
		return 0, nil
	}
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := uint64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("bad size %q (want e.g. 8G, 500M, none)", s)
	}
	return uint64(v * float64(mult)), nil
}
