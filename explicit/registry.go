package explicit

// This file implements the registry of explicit deciders, the one place
// that maps names to deciders and says what each supports; the CLI's flag
// values, help text and bench columns come from it.

import (
	"slices"

	"mcr/program"
)

// Info describes one decider.
type Info struct {
	Name        string                // flag value: "verifysc", ...
	Doc         string                // one line for help text
	Models      []program.MemoryModel // memory models it decides
	Constraints []program.Constraint  // constraint kinds it decides
	New         func() program.Decider
}

// Supports reports whether the decider handles inst's model and constraint.
func (i Info) Supports(inst *program.Instance) bool {
	return slices.Contains(i.Models, inst.Model) && slices.Contains(i.Constraints, inst.Constraint)
}

var (
	onlySC   = []program.MemoryModel{program.SC}
	allKinds = []program.Constraint{program.ReadsFrom, program.GoodWrites}
	onlyRF   = []program.Constraint{program.ReadsFrom}
)

// Deciders lists the explicit deciders.
func Deciders() []Info {
	return []Info{
		{"verifysc", "VerifySC (seed 000 Alg. 1) with greedy steps, closure and guidance (4.2)", onlySC, allKinds,
			func() program.Decider { return &VerifySC{} }},
		{"getwitness", "GetWitness (seed 002 Sec. 5): saturation, guided construction, decision procedure", onlySC, onlyRF,
			func() program.Decider { return &GetWitness{} }},
		{"verifytso", "VerifyTSO (seed 004 Alg. 1) with closure (4.3); good writes by their reads-from refinements", []program.MemoryModel{program.TSO}, allKinds,
			func() program.Decider { return &VerifyTSO{} }},
		{"verifypso", "VerifyPSO (seed 004 Alg. 2) with closure (4.3); good writes by their reads-from refinements", []program.MemoryModel{program.PSO}, allKinds,
			func() program.Decider { return &VerifyPSO{} }},
		{"naive", "lower-set enumeration with memory map, no heuristics: the baseline", program.Models, allKinds,
			func() program.Decider { return Naive{} }},
	}
}

// Lookup returns the decider named name.
func Lookup(name string) (Info, bool) {
	for _, i := range Deciders() {
		if i.Name == name {
			return i, true
		}
	}
	return Info{}, false
}
