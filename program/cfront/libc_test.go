package cfront

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"mcr/program"
)

// TestLibcOnDemand: a program that does not name a library function is
// compiled without the library, its objects keeping the ids they have with
// it (the same pointer values); one that calls it through a header's macro
// is compiled again with it and runs it.
func TestLibcOnDemand(t *testing.T) {
	for name := range libcFuncs {
		if !slices.Contains(libcOrder, "__mcr_"+name) {
			t.Fatalf("libcOrder lacks %s: %v", name, libcOrder)
		}
	}
	if !slices.Contains(libcOrder, "__mcr_sscanf") {
		t.Fatalf("libcOrder lacks sscanf.go's functions: %v", libcOrder)
	}
	src := `#include <pthread.h>
#include <stdlib.h>
int g, *shared;
char msg[] = "hi";
void *w(void *a) { shared = &g; return a; }
int main(void) { pthread_t t; pthread_create(&t, 0, w, msg); pthread_join(t, 0); return shared == &g; }
`
	statics := func(p *Program) (out []string) {
		for _, s := range p.statics {
			out = append(out, s.name+"/"+string(rune('0'+s.kind))+"/"+string(s.data))
		}
		return out
	}
	without, err := LoadSource("prog.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	with, err := LoadSource("prog.c", []byte(src+"/* strlen */\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if hasLibc(without) || !hasLibc(with) {
		t.Errorf("library in the translation unit: %v when no name shows, %v when one does", hasLibc(without), hasLibc(with))
	}
	if a, b := statics(without), statics(with); !reflect.DeepEqual(a, b) {
		t.Errorf("objects differ without the library:\n%v\nwith it:\n%v", a, b)
	}
	for _, p := range []*Program{without, with} {
		if _, out := runDefault(t, p); out.Kind != program.Normal {
			t.Errorf("outcome %s: %s", out.Kind, out.Message)
		}
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "len.h"), []byte("#include <string.h>\n#define LEN(s) strlen(s)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.c")
	if err := os.WriteFile(main, []byte("#include <assert.h>\n#include \"len.h\"\nint main(void) { assert(LEN(\"abc\") == 3); return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(main, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasLibc(p) {
		t.Error("strlen through a macro: compiled without the library")
	}
	if _, out := runDefault(t, p); out.Kind != program.Normal {
		t.Errorf("strlen through a macro: outcome %s: %s", out.Kind, out.Message)
	}
}

// hasLibc reports whether p was compiled with the library's functions.
func hasLibc(p *Program) bool {
	for _, fn := range p.funcs {
		if fn.name == "__mcr_strlen" {
			return true
		}
	}
	return false
}
