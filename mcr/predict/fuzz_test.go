package predict_test

// Fuzz targets for the whole prediction on small traces of each format:
// whatever the input, predict.File returns a result or an error naming the
// input (*tracefile.ParseError or *predict.InputError), never a panic. The
// seeds are the test traces and the hand-made shapes of issue 13.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"mcr/mcr/predict"
	"mcr/program/tracefile"
)

func fuzzPredict(t *testing.T, name string, data []byte) {
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, window := range []int{0, 3} {
		_, err := predict.File(ctx, path, tracefile.Options{}, predict.Options{Decider: "explicit", Workers: 1, Window: window,
			QueryTimeout: time.Second, CheckAll: true})
		var pe *tracefile.ParseError
		var ie *predict.InputError
		if err != nil && !errors.As(err, &pe) && !errors.As(err, &ie) {
			t.Fatalf("window %d: error %v (%T)", window, err, err)
		}
	}
}

// addTraceSeeds adds the test traces matching glob, cut to a few events.
func addTraceSeeds(f *testing.F, glob string) {
	files, _ := filepath.Glob(traces + glob)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 600)])
	}
}

func FuzzPredictSTD(f *testing.F) {
	addTraceSeeds(f, "*.std")
	for _, s := range []string{
		"T1|w(x)|10\nT0|fork(T1)|1\nT0|r(x)|2\nT1|w(x)|11\n",
		"T0|fork(T1)|1\nT1|acq(l)|2\nT1|w(x)|3\nT0|r(x)|4\nT1|rel(l)|5\nT0|join(T1)|6\n",
		"T0|join(T1)|1\nT1|w(x)|2\nT0|fork(T1)|3\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzPredict(t, "fuzz.std", data) })
}

func FuzzPredictVals(f *testing.F) {
	addTraceSeeds(f, "*.vals.txt")
	f.Add([]byte("Write 1 x 1\nFork 0 1 0\nRead 0 x 1\nWrite 1 x 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzPredict(t, "fuzz.vals.txt", data) })
}

func FuzzPredictJSON(f *testing.F) {
	addTraceSeeds(f, "*.json")
	f.Add([]byte(`{"threads":["0","1"],"events":[{"thread":"1","index":0,"kind":"write","loc":1,"value":5},` +
		`{"thread":"0","index":0,"kind":"fork","child":"1","value":0},{"thread":"0","index":1,"kind":"read","loc":1,"value":5}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzPredict(t, "fuzz.json", data) })
}
