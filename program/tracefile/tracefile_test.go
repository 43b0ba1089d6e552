package tracefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mcr/program"
)

const traceDir = "../../../shared/data/traces"

// realTraces lists every file of traceDir with what it contains, counted
// independently with cut/awk/sort -u over the files. enum-input*.std carry
// values in their third field.
var realTraces = []struct {
	file                         string
	events, threads, vars, locks int
	begins, ends                 int // Begin and End events
}{
	{"account.std", 15, 4, 1, 0, 0, 0},
	{"bubblesort.std", 1654, 13, 25, 1, 0, 0},
	{"bufwriter.std", 10263, 6, 6, 1, 0, 0},
	{"clean.std", 867, 8, 2, 2, 0, 0},
	{"enum-input1.std", 4, 2, 1, 0, 0, 0},
	{"enum-input2.std", 4, 2, 1, 0, 0, 0},
	{"enum-input4.std", 8, 2, 1, 1, 0, 0},
	{"jigsaw.std", 3181, 8, 51, 45, 0, 0},
	{"lang.std", 1811, 7, 100, 0, 0, 0},
	{"mergesort.std", 167, 5, 1, 1, 0, 0},
	{"twostage.std", 83, 12, 2, 2, 0, 0},
	{"account.vals.txt", 19, 4, 1, 0, 3, 1},
	{"bubblesort.vals.txt", 1666, 13, 25, 1, 12, 0},
	{"bufwriter.vals.txt", 10272, 6, 6, 1, 5, 4},
	{"clean.vals.txt", 874, 8, 2, 2, 7, 0},
	{"crd-rv_predict_trace.vals.txt", 10, 2, 3, 1, 0, 0},
	{"crd-sample_trace.vals.txt", 8, 2, 2, 1, 0, 0},
	{"crd-sample_trace2.vals.txt", 10, 2, 3, 0, 1, 1},
	{"enum-input2.vals.txt", 4, 2, 1, 0, 0, 0},
	{"enum-input4.vals.txt", 8, 2, 1, 1, 0, 0},
	{"jigsaw.vals.txt", 3189, 8, 51, 45, 7, 1},
	{"lang.vals.txt", 1822, 7, 100, 0, 6, 5},
	{"mergesort.vals.txt", 174, 5, 1, 1, 4, 3},
	{"twostage.vals.txt", 94, 12, 2, 2, 11, 0},
}

// optionsFor is how a caller reads a file of traceDir: the hand-made
// consistency tests have values in their third field.
func optionsFor(file string) Options {
	return Options{ThirdFieldIsValue: strings.HasPrefix(file, "enum-input") && strings.HasSuffix(file, ".std")}
}

func TestRealTraces(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(traceDir, "*"))
	if err != nil || len(files) != len(realTraces) {
		t.Fatalf("%d files in %s, %d in the table (%v)", len(files), traceDir, len(realTraces), err)
	}
	for _, want := range realTraces {
		t.Run(want.file, func(t *testing.T) {
			path := filepath.Join(traceDir, want.file)
			tr, meta, err := ReadAll(path, optionsFor(want.file))
			if err != nil {
				t.Fatal(err)
			}
			if err := tr.Check(); err != nil {
				t.Fatal(err)
			}
			format := FormatSTD
			if strings.HasSuffix(want.file, ".vals.txt") {
				format = FormatVals
			}
			if meta.Format != format || tr.File != path {
				t.Errorf("format %q file %q, want %q %q", meta.Format, tr.File, format, path)
			}
			if meta.Values != (format == FormatVals || optionsFor(want.file).ThirdFieldIsValue) {
				t.Errorf("Values = %v", meta.Values)
			}
			got := [...]int{len(tr.Events), len(tr.Threads), meta.Vars, meta.Locks, meta.Kinds[program.Begin], meta.Kinds[program.End]}
			exp := [...]int{want.events, want.threads, want.vars, want.locks, want.begins, want.ends}
			if got != exp || meta.Events != want.events || meta.Threads != want.threads || meta.Skipped != 0 {
				t.Errorf("events, threads, vars, locks, begins, ends = %v, want %v (meta %+v)", got, exp, meta)
			}
			if lines := lineCount(t, path); meta.Lines != lines || lines != want.events {
				t.Errorf("read %d lines, file has %d non-empty lines", meta.Lines, lines)
			}
			checkEvents(t, tr, meta)
			if optionsFor(want.file).ThirdFieldIsValue { // they load as locations too
				tr, meta, err := ReadAll(path, Options{})
				if err != nil || meta.Values || len(tr.Events) != want.events {
					t.Errorf("read with locations: %v, %+v", err, meta)
				}
			}
		})
	}
}

func lineCount(t *testing.T, path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) != "" {
			n++
		}
	}
	return n
}

// checkEvents checks what every trace from this package must satisfy beyond
// Trace.Check: fork/join partners in range, parents acyclic, locations named,
// nothing atomic, values absent when Meta says so.
func checkEvents(t testing.TB, tr *program.Trace, meta Meta) {
	t.Helper()
	if err := tr.Check(); err != nil {
		t.Fatal(err)
	}
	if meta.Events != len(tr.Events) || meta.Threads != len(tr.Threads) {
		t.Fatalf("meta %+v for %d events, %d threads", meta, len(tr.Events), len(tr.Threads))
	}
	for id, th := range tr.Threads {
		steps := 0
		for p := th.Parent; p >= 0; p = tr.Threads[p].Parent {
			if int(p) >= len(tr.Threads) || steps > len(tr.Threads) {
				t.Fatalf("thread %d: bad parent chain", id)
			}
			steps++
		}
	}
	for i := range tr.Events {
		e := &tr.Events[i]
		switch {
		case e.Kind == program.Fork || e.Kind == program.Join:
			if e.Value < 0 || e.Value >= int64(len(tr.Threads)) || e.Value == int64(e.Thread) {
				t.Fatalf("event %d: %s of thread %d", i, e.Kind, e.Value)
			}
		case e.Kind.IsAccess() || e.Kind.IsLock():
			if tr.LocName(e.Loc) == "" || meta.Format != FormatJSON && int(e.Loc) >= meta.Vars+meta.Locks {
				t.Fatalf("event %d: location %d named %q", i, e.Loc, tr.LocName(e.Loc))
			}
			if !meta.Values && e.Value != 0 {
				t.Fatalf("event %d: value %d in a trace without values", i, e.Value)
			}
		}
		if meta.Format != FormatJSON && (e.Flags != 0 || e.Pos.Col != 0) {
			t.Fatalf("event %d: flags %v, pos %v", i, e.Flags, e.Pos)
		}
	}
}

// TestTwins compares each .std trace with its .vals.txt twin. They are the
// same events with the thread names Tn and n, each variable and lock renamed
// one to one, except that the value format adds a Begin right after each
// Fork (of the forked thread) and an End right before each Join (of the joined
// thread). The hand-made enum-input twins also agree on every value.
func TestTwins(t *testing.T) {
	stds, _ := filepath.Glob(filepath.Join(traceDir, "*.std"))
	twins := 0
	for _, std := range stds {
		vals := strings.TrimSuffix(std, ".std") + ".vals.txt"
		if _, err := os.Stat(vals); err != nil {
			continue
		}
		twins++
		t.Run(filepath.Base(std), func(t *testing.T) {
			ts, _, err := ReadAll(std, optionsFor(filepath.Base(std)))
			if err != nil {
				t.Fatal(err)
			}
			tv, mv, err := ReadAll(vals, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var stripped []program.Event
			for i, e := range tv.Events {
				switch e.Kind {
				case program.Begin:
					if i == 0 || tv.Events[i-1].Kind != program.Fork || tv.Events[i-1].Value != int64(e.Thread) {
						t.Errorf("vals event %d: Begin not right after its Fork", i)
					}
				case program.End:
					if i+1 == len(tv.Events) || tv.Events[i+1].Kind != program.Join || tv.Events[i+1].Value != int64(e.Thread) {
						t.Errorf("vals event %d: End not right before its Join", i)
					}
				default:
					stripped = append(stripped, e)
				}
			}
			if len(stripped) != len(ts.Events) || mv.Kinds[program.Begin] != mv.Kinds[program.Fork] || mv.Kinds[program.End] != mv.Kinds[program.Join] {
				t.Fatalf("%d events without Begin/End in vals, %d in std; vals kinds %v", len(stripped), len(ts.Events), mv.Kinds)
			}
			rename := map[string]string{}  // std location name -> vals name
			renamed := map[string]string{} // vals location name -> std name
			thread := func(tr *program.Trace, id int64) string { return tr.Threads[id].Name }
			for i, es := range ts.Events {
				ev := stripped[i]
				if es.Kind != ev.Kind || thread(ts, int64(es.Thread)) != "T"+thread(tv, int64(ev.Thread)) {
					t.Fatalf("event %d: std %s, vals %s", i, ts.Describe(i), tv.Describe(i))
				}
				switch {
				case es.Kind == program.Fork || es.Kind == program.Join:
					if thread(ts, es.Value) != "T"+thread(tv, ev.Value) {
						t.Fatalf("event %d: %s of %s vs %s", i, es.Kind, thread(ts, es.Value), thread(tv, ev.Value))
					}
				case es.Kind.IsAccess() || es.Kind.IsLock():
					ns, nv := "v"+ts.LocName(es.Loc), "v"+tv.LocName(ev.Loc)
					if es.Kind.IsLock() {
						ns, nv = "l"+ts.LocName(es.Loc), "l"+tv.LocName(ev.Loc)
					}
					if r, ok := rename[ns]; ok && r != nv {
						t.Fatalf("event %d: %s renamed to %s and %s", i, ns, r, nv)
					}
					if r, ok := renamed[nv]; ok && r != ns {
						t.Fatalf("event %d: %s and %s both renamed to %s", i, r, ns, nv)
					}
					rename[ns], renamed[nv] = nv, ns
					if strings.HasPrefix(filepath.Base(std), "enum-input") && es.Value != ev.Value {
						t.Fatalf("event %d: value %d in std, %d in vals", i, es.Value, ev.Value)
					}
				}
			}
		})
	}
	if twins != 10 {
		t.Errorf("%d twins, want 10", twins)
	}
}

func TestParents(t *testing.T) {
	tr, _, err := ReadAll(filepath.Join(traceDir, "account.std"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []program.Thread{{Name: "T2", Parent: -1}, {Name: "T1", Parent: 0}, {Name: "T20", Parent: 1}, {Name: "T21", Parent: 1}}
	if !reflect.DeepEqual(tr.Threads, want) {
		t.Errorf("threads %v, want %v", tr.Threads, want)
	}
	e := tr.Events[1] // T1|w(V16e92358.199)|347
	if e.Thread != 1 || e.Index != 0 || e.Kind != program.Write || e.Pos.Line != 347 || tr.LocName(e.Loc) != "V16e92358.199" {
		t.Errorf("event 1 = %+v", e)
	}
	// Thread 2 runs before it is forked and begins.
	tr, _, err = ReadAll(filepath.Join(traceDir, "crd-sample_trace2.vals.txt"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want = []program.Thread{{Name: "1", Parent: -1}, {Name: "2", Parent: 0}}
	if !reflect.DeepEqual(tr.Threads, want) || tr.Events[6].Kind != program.Fork || tr.Events[6].Value != 1 {
		t.Errorf("threads %v, want %v; event 6 %+v", tr.Threads, want, tr.Events[6])
	}
}

func TestDetect(t *testing.T) {
	for _, f := range realTraces {
		got, err := Detect(filepath.Join(traceDir, f.file))
		want := FormatSTD
		if strings.HasSuffix(f.file, ".txt") {
			want = FormatVals
		}
		if got != want || err != nil {
			t.Errorf("%s: %q, %v", f.file, got, err)
		}
	}
	for in, want := range map[string]string{
		"\n\n  {\"threads\":[]}": FormatJSON,
		"{":                      FormatJSON,
		" T1|w(x)|3":             FormatSTD,
		"\r\nEnd 1 0 0\r\n":      FormatVals,
		strings.Repeat("\n", 100000) + "Read 1 x 0": FormatVals,
		"Write 1 x" + strings.Repeat("x", 200000):   FormatVals,
	} {
		r, err := NewReader("in", strings.NewReader(in), Options{})
		if err != nil || r.Format() != want {
			t.Errorf("%.20q: %v, want %q", in, err, want)
		}
	}
}

// TestStreaming reads with Next and checks it sees what ReadAll sees, with
// the tables growing as it goes, and that errors stick.
func TestStreaming(t *testing.T) {
	path := filepath.Join(traceDir, "bubblesort.std")
	all, _, err := ReadAll(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(path, Options{Format: FormatSTD})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	names := r.LocNames()
	for i := 0; ; i++ {
		e, err := r.Next()
		if err == io.EOF {
			if i != len(all.Events) {
				t.Fatalf("EOF after %d events", i)
			}
			break
		}
		if err != nil || e != all.Events[i] || int(e.Thread) >= len(r.Threads()) || int(e.Pos.Line) == 0 && i > 1 {
			t.Fatalf("event %d: %+v, %v; want %+v", i, e, err, all.Events[i])
		}
		if e.Kind.IsAccess() && names(e.Loc) != all.LocName(e.Loc) {
			t.Fatalf("event %d: location %q, want %q", i, names(e.Loc), all.LocName(e.Loc))
		}
		if r.Line() != i+1 || r.Meta().Events != i+1 {
			t.Fatalf("event %d: line %d, meta %+v", i, r.Line(), r.Meta())
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after EOF: %v", err)
	}
	r, err = NewReader("x.std", strings.NewReader("T1|w(x)|1\nT1|q(x)|1\nT1|w(x)|1\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.Next()
	_, err1 := r.Next()
	_, err2 := r.Next()
	var pe *ParseError
	if !errors.As(err1, &pe) || pe.Line != 2 || err2 != err1 {
		t.Errorf("errors %v, %v", err1, err2)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	traces := []*program.Trace{handMade()}
	for _, f := range realTraces {
		tr, _, err := ReadAll(filepath.Join(traceDir, f.file), optionsFor(f.file))
		if err != nil {
			t.Fatal(err)
		}
		traces = append(traces, tr)
	}
	for _, tr := range traces {
		t.Run(filepath.Base(tr.File), func(t *testing.T) {
			tj := tr.JSON()
			back, err := FromJSON(tj)
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(tj)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "t.json")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			read, meta, err := ReadAll(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if meta.Format != FormatJSON {
				t.Errorf("format %q", meta.Format)
			}
			checkEvents(t, read, meta)
			for _, got := range []*program.Trace{back, read} {
				if !reflect.DeepEqual(got.Events, tr.Events) || !reflect.DeepEqual(got.Threads, tr.Threads) || got.File != tr.File {
					t.Fatalf("round trip differs:\n%+v\n%+v\n%+v\n%+v", got.Threads, tr.Threads, got.Events, tr.Events)
				}
				for i, e := range tr.Events {
					if (e.Kind.IsAccess() || e.Kind.IsLock()) && got.LocName(e.Loc) != tr.LocName(e.Loc) {
						t.Fatalf("event %d: location %q, want %q", i, got.LocName(e.Loc), tr.LocName(e.Loc))
					}
				}
				if !reflect.DeepEqual(got.JSON(), tj) {
					t.Fatal("JSON of the decoded trace differs")
				}
			}
		})
	}
}

// handMade is a trace using every kind, flag and field of the JSON form.
func handMade() *program.Trace {
	const x, m = program.Loc(7<<32 | 8), program.Loc(9 << 32)
	names := map[program.Loc]string{x: "x", m: "m"}
	p := func(l int32) program.Pos { return program.Pos{Line: l, Col: 3} }
	return &program.Trace{
		File:     "hand.c",
		Threads:  []program.Thread{{Name: "0", Parent: -1}, {Name: "0.0", Parent: 0}, {Name: "0.1", Parent: 0}},
		LocNames: func(l program.Loc) string { return names[l] },
		Events: []program.Event{
			{Thread: 0, Index: 0, Kind: program.Fork, Value: 1, Pos: p(1)},
			{Thread: 1, Index: 0, Kind: program.Begin},
			{Thread: 1, Index: 1, Kind: program.Read, Flags: program.RMW | program.Atomic | program.CAS, Loc: x, Value: -5, Pos: p(2)},
			{Thread: 1, Index: 2, Kind: program.Write, Flags: program.RMWWrite | program.Atomic, Loc: x, Value: 1 << 40, Pos: p(2)},
			{Thread: 0, Index: 1, Kind: program.Acquire, Loc: m, Pos: p(3)},
			{Thread: 0, Index: 2, Kind: program.LockFail, Loc: m},
			{Thread: 0, Index: 3, Kind: program.Read, Flags: program.Deref, Loc: x, Value: 0},
			{Thread: 0, Index: 4, Kind: program.Fence},
			{Thread: 0, Index: 5, Kind: program.Release, Loc: m},
			{Thread: 1, Index: 3, Kind: program.End},
			{Thread: 0, Index: 6, Kind: program.Join, Value: 1},
			{Thread: 0, Index: 7, Kind: program.Fork, Value: 2},
		},
	}
}

func TestReadFromMemory(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("\n  T0|fork(T1)|0  \r\nT1|begin|4\nT1|dummy(x)|5\nT1|r(a(1))|6\nT1|end()|7\nT0|join(T1)|0\n\n")
	tr, meta, err := Read("mem.std", &b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, tr, meta)
	kinds := []program.Kind{program.Fork, program.Begin, program.Read, program.End, program.Join}
	if len(tr.Events) != len(kinds) || meta.Skipped != 1 || meta.Lines != 8 || tr.LocName(tr.Events[2].Loc) != "a(1)" {
		t.Fatalf("events %+v, meta %+v", tr.Events, meta)
	}
	for i, k := range kinds {
		if tr.Events[i].Kind != k {
			t.Errorf("event %d: %s, want %s", i, tr.Events[i].Kind, k)
		}
	}
	// A variable and a lock with the same name are different locations.
	tr, meta, err = Read("mem.vals", strings.NewReader("Acq 1 a 0\nWrite 1 a 5\nRel 1 a 0\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if meta.Vars != 1 || meta.Locks != 1 || tr.Events[0].Loc == tr.Events[1].Loc || tr.Events[1].Value != 5 ||
		tr.LocName(tr.Events[0].Loc) != "a" || tr.LocName(tr.Events[1].Loc) != "a" {
		t.Errorf("events %+v, meta %+v", tr.Events, meta)
	}
}
