package svcomp

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"gopkg.in/yaml.v3"
)

// This file writes violation witnesses in SV-COMP's witness format 2.0
// (YAML; https://sosy-lab.gitlab.io/benchmarking/sv-witnesses/yaml/
// violation-witnesses.html): one violation_sequence entry whose content is
// a final segment with one waypoint, the target, at the violation (the
// reach_error call that fails, or the racing access that runs second),
// after one segment per nondeterministic input read before it: a
// function_return waypoint at the call's closing parenthesis with the
// constraint \result == value, in the order the finding's execution read
// them (inputs of different threads with no event between them commute,
// so that order is one an execution can take). The format has no
// threads, so the interleaving that leads there is not in the witness: a
// validator has to find one itself, as it does from any witness with few
// waypoints (mcr replay reproduces the schedule exactly). Format 2.0 is
// defined for sequential programs and unreach-call; a data-race witness
// in it is the natural extension, which validators may not accept.

// WitnessTask describes the verification run a witness belongs to.
type WitnessTask struct {
	// InputFiles are the program's files as the task names them; Files
	// the same as paths to read (for their hashes).
	InputFiles []string
	Files      []string
	DataModel  string // ILP32 or LP64
	Producer   string // the tool's name and version
	Version    string
}

type witnessEntry struct {
	EntryType string          `yaml:"entry_type"`
	Metadata  witnessMetadata `yaml:"metadata"`
	Content   []segment       `yaml:"content"`
}

type witnessMetadata struct {
	FormatVersion string `yaml:"format_version"`
	UUID          string `yaml:"uuid"`
	CreationTime  string `yaml:"creation_time"`
	Producer      struct {
		Name    string `yaml:"name"`
		Version string `yaml:"version"`
	} `yaml:"producer"`
	Task struct {
		InputFiles      []string          `yaml:"input_files"`
		InputFileHashes map[string]string `yaml:"input_file_hashes"`
		Specification   string            `yaml:"specification"`
		DataModel       string            `yaml:"data_model"`
		Language        string            `yaml:"language"`
	} `yaml:"task"`
}

type segment struct {
	Segment []waypointItem `yaml:"segment"`
}

type waypointItem struct {
	Waypoint waypoint `yaml:"waypoint"`
}

type waypoint struct {
	Type       string      `yaml:"type"`
	Action     string      `yaml:"action"`
	Location   location    `yaml:"location"`
	Constraint *constraint `yaml:"constraint,omitempty"`
}

type constraint struct {
	Value  string `yaml:"value"`
	Format string `yaml:"format"`
}

type location struct {
	FileName string `yaml:"file_name"`
	Line     int32  `yaml:"line"`
	Column   int32  `yaml:"column,omitempty"`
}

// WriteWitness writes the violation witness of the FALSE verdict v of
// property p to path.
func WriteWitness(path string, t WitnessTask, p Property, v *Verdict) error {
	if v.Result != False || v.Target == nil {
		return fmt.Errorf("no violation witness for the verdict %s", v)
	}
	var e witnessEntry
	e.EntryType = "violation_sequence"
	m := &e.Metadata
	m.FormatVersion = "2.0"
	m.UUID = newUUID()
	m.CreationTime = time.Now().UTC().Format(time.RFC3339)
	m.Producer.Name, m.Producer.Version = t.Producer, t.Version
	m.Task.InputFiles = t.InputFiles
	m.Task.InputFileHashes = map[string]string{}
	file := filepath.Base(v.Target.File)
	for i, f := range t.Files {
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		h := sha256.Sum256(src)
		m.Task.InputFileHashes[t.InputFiles[i]] = hex.EncodeToString(h[:])
		if filepath.Clean(f) == filepath.Clean(v.Target.File) {
			file = t.InputFiles[i]
		}
	}
	m.Task.Specification = p.Text
	m.Task.DataModel = t.DataModel
	m.Task.Language = "C"
	for _, in := range v.Inputs {
		ret := waypoint{Type: "function_return", Action: "follow",
			Location:   location{FileName: file, Line: in.Line, Column: in.Col},
			Constraint: &constraint{Value: `\result == ` + in.Value, Format: "c_expression"}}
		e.Content = append(e.Content, segment{Segment: []waypointItem{{Waypoint: ret}}})
	}
	target := waypoint{Type: "target", Action: "follow",
		Location: location{FileName: file, Line: v.Target.Line, Column: v.Target.Col}}
	e.Content = append(e.Content, segment{Segment: []waypointItem{{Waypoint: target}}})
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode([]witnessEntry{e}); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// newUUID returns a random (version 4) UUID, RFC 4122.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
