package explore

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Case is one expected run of a testdata program, as read from the
// NAME.json file beside testdata/c/NAME.c (format: testdata/c/README.md).
// Explorer tests of every algorithm are driven by these.
type Case struct {
	File      string            // path of the C file
	Name      string            // "lastzero N=2"
	Defines   map[string]string `json:"defines"`
	RFClasses *int              `json:"rf_classes"`
	// BlockedClasses and Outcomes, when given, are the exact numbers of
	// reads-from classes of blocked executions and of distinct outcomes of
	// the others (Stats.BlockedClasses, Stats.Outcomes).
	BlockedClasses *int     `json:"blocked_classes"`
	Outcomes       *int     `json:"outcomes"`
	Findings       []string `json:"findings"`
	MaxEvents      int      `json:"max_events"`
	Bounded        bool     `json:"bounded"`
	Algos          []string `json:"algos"` // if set, only these algorithms run it (dfs is too slow)
	RVF            *int     `json:"rvf"`
	// Program, if set, is the C file of the run, relative to the
	// directory of the .json file (testdata/c/mm runs programs of
	// testdata/c under other models); else the .c file beside it.
	Program string `json:"program"`
	// MM is the memory model of the run: "sc" (or empty), "tso", "pso"
	// (testdata/c/mm; the other directories are SC only).
	MM   string `json:"mm"`
	Note string `json:"note"`
}

// DefineList returns the definitions as NAME=VALUE strings, sorted.
func (c *Case) DefineList() []string {
	var out []string
	for k, v := range c.Defines {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// For reports whether algorithm algo should run this case.
func (c *Case) For(algo string) bool {
	if len(c.Algos) == 0 {
		return true
	}
	for _, a := range c.Algos {
		if a == algo {
			return true
		}
	}
	return false
}

// LoadCases reads every NAME.json in dir and returns its runs.
func LoadCases(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []Case
	for _, jf := range files {
		data, err := os.ReadFile(jf)
		if err != nil {
			return nil, err
		}
		var spec struct {
			Runs []Case `json:"runs"`
		}
		dec := json.NewDecoder(strings.NewReader(string(data)))
		if err := dec.Decode(&spec); err != nil {
			return nil, fmt.Errorf("%s: %v", jf, err)
		}
		base := strings.TrimSuffix(jf, ".json")
		for _, r := range spec.Runs {
			r.File = base + ".c"
			r.Name = filepath.Base(base) + " " + strings.Join(r.DefineList(), " ")
			if r.Program != "" {
				r.File = filepath.Join(dir, r.Program)
				r.Name = strings.TrimSuffix(filepath.Base(r.Program), ".c") + " " + strings.Join(r.DefineList(), " ")
			}
			if r.MM != "" {
				r.Name += " mm=" + r.MM
			}
			if r.Findings == nil {
				r.Findings = []string{}
			}
			sort.Strings(r.Findings)
			out = append(out, r)
		}
	}
	return out, nil
}
