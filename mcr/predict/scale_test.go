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
// 10000 events and returns the result and the peak heap in use (bytes).
func predictScale(tb testing.TB, path string) (*predict.Result, uint64) {
	tb.Helper()
	runtime.GC()
	var peak uint64
	var ms runtime.MemStats
	opts := predict.Options{Decider: "explicit", Window: 10000, QueryTimeout: 10 * time.Second, CountQueries: predict.DefaultCountQueries,
		Progress: func(predict.Stats) {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}}
	res, err := predict.File(context.Background(), path, tracefile.Options{}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return res, peak
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
	t.Logf("%d events, %d windows, %d races, %d racy events, %d queries, %.1fs, peak heap %d MiB",
		s.Events, s.Windows, len(res.Races), s.RacyEvents, s.Queries, s.Seconds, peak>>20)
	if s.Events != int64(n) || s.Windows != n/10000 || s.Invalid > 0 {
		t.Errorf("stats %+v", s)
	}
	if peak > 512<<20 {
		t.Errorf("peak heap %d MiB", peak>>20)
	}
}

// BenchmarkPredict1M predicts on a synthetic trace of 1,000,000 events
// (8 threads, 1000 variables, 4 locks) in windows of 10,000 events and
// reports the peak heap.
func BenchmarkPredict1M(b *testing.B) {
	path := writeSynthetic(b, 1_000_000)
	b.ResetTimer()
	for range b.N {
		res, peak := predictScale(b, path)
		s := res.Stats
		b.ReportMetric(float64(peak>>20), "peak-MiB")
		b.ReportMetric(float64(len(res.Races)), "races")
		b.ReportMetric(float64(s.RacyEvents), "racy-events")
		b.ReportMetric(float64(s.Queries), "queries")
	}
}
