// Package registry collects the exploration algorithms that the packages
// of this module declare (explore.Algorithm values: explore.DFSAlgorithm,
// explicit.RF, explicit.RVF, explicit.VC, mcr.MCR, mcr.Seeds), so that the
// CLI's flags, help, validation and `mcr bench` columns, and the tests'
// algorithm tables, come from one list.
//
// How to add an algorithm: implement it in its package (explicit for an
// explicit stateless model checker, mcr for an MCR variant), declare its
// explore.Algorithm value beside it (Name, Doc, Source, Models, Deciders,
// Run; see explicit/algorithms.go), and add that value to the list in
// Algorithms below: one line. The CLI lists it in --algo's help, accepts
// it, refuses flags it does not take, and `mcr bench` runs it; the
// differential tests pick it up where they range over Algorithms. An
// algorithm that is planned but not written yet is registered with a nil
// Run and a Planned note: the CLI lists it and refuses it cleanly.
//
// How to add a memory model: add it to program.MemoryModel (program/
// instance.go) with its name, then add it to the Models of every
// algorithm that explores under it; `--mm` accepts what some algorithm
// lists, and Check refuses the pairs that no algorithm implements. If the
// model orders events beyond must-happen-before, happens-before and
// reads-from (TSO's flushes), add a bit to program.Orders and its case in
// program.TraceIndex's clocks: every consumer of a trace's orders (encode,
// explicit, mcr, predict) takes them from that one index.
//
// How to add a decider backend: give it a program.DeciderOf over the query
// kind it answers (program.InstanceKind, program.SeedKind; their Validate
// checks its witnesses), add a Backend to mcr.Backends (mcr/algorithms.go)
// with its name and doc, and list the name in the Deciders of the
// algorithms that can ask it. Fallback, Cross (--decider both) and Checked
// are written once over query kinds and apply to it unchanged.
package registry

import (
	"fmt"
	"slices"
	"strings"

	"mcr/encode/z3"
	"mcr/explicit"
	"mcr/mcr"
	"mcr/program"
	"mcr/program/explore"
)

// Algorithms returns every registered algorithm, the default (mcr) first.
func Algorithms() []*explore.Algorithm {
	return []*explore.Algorithm{&mcr.MCR, &mcr.Seeds, &explicit.RF, &explicit.RVF, &explicit.VC, &explore.DFSAlgorithm}
}

// Default is the --algo default.
const Default = "mcr"

// Lookup returns the algorithm named name. Errors: an unknown name, with
// the list of known ones.
func Lookup(name string) (*explore.Algorithm, error) {
	for _, a := range Algorithms() {
		if a.Name == name {
			return a, nil
		}
	}
	return nil, fmt.Errorf("unknown algorithm %q (have: %s)", name, Names())
}

// Names lists the algorithm names, comma-separated, in registry order.
func Names() string {
	var out []string
	for _, a := range Algorithms() {
		out = append(out, a.Name)
	}
	return strings.Join(out, ", ")
}

// Help describes every algorithm for the --algo flag's help text: name,
// doc and source, and "(not implemented yet)" for planned ones.
func Help() string {
	var b strings.Builder
	for _, a := range Algorithms() {
		fmt.Fprintf(&b, "\n  %-10s %s (%s)", a.Name, a.Doc, a.Source)
		if a.Run == nil {
			b.WriteString(" [not implemented yet]")
		}
	}
	return b.String()
}

// DeciderHelp describes the --decider values.
func DeciderHelp() string {
	var b strings.Builder
	for _, d := range mcr.Backends {
		fmt.Fprintf(&b, "\n  %-10s %s", d.Name, d.Doc)
	}
	return b.String()
}

// ParseModel parses a --mm value. Errors: an unknown model.
func ParseModel(s string) (program.MemoryModel, error) {
	for _, m := range program.Models {
		if m.String() == s {
			return m, nil
		}
	}
	var names []string
	for _, m := range program.Models {
		names = append(names, m.String())
	}
	return 0, fmt.Errorf("unknown memory model %q (have: %s)", s, strings.Join(names, ", "))
}

// Check resolves and validates an --algo value with its configuration, in
// one place for every verb: the algorithm must exist and be implemented,
// explore under cfg.Model, take cfg.Decider and honour cfg.DumpDir, and
// a decider that needs Z3 needs a build with Z3.
func Check(name string, cfg explore.Config) (*explore.Algorithm, error) {
	a, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if err := a.Check(cfg); err != nil {
		if !slices.Contains(a.Models, cfg.Model) {
			var under []string
			for _, b := range Algorithms() {
				if b.Run != nil && slices.Contains(b.Models, cfg.Model) {
					under = append(under, b.Name)
				}
			}
			return nil, fmt.Errorf("%v; under --mm %s use --algo %s", err, cfg.Model, strings.Join(under, " or "))
		}
		return nil, err
	}
	if i := slices.IndexFunc(mcr.Backends, func(b mcr.Backend) bool { return b.Name == cfg.Decider }); i >= 0 &&
		mcr.Backends[i].Z3 && slices.Contains(a.Deciders, cfg.Decider) && !z3.Available() {
		return nil, fmt.Errorf("--decider %s needs Z3, and this mcr was built without it (CGO_ENABLED=0 or -tags noz3); use --decider explicit", cfg.Decider)
	}
	return a, nil
}
