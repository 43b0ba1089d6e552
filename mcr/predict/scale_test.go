package predict_test

// This file measures prediction on large synthetic traces read window by
// window: time, and peak heap sampled after every window, which must stay
// bounded by the window size rather than the trace length.

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mcr/mcr/predict"
	"mcr/program/tracefile"
)

// writeSynthetic writes a random trace of n events in the value format.
func writeSynthetic(tb testing.TB, n int) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "synthetic.vals.txt")
	fh, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(fh)
	cfg := tracefile.SynthConfig{Format: tracefile.FormatVals, Events: n, Threads: 8, Vars: 1000, Locks: 4, Seed: 7}
	if err := tracefile.Synthetic(w, cfg); err != nil {
		tb.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// predictScale runs a prediction of the trace at path with windows of
// 10000 events and returns the result and the peak heap in use (bytes),
// sampled every 10 ms and after every window. The decider is z3 (the CLI's
// default; its memory is outside the Go heap, see peakRSS), or explicit
// when z3 is not built in.
func predictScale(tb testing.TB, path string) (*predict.Result, uint64) {
	tb.Helper()
	decider := "z3"
	if d, err := predict.Deciders["z3"].New(time.Second); err != nil {
		decider = "explicit"
	} else if c, ok := d.(interface{ Close() }); ok {
		c.Close()
	}
	runtime.GC()
	var mu sync.Mutex
	var peak uint64
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		mu.Lock()
		peak = max(peak, ms.HeapInuse)
		mu.Unlock()
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				sample()
			}
		}
	}()
	opts := predict.Options{Decider: decider, Window: 10000, QueryTimeout: 10 * time.Second, CountQueries: 10,
		Progress: func(predict.Stats) { sample() }}
	res, err := predict.File(context.Background(), path, tracefile.Options{}, opts)
	close(stop)
	wg.Wait()
	if err != nil {
		tb.Fatal(err)
	}
	return res, peak
}

// peakRSS returns the process's peak resident set (bytes; Linux), which
// counts Z3's memory too, or 0.
func peakRSS() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// TestScale predicts on 50,000 events (BenchmarkPredict1M does 1,000,000)
// and checks that memory stays that of a few windows.
func TestScale(t *testing.T) {
	n := 50_000
	if testing.Short() {
		n = 20_000
	}
	res, peak := predictScale(t, writeSynthetic(t, n))
	s := res.Stats
	t.Logf("%d events, %d windows, %d races, %d racy events, %d queries (%s), %.1fs, peak heap %d MiB",
		s.Events, s.Windows, len(res.Races), s.RacyEvents, s.Queries, s.Decider, s.Seconds, peak>>20)
	if s.Events != int64(n) || s.Windows != n/10000 || s.Invalid > 0 {
		t.Errorf("stats %+v", s)
	}
	if peak > 512<<20 {
		t.Errorf("peak heap %d MiB", peak>>20)
	}
}

// BenchmarkPredict1M predicts on a synthetic trace of 1,000,000 events
// (8 threads, 1000 variables, 4 locks) in windows of 10,000 events and
// reports the peak heap and the process's peak resident set.
func BenchmarkPredict1M(b *testing.B) {
	path := writeSynthetic(b, 1_000_000)
	b.ResetTimer()
	for range b.N {
		res, peak := predictScale(b, path)
		s := res.Stats
		b.ReportMetric(float64(peak>>20), "peak-heap-MiB")
		b.ReportMetric(float64(peakRSS()>>20), "peak-RSS-MiB")
		b.ReportMetric(s.Seconds, "s")
		b.ReportMetric(float64(len(res.Races)), "races")
		b.ReportMetric(float64(s.RacyEvents), "racy-events")
		b.ReportMetric(float64(s.Queries), "queries")
	}
}

// TestWindowTail checks that a rest of at most half a window joins the last
// window and that a longer rest is a window of its own.
func TestWindowTail(t *testing.T) {
	for _, c := range []struct{ events, windows int }{{1000, 1}, {1500, 1}, {1501, 2}, {2400, 2}, {2600, 3}} {
		opts := predict.Options{Decider: "explicit", Window: 1000, MaxQueryEvents: 1} // no queries: only the windows count
		res, err := predict.File(context.Background(), writeSynthetic(t, c.events), tracefile.Options{}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if s := res.Stats; s.Events != int64(c.events) || s.Windows != c.windows {
			t.Errorf("%d events in windows of 1000: %d events, %d windows, want %d", c.events, s.Events, s.Windows, c.windows)
		}
	}
}
