package tracefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// fuzzRead reads data in format; it must either fail with a *ParseError or
// give a trace with every invariant of checkEvents.
func fuzzRead(t *testing.T, format string, data []byte, valueMode bool) {
	tr, meta, err := Read("fuzz", bytes.NewReader(data), Options{Format: format, ThirdFieldIsValue: valueMode})
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) || format != FormatJSON && pe.Line < 1 {
			t.Fatalf("error %v (%T)", err, err)
		}
		return
	}
	checkEvents(t, tr, meta)
	if format != FormatJSON && meta.Events+meta.Skipped > meta.Lines {
		t.Fatalf("meta %+v", meta)
	}
}

// addSeeds adds the first lines of the real traces matching glob.
func addSeeds(f *testing.F, glob string, add func([]byte)) {
	files, _ := filepath.Glob(filepath.Join(traceDir, glob))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		add(data[:min(len(data), 400)])
	}
}

func FuzzReadSTD(f *testing.F) {
	addSeeds(f, "*.std", func(b []byte) { f.Add(b, false) })
	for _, s := range []string{"T1|fork(T2)|1\nT2|fork(T1)|2\n", "T1|begin|0\nT1|end()|0\nT1|dummy(x)|0\n", "T1|w(x)|-5\n", "T1|r(a(b))|3"} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, valueMode bool) { fuzzRead(t, FormatSTD, data, valueMode) })
}

func FuzzReadVals(f *testing.F) {
	addSeeds(f, "*.vals.txt", func(b []byte) { f.Add(b) })
	f.Add([]byte("Fork 1 2 0\nJoin 2 1 0\nAcq 1 x 0\nBegin 3 0 0\nRead 1 -1 -9223372036854775808\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, FormatVals, data, false) })
}

func FuzzReadJSON(f *testing.F) {
	b, err := json.Marshal(handMade().JSON())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"file":"x","threads":["0"],"events":[{"thread":"1","index":0,"kind":"join","child":"0","value":0}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, FormatJSON, data, false) })
}

// FuzzDetect reads with format detection.
func FuzzDetect(f *testing.F) {
	addSeeds(f, "*", func(b []byte) { f.Add(b) })
	f.Add([]byte("\n\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader("fuzz", bytes.NewReader(data), Options{})
		if err != nil {
			return
		}
		fuzzRead(t, r.Format(), data, false)
	})
}
