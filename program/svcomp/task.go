// Package svcomp reads SV-COMP verification tasks and writes what SV-COMP
// expects back: a verdict per property and a violation witness.
//
// A task definition (format 2.0, or 1.1, or 1.0 without options; https://gitlab.com/sosy-lab/benchmarking/
// task-definition-format) is a YAML file naming the input files, the
// properties to check with their expected verdicts, and the language and
// data model. A property file (.prp) holds one CHECK( init(main()),
// LTL(...) ) line per property. mcr decides two properties, each by one
// kind of finding (Property.Kind): unreach-call by assertion findings
// (reach_error, __VERIFIER_error, assert) and no-data-race by race
// findings. Every other property gets the verdict UNKNOWN with the reason,
// never a guess.
//
// This file implements the task reader; property.go the property files,
// verdict.go the verdict, witness.go the violation witness.
package svcomp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// Task is a verification task: the program and what to check of it.
type Task struct {
	// Path is the task file as given; input files are relative to its
	// directory.
	Path string
	// InputFiles are the program's files as the task names them, and
	// Files the same joined to the task's directory.
	InputFiles []string
	Files      []string
	Properties []TaskProperty
	// Language is "C"; DataModel is "ILP32" or "LP64", or "" when a
	// format 1.0 task does not say.
	Language  string
	DataModel string
}

// TaskProperty is one entry of a task's properties list.
type TaskProperty struct {
	// File is the property file as the task names it, and Property what it
	// says (ReadProperty: from the file if it exists, else from its name).
	File     string
	Property Property
	// Expected is the expected verdict: "true", "false" or "" when the task
	// gives none; Subproperty names the violated part for "false" (e.g.
	// valid-deref), or "".
	Expected    string
	Subproperty string
}

// taskFile is the YAML layout of a task definition.
type taskFile struct {
	FormatVersion string    `yaml:"format_version"`
	InputFiles    yaml.Node `yaml:"input_files"` // a string or a list of strings
	Properties    []struct {
		PropertyFile    string    `yaml:"property_file"`
		ExpectedVerdict yaml.Node `yaml:"expected_verdict"` // true, false or absent
		Subproperty     string    `yaml:"subproperty"`
	} `yaml:"properties"`
	Options struct {
		Language  string `yaml:"language"`
		DataModel string `yaml:"data_model"`
	} `yaml:"options"`
}

// LoadTask reads the task definition at path. Errors name the file and
// the problem; a property file that does not exist is no error (it is
// known by its name, ReadProperty).
func LoadTask(path string) (*Task, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := parseTask(path, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

func parseTask(path string, src []byte) (*Task, error) {
	var tf taskFile
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true) // a misspelt key is an error, not a silent default
	if err := dec.Decode(&tf); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("empty task definition")
		}
		return nil, fmt.Errorf("not a task definition: %v", tidyYAMLError(err))
	}
	// Format 1.0 has no options: its tasks are C, and the data model was
	// the category's (DataModel stays "").
	// 1.1 added the options; 2.0 the subproperty. mcr reads all three.
	v1 := tf.FormatVersion == "1.0"
	if tf.FormatVersion != "2.0" && tf.FormatVersion != "1.1" && !v1 {
		return nil, fmt.Errorf("format_version %q: only 1.0, 1.1 and 2.0 are supported", tf.FormatVersion)
	}
	if v1 && tf.Options.Language == "" {
		tf.Options.Language = "C"
	}
	t := &Task{Path: path, Language: tf.Options.Language, DataModel: tf.Options.DataModel}
	switch tf.InputFiles.Kind {
	case yaml.ScalarNode:
		t.InputFiles = []string{tf.InputFiles.Value}
	case yaml.SequenceNode:
		if err := tf.InputFiles.Decode(&t.InputFiles); err != nil {
			return nil, fmt.Errorf("input_files: %v", err)
		}
	case 0:
		return nil, fmt.Errorf("no input_files")
	default:
		return nil, fmt.Errorf("line %d: input_files must be a file name or a list of them", tf.InputFiles.Line)
	}
	if len(t.InputFiles) == 0 {
		return nil, fmt.Errorf("input_files is empty")
	}
	dir := filepath.Dir(path)
	for _, f := range t.InputFiles {
		if f == "" {
			return nil, fmt.Errorf("input_files: empty file name")
		}
		t.Files = append(t.Files, filepath.Join(dir, f))
	}
	if t.Language != "C" {
		return nil, fmt.Errorf("options.language %q: only C is supported", t.Language)
	}
	if t.DataModel != "ILP32" && t.DataModel != "LP64" && !(v1 && t.DataModel == "") {
		return nil, fmt.Errorf("options.data_model %q: must be ILP32 or LP64", t.DataModel)
	}
	if len(tf.Properties) == 0 {
		return nil, fmt.Errorf("no properties")
	}
	for i, p := range tf.Properties {
		if p.PropertyFile == "" {
			return nil, fmt.Errorf("properties[%d]: no property_file", i)
		}
		tp := TaskProperty{File: p.PropertyFile, Subproperty: p.Subproperty}
		switch v := p.ExpectedVerdict; {
		case v.Kind == 0:
		case v.Kind == yaml.ScalarNode && (v.Value == "true" || v.Value == "false"):
			tp.Expected = v.Value
		default:
			return nil, fmt.Errorf("line %d: expected_verdict must be true or false", v.Line)
		}
		prop, err := ReadProperty(filepath.Join(dir, p.PropertyFile))
		if err != nil {
			return nil, fmt.Errorf("properties[%d]: %v", i, err)
		}
		tp.Property = prop
		t.Properties = append(t.Properties, tp)
	}
	return t, nil
}

var yamlKinds = map[string]string{"seq": "a list", "map": "a mapping", "str": "a string", "int": "a number", "bool": "a boolean", "float": "a number"}

// tidyYAMLError rewrites yaml.v3's type errors, which name Go types, in
// the terms of the task format.
func tidyYAMLError(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	msgs := make([]string, len(te.Errors))
	for i, m := range te.Errors {
		if k := strings.Index(m, " not found in type "); k >= 0 {
			m = m[:k] + " is not a key of the task format"
		}
		if k, j := strings.Index(m, "cannot unmarshal !!"), strings.Index(m, " into "); k >= 0 && j > k {
			kind := m[k+len("cannot unmarshal !!") : j]
			if name, ok := yamlKinds[kind]; ok {
				kind = name
			}
			m = m[:k] + kind + " is not allowed here"
		}
		msgs[i] = m
	}
	return errors.New(strings.Join(msgs, "; "))
}
