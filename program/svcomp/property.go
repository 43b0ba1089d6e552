package svcomp

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"mcr/program/explore"
)

// This file reads property files: which property a .prp names, and
// whether mcr decides it.

// Property is an SV-COMP property.
type Property struct {
	// Name is the property's SV-COMP name (unreach-call, no-data-race,
	// no-overflow, valid-memsafety, valid-memcleanup, termination), or the
	// property file's base name for a property mcr does not know.
	Name string
	// Text is the property as SV-COMP writes it (the CHECK lines of its
	// file), the specification of a witness.
	Text string
	// Kind is the finding kind that violates it (explore.KindAssertion,
	// explore.KindRace), or "" when mcr does not decide it; Unsupported
	// then says why.
	Kind        string
	Unsupported string
}

// The properties mcr decides, as SV-COMP's property files write them.
const (
	UnreachCall = "unreach-call"
	NoDataRace  = "no-data-race"
)

var (
	checkLine = regexp.MustCompile(`^CHECK\(\s*init\((\w+)\(\)\)\s*,\s*LTL\((.*)\)\s*\)$`)
	// formulas maps an LTL formula to the property it states. SV-COMP's
	// older tasks name the error function __VERIFIER_error.
	formulas = map[string]string{
		"G ! call(reach_error())":      UnreachCall,
		"G ! call(__VERIFIER_error())": UnreachCall,
		"G ! data-race":                NoDataRace,
		"G ! overflow":                 "no-overflow",
		"G valid-free":                 "valid-memsafety",
		"G valid-deref":                "valid-memsafety",
		"G valid-memtrack":             "valid-memsafety",
		"G valid-memcleanup":           "valid-memcleanup",
		"F end":                        "termination",
	}
	kinds = map[string]string{UnreachCall: explore.KindAssertion, NoDataRace: explore.KindRace}
	// canonical is the text of the decided properties, for a property
	// file that is not at hand (tasks name ../properties/*.prp, which a
	// copied task often lacks).
	canonical = map[string]string{
		UnreachCall: "CHECK( init(main()), LTL(G ! call(reach_error())) )",
		NoDataRace:  "CHECK( init(main()), LTL(G ! data-race) )",
	}
)

// ReadProperty reads the property file at path. A file that does not
// exist is known by its base name (unreach-call.prp is unreach-call).
func ReadProperty(path string) (Property, error) {
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		name := strings.TrimSuffix(filepath.Base(path), ".prp")
		p := Property{Name: name, Text: canonical[name], Kind: kinds[name]}
		if p.Kind == "" {
			p.Unsupported = "property " + name + " is not supported (mcr decides " + UnreachCall + " and " + NoDataRace + ")"
		}
		return p, nil
	}
	if err != nil {
		return Property{}, err
	}
	p, err := ParseProperty(string(src))
	if err != nil {
		return Property{}, fmt.Errorf("%s: %v", path, err)
	}
	if p.Name == "" {
		p.Name = strings.TrimSuffix(filepath.Base(path), ".prp")
		p.Unsupported = "property " + p.Name + " is not supported (mcr decides " + UnreachCall + " and " + NoDataRace + ")"
	}
	return p, nil
}

// ParseProperty reads the text of a property file. Name is "" for a
// formula mcr does not know.
func ParseProperty(src string) (Property, error) {
	var lines []string
	name := ""
	entry := ""
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "//") {
			continue
		}
		m := checkLine.FindStringSubmatch(l)
		if m == nil {
			return Property{}, fmt.Errorf("not a property: %q (want CHECK( init(main()), LTL(...) ))", l)
		}
		lines = append(lines, l)
		entry = m[1]
		n := formulas[strings.Join(strings.Fields(m[2]), " ")]
		switch {
		case n == "":
			name = ""
		case len(lines) == 1:
			name = n
		case n != name: // two different properties in one file
			name = ""
		}
		if name == "" {
			break
		}
	}
	if len(lines) == 0 {
		return Property{}, fmt.Errorf("no CHECK line")
	}
	p := Property{Name: name, Text: strings.Join(lines, "\n"), Kind: kinds[name]}
	switch {
	case name != "" && p.Kind == "":
		p.Unsupported = "property " + name + " is not supported (mcr decides " + UnreachCall + " and " + NoDataRace + ")"
	case p.Kind != "" && entry != "main":
		p.Kind, p.Unsupported = "", "entry function "+entry+" is not supported (only main)"
	}
	return p, nil
}
