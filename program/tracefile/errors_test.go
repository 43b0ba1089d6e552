package tracefile

import (
	"errors"
	"strings"
	"testing"
)

// TestMalformed reads bad inputs and checks the exact error: file, line and
// problem.
func TestMalformed(t *testing.T) {
	const valueMode = "value"
	for _, c := range []struct {
		name, format, in, want string
	}{
		{"bad.std", "", "T1|w(x)|1\nT1|wr(x)|2\n", `bad.std:2: unknown event kind "wr"`},
		{"bad.std", "", "\n\nT1|zz(x)|1", `bad.std:3: unknown event kind "zz"`},
		{"bad.std", "", "T1|w(x)\n", `bad.std:1: missing field: want THREAD|OP(ARG)|LOC`},
		{"bad.std", "std", "T1\n", `bad.std:1: missing field: want THREAD|OP(ARG)|LOC`},
		{"bad.std", "", "T1|w(x)|1|2\n", `bad.std:1: too many fields: want THREAD|OP(ARG)|LOC`},
		{"bad.std", "", "|w(x)|1\n", `bad.std:1: bad thread id ""`},
		{"bad.std", "", "T1|w(x)|1\nT 1|w(x)|1\n", `bad.std:2: bad thread id "T 1"`},
		{"bad.std", "", "T(1)|w(x)|1\n", `bad.std:1: bad thread id "T(1)"`},
		{"bad.std", "", "T1|w(x)|abc\n", `bad.std:1: bad location "abc"`},
		{"bad.std", "", "T1|w(x)|-3\n", `bad.std:1: bad location "-3"`},
		{"bad.std", "", "T1|w(x)|2147483648\n", `bad.std:1: bad location "2147483648"`},
		{"bad.std", "", "T1|w(x)|\n", `bad.std:1: bad location ""`},
		{"bad.std", valueMode, "T1|w(x)|y\n", `bad.std:1: bad value "y"`},
		{"bad.std", valueMode, "T1|w(x)|99999999999999999999\n", `bad.std:1: bad value "99999999999999999999"`},
		{"bad.std", "", "T1|w(x|1\n", `bad.std:1: missing ')' in "w(x"`},
		{"bad.std", "", "T1|w|1\n", `bad.std:1: missing argument: want w(...)`},
		{"bad.std", "", "T1|w()|1\n", `bad.std:1: bad variable name ""`},
		{"bad.std", "", "T1|acq()|1\n", `bad.std:1: bad lock name ""`},
		{"bad.std", "", "T1|fork()|1\n", `bad.std:1: bad thread id ""`},
		{"bad.std", "", "T1|join(T(2))|1\n", `bad.std:1: bad thread id "T(2)"`},
		{"bad.std", "", "T1|fork(T1)|1\n", `bad.std:1: thread "T1" forks itself`},
		{"bad.std", "", "T1|join(T1)|1\n", `bad.std:1: thread "T1" joins itself`},
		{"bad.std", "", "T1|fork(T2)|1\nT2|fork(T3)|1\nT3|fork(T1)|1\n", `bad.std:3: thread "T3" forks its ancestor "T1"`},
		{"bad.std", "", "T1|w(x)|1\n " + strings.Repeat("x ", 35) + "|w(x)|1\n", `bad.std:2: bad thread id "` + strings.Repeat("x ", 30) + `..."`},
		{"bad.vals.txt", "", "Read 1 X\n", `bad.vals.txt:1: missing field: want KIND TID ARG VALUE`},
		{"bad.vals.txt", "", "Read 1 X 0 0\n", `bad.vals.txt:1: too many fields: want KIND TID ARG VALUE`},
		{"bad.vals.txt", "", "Read 1 X 0\nReed 1 X 0\n", `bad.vals.txt:2: unknown event kind "Reed"`},
		{"bad.vals.txt", "", "Read T1 X 0\n", `bad.vals.txt:1: bad thread id "T1"`},
		{"bad.vals.txt", "", "Read 1 X v\n", `bad.vals.txt:1: bad value "v"`},
		{"bad.vals.txt", "", "Begin 1 0 x\n", `bad.vals.txt:1: bad value "x"`},
		{"bad.vals.txt", "", "Fork 1 x 0\n", `bad.vals.txt:1: bad thread id "x"`},
		{"bad.vals.txt", "", "Join 1 1 0\n", `bad.vals.txt:1: thread "1" joins itself`},
		{"bad.vals.txt", "vals", "T1|w(x)|1\n", `bad.vals.txt:1: missing field: want KIND TID ARG VALUE`},
		{"bad.json", "", `{"threads":["0"],"events":[{"thread":"0","index":0,"kind":"jump","value":0}]}`,
			`bad.json: event 0: unknown event kind "jump"`},
		{"bad.json", "", `{"threads":["0"],"events":[{"thread":"0","index":1,"kind":"read","value":0}]}`,
			`bad.json: event 0: thread "0" has index 1, want 0`},
		{"bad.json", "", `{"threads":["0"],"events":[{"thread":"0","index":0,"kind":"fork","value":0}]}`,
			`bad.json: event 0: fork without child`},
		{"bad.json", "", `{"threads":["0"],"events":[{"thread":"0","index":0,"kind":"read","loc":1,"loc_name":"a","value":0},` +
			`{"thread":"0","index":1,"kind":"write","loc":1,"loc_name":"b","value":0}]}`, `bad.json: event 1: location 1 named both "a" and "b"`},
		{"bad.json", "", `{"threads":["0"],"events":[{"thread":"0","index":0,"kind":"read","colour":1}]}`,
			`bad.json: event 0: json: unknown field "colour"`},
		{"bad.json", "", `{"threads":["0","0"],"events":[]}`, `bad.json: threads: empty or duplicate thread name "0"`},
		{"bad.json", "", `{"threads":["0"],"events":[{"thread":"0","index":0,"kind":"read","rmw":true,"value":0},` +
			`{"thread":"0","index":1,"kind":"read","value":0}]}`, `bad.json: event 1: ` + errRMW},
		{"bad.json", "", `{"threads":["0"],"events":[{"thread":"0","index":0,"kind":"read","rmw":true,"value":0}]}`,
			`bad.json: event 0: ` + errRMW},
		{"bad.json", "", `{"x":1}`, `bad.json: unknown field "x"`},
		{"bad.json", "", `{"events":{}}`, `bad.json: events: want an array, have {`},
		{"bad.json", "", `{"events":[]} {}`, `bad.json: data after the trace object ({)`},
		{"bad.json", "", `{"events":[`, `bad.json: after event 0: unexpected EOF`},
		{"bad.json", "", `{"events":[{"thread":`, `bad.json: event 0: unexpected EOF`},
		{"bad.json", "", `{"events":[]`, `bad.json: unexpected EOF`},
		{"bad.json", "json", `[]`, `bad.json: not a JSON trace object ([)`},
		{"bad", "", "", `bad: empty trace: cannot detect its format`},
		{"bad", "", "\n \n\t\n", `bad: empty trace: cannot detect its format`},
		{"bad", "", "\n\nhello world\n", `bad:3: cannot detect the trace format from "hello world"`},
		{"bad", "xml", "T1|w(x)|1\n", `bad: unknown trace format "xml" (want "std", "vals" or "json")`},
	} {
		opts := Options{Format: c.format}
		if c.format == valueMode {
			opts = Options{ThirdFieldIsValue: true}
		}
		_, _, err := Read(c.name, strings.NewReader(c.in), opts)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.in, err, c.want)
		}
		var pe *ParseError
		if err != nil && c.format != "xml" && !errors.As(err, &pe) {
			t.Errorf("%q: %T is not a *ParseError", c.in, err)
		}
	}
}
