package tracefile

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"mcr/program"
)

// TestSynthetic reads generated traces back and checks their size, shape, lock
// discipline and (value format) that every read returns the last write.
func TestSynthetic(t *testing.T) {
	for _, c := range []SynthConfig{
		{Format: FormatSTD, Events: 1000, Threads: 5, Vars: 10, Locks: 3, Seed: 1},
		{Format: FormatVals, Events: 1000, Threads: 5, Vars: 10, Locks: 3, Seed: 1},
		{Format: FormatVals, Events: 12, Threads: 4, Vars: 1, Locks: 1, Seed: 2},
		{Format: FormatSTD, Events: 3, Threads: 1, Vars: 2, Locks: 0, Seed: 3},
		{Format: FormatSTD, Events: 0, Threads: 1, Vars: 1, Locks: 5, Seed: 4},
		{Format: FormatVals, Events: 50000, Threads: 16, Vars: 100, Locks: 1, Seed: 5},
	} {
		var b bytes.Buffer
		if err := Synthetic(&b, c); err != nil {
			t.Fatal(err)
		}
		again := new(bytes.Buffer)
		Synthetic(again, c)
		if !bytes.Equal(b.Bytes(), again.Bytes()) {
			t.Errorf("%+v: not deterministic", c)
		}
		tr, meta, err := Read("synthetic", &b, Options{Format: c.Format})
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		checkEvents(t, tr, meta)
		if len(tr.Events) != c.Events || c.Events > 0 && len(tr.Threads) != c.Threads || meta.Vars > c.Vars || meta.Locks > c.Locks {
			t.Errorf("%+v: %d events, meta %+v", c, len(tr.Events), meta)
		}
		holder := map[program.Loc]program.ThreadID{}
		mem := map[program.Loc]int64{}
		for i, e := range tr.Events {
			switch e.Kind {
			case program.Acquire:
				if _, held := holder[e.Loc]; held {
					t.Fatalf("%+v: event %d acquires a held lock", c, i)
				}
				holder[e.Loc] = e.Thread
			case program.Release:
				if h, held := holder[e.Loc]; !held || h != e.Thread {
					t.Fatalf("%+v: event %d releases a lock it does not hold", c, i)
				}
				delete(holder, e.Loc)
			case program.Write:
				mem[e.Loc] = e.Value
			case program.Read:
				if c.Format == FormatVals && e.Value != mem[e.Loc] {
					t.Fatalf("%+v: event %d reads %d, last write %d", c, i, e.Value, mem[e.Loc])
				}
			}
		}
		if len(holder) != 0 {
			t.Errorf("%+v: locks held at the end: %v", c, holder)
		}
	}
	for _, c := range []SynthConfig{
		{Format: "xml", Events: 10, Threads: 1, Vars: 1},
		{Format: FormatSTD, Events: 10, Threads: 0, Vars: 1},
		{Format: FormatSTD, Events: 10, Threads: 1, Vars: 0},
		{Format: FormatSTD, Events: 10, Threads: 1, Vars: 1, Locks: -1},
		{Format: FormatVals, Events: 11, Threads: 4, Vars: 1},
	} {
		if err := Synthetic(io.Discard, c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

// BenchmarkReadSTD streams a synthetic STD trace of a million lines and
// reports lines per second.
func BenchmarkReadSTD(b *testing.B) { benchmarkRead(b, FormatSTD) }

// BenchmarkReadVals is BenchmarkReadSTD for the value format.
func BenchmarkReadVals(b *testing.B) { benchmarkRead(b, FormatVals) }

func benchmarkRead(b *testing.B, format string) {
	const lines = 1_000_000
	path := filepath.Join(b.TempDir(), "big."+format)
	fh, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(fh)
	if err := Synthetic(w, SynthConfig{Format: format, Events: lines, Threads: 16, Vars: 10000, Locks: 50, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	fh.Close()
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	b.ResetTimer()
	for b.Loop() {
		r, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		r.Close()
		if n != lines {
			b.Fatalf("%d events", n)
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkReadAllSTD is BenchmarkReadSTD keeping every event (ReadAll).
func BenchmarkReadAllSTD(b *testing.B) {
	const lines = 1_000_000
	path := filepath.Join(b.TempDir(), "big.std")
	var buf bytes.Buffer
	if err := Synthetic(&buf, SynthConfig{Format: FormatSTD, Events: lines, Threads: 16, Vars: 10000, Locks: 50, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for b.Loop() {
		tr, _, err := ReadAll(path, Options{})
		if err != nil || len(tr.Events) != lines {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}
