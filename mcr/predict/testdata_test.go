package predict_test

// This file runs every trace of testdata/traces against its expectations,
// the sibling file TRACE.want:
//
//	# comment
//	race SITE | SITE racy N later M   a location pair with its racy-event counts
//	null SITE reads N                 a site of dereferenced reads that can read null
//	none                              no finding
//	error TEXT                        prediction fails with an error containing TEXT
//
// with every decider, and with both deciders asked every query (no
// shortcuts), which must agree.

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mcr/mcr/predict"
	"mcr/program/tracefile"
)

const traces = "../../testdata/traces/"

type want struct {
	findings []string // "race A | B racy N later M", "null A reads N", sorted
	err      string
}

func readWant(t *testing.T, path string) want {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var w want
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || line == "none":
		case strings.HasPrefix(line, "error "):
			w.err = strings.TrimPrefix(line, "error ")
		case strings.HasPrefix(line, "race "), strings.HasPrefix(line, "null "):
			w.findings = append(w.findings, line)
		default:
			t.Fatalf("%s: bad line %q", path, line)
		}
	}
	slices.Sort(w.findings)
	return w
}

// findings renders a result in the want format.
func findings(res *predict.Result) []string {
	var out []string
	for _, r := range res.Races {
		out = append(out, fmt.Sprintf("race %s | %s racy %d later %d", r.Sites[0], r.Sites[1], r.RacyEvents, r.LaterEvents))
	}
	for _, n := range res.NullDerefs {
		out = append(out, fmt.Sprintf("null %s reads %d", n.Site, n.Reads))
	}
	slices.Sort(out)
	return out
}

// configs are the decider configurations every test trace runs with; z3
// ones are left out when mcr is built without Z3.
func configs(t *testing.T) map[string]predict.Options {
	exact := predict.Options{MaxQueries: -1, CountQueries: -1, Workers: 2, QueryTimeout: time.Minute, CheckAll: true}
	out := map[string]predict.Options{}
	for _, name := range []string{"z3", "explicit", predict.Both, predict.Auto} {
		o := exact
		o.Decider = name
		if name == predict.Both {
			o.NoShortcuts = true
		}
		out[name] = o
	}
	if d, err := predict.Deciders["z3"].New(time.Second); err != nil {
		t.Logf("without z3: %v", err)
		delete(out, "z3")
		delete(out, predict.Both)
	} else if c, ok := d.(interface{ Close() }); ok {
		c.Close()
	}
	return out
}

func TestTraces(t *testing.T) {
	wants, _ := filepath.Glob(traces + "*.want")
	bad, _ := filepath.Glob(traces + "bad/*.want")
	wants = append(wants, bad...)
	if len(wants) < 10 {
		t.Fatalf("only %d expectation files", len(wants))
	}
	cfgs := configs(t)
	for _, wf := range wants {
		trace := strings.TrimSuffix(wf, ".want")
		exp := readWant(t, wf)
		for name, opts := range cfgs {
			t.Run(filepath.Base(trace)+"/"+name, func(t *testing.T) {
				res, err := predict.File(context.Background(), trace, tracefile.Options{}, opts)
				if exp.err != "" {
					if err == nil || !strings.Contains(err.Error(), exp.err) {
						t.Fatalf("error %v, want one containing %q", err, exp.err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := findings(res); !slices.Equal(got, exp.findings) {
					t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(exp.findings, "\n"))
				}
				if s := res.Stats; !s.Complete || s.Invalid > 0 || len(res.Disagreements) > 0 {
					t.Errorf("complete %v (%s), %d invalid witnesses, disagreements %v", s.Complete, s.Stopped, s.Invalid, res.Disagreements)
				}
			})
		}
	}
}
