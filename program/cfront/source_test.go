package cfront

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"modernc.org/cc/v4"
)

// TestLargeSource checks the front end's size limits on source text
// (issue 13 case 16): a file over maxSourceBytes is refused as a limit of
// the tool, naming the file, before cc/v4 spends gigabytes on it; a file
// without macros never meets the macro expansion limit, however many
// tokens it has (cc/v4 counts every token as expansion work); and a macro
// explosion still does.
func TestLargeSource(t *testing.T) {
	huge := bytes.Repeat([]byte("int x;\n"), maxSourceBytes/7+1)
	_, err := LoadSource("huge.c", huge, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "huge.c: 16.0 MB of C source is more than") || !strings.Contains(err.Error(), "limit of the tool") {
		t.Errorf("%d bytes: %v", len(huge), err)
	}

	// A token per byte ("1,1,1,"), the densest C there is: its
	// preprocessing work must fit the part of the limit that grows with
	// the source (the predefined macros and builtins fit 100,000).
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		b.WriteString("char a" + strings.Repeat("x", i%9+1) + "[]={" + strings.Repeat("1,", 500) + "};\n")
	}
	src := b.String()
	cfg, err := config()
	if err != nil {
		t.Fatal(err)
	}
	cfg.FS = headers
	cfg.ExpansionLimit = expansionLimit(len(src)) - baseExpansion + 100_000
	sources := []cc.Source{{Name: "<predefined>", Value: cfg.Predefined}, {Name: "<builtin>", Value: cc.Builtin}, {Name: "dense.c", Value: src}}
	if err := cc.Preprocess(cfg, sources, io.Discard); err != nil {
		t.Errorf("%d bytes of dense tokens: %v", len(src), tidyError(err))
	}

	bomb := "#define A x x x x x x x x x x\n#define B A A A A A A A A A A\n#define C B B B B B B B B B B\n" +
		"#define D C C C C C C C C C C\n#define E D D D D D D D D D D\n#define F E E E E E E E E E E\n" +
		"#define G F F F F F F F F F F\nint main(void) { G; return 0; }\n"
	if _, err := LoadSource("bomb.c", []byte(bomb), Options{}); err == nil || !strings.Contains(err.Error(), "macro expansion limit exceeded") {
		t.Errorf("10^7 tokens from macros: %v", err)
	}
}
