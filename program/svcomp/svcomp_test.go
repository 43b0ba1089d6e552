package svcomp

import (
	"path/filepath"
	"strings"
	"testing"

	"mcr/program/explore"
)

// TestParseProperty reads the property files of SV-COMP's kinds.
func TestParseProperty(t *testing.T) {
	cases := []struct {
		src, name, kind, unsupported string
	}{
		{"CHECK( init(main()), LTL(G ! call(reach_error())) )\n", UnreachCall, explore.KindAssertion, ""},
		{"CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )", UnreachCall, explore.KindAssertion, ""},
		{"CHECK( init(main()), LTL(G ! data-race) )\n", NoDataRace, explore.KindRace, ""},
		{"CHECK( init(main()), LTL(G ! overflow) )", "no-overflow", "", "not supported"},
		{"CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n", "valid-memsafety", "", "not supported"},
		{"CHECK( init(main()), LTL(F end) )", "termination", "", "not supported"},
		{"CHECK( init(start()), LTL(G ! call(reach_error())) )", UnreachCall, "", "entry function start"},
		{"CHECK( init(main()), LTL(G ! call(foo())) )", "", "", ""},
		// two different properties in one file: not one mcr knows
		{"CHECK( init(main()), LTL(G ! data-race) )\nCHECK( init(main()), LTL(G ! call(reach_error())) )", "", "", ""},
	}
	for _, c := range cases {
		p, err := ParseProperty(c.src)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if p.Name != c.name || p.Kind != c.kind || !strings.Contains(p.Unsupported, c.unsupported) || (c.unsupported == "") != (p.Unsupported == "") {
			t.Errorf("%q: got %+v", c.src, p)
		}
	}
	for _, bad := range []string{"", "// only a comment\n", "LTL(G ! data-race)", "CHECK( init(main()), LTL(G ! data-race) ) trailing"} {
		if _, err := ParseProperty(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestReadPropertyByName knows a property file that is not at hand by its
// name, as tasks name ../properties/*.prp.
func TestReadPropertyByName(t *testing.T) {
	dir := t.TempDir()
	for name, kind := range map[string]string{UnreachCall: explore.KindAssertion, NoDataRace: explore.KindRace, "no-overflow": ""} {
		p, err := ReadProperty(filepath.Join(dir, name+".prp"))
		if err != nil || p.Name != name || p.Kind != kind || (kind == "") != (p.Unsupported != "") || (kind != "") != (p.Text != "") {
			t.Errorf("%s: %+v, %v", name, p, err)
		}
	}
}

// TestVerdictExpect compares verdicts with expectations.
func TestVerdictExpect(t *testing.T) {
	cases := []struct{ result, expected, match string }{
		{True, "true", "correct"}, {False, "false", "correct"}, {True, "false", "WRONG"}, {False, "true", "WRONG"},
		{Unknown, "true", "unknown"}, {Unknown, "false", "unknown"}, {True, "", ""},
	}
	for _, c := range cases {
		v := &Verdict{Property: UnreachCall, Result: c.result, Reason: "r"}
		if v.Expect(c.expected); v.Match != c.match {
			t.Errorf("%s expected %q: %q, want %q", c.result, c.expected, v.Match, c.match)
		}
	}
	for v, want := range map[*Verdict]string{
		{Property: NoDataRace, Result: False}:                 "FALSE(no-data-race)",
		{Property: UnreachCall, Result: True}:                 "TRUE",
		{Property: UnreachCall, Result: Unknown, Reason: "x"}: "UNKNOWN (x)",
	} {
		if v.String() != want {
			t.Errorf("%+v: %s, want %s", v, v, want)
		}
	}
}
