package cfront

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// This file guards cc/v4 against inputs it cannot survive: brackets nested
// so deep that its recursive-descent parser overflows the Go stack (a fatal
// error no recover catches), and #include cycles, which its preprocessor
// follows until the expansion limit and then panics on. The nesting is
// measured exactly on the preprocessed tokens, before parsing; a light scan
// of the source text locates it, and finds include cycles before cc/v4
// starts, so that errors name the file and line.

// maxNesting bounds the nesting of parentheses, brackets and braces
// together. C11 (5.2.4.1) asks compilers for 63 levels of parenthesised
// expressions and 127 of blocks, clang stops at 256 by default; cc/v4 needs
// about 10 KB of Go stack per level, so 100,000 levels exhaust the 1 GB
// stack limit.
const maxNesting = 1000

// maxScannedFiles bounds the headers the include scan reads.
const maxScannedFiles = 1000

// includeLine is a `#include "name"` directive.
type includeLine struct {
	line, col int
	name      string
	cond      int    // depth of #if/#ifdef/#ifndef groups around it
	target    string // the file it names, "" if not found (scanSources)
}

// scanned is what scanText finds in one file.
type scanned struct {
	includes []includeLine
	once     bool // #pragma once
	// deepLine and deepCol locate the first bracket nested deeper than
	// maxNesting (deepLine 0: none)
	deepLine, deepCol int
	size              int // bytes
	// endLine > 0: the file ends with a backslash, or with a backslash and
	// one newline, on that line (endSplice)
	endLine int
}

// scanText scans C source text as the preprocessor sees its lines, without
// expanding macros: comments and string and character literals are skipped
// and backslash-newlines join lines. It reports the quoted #include
// directives with their conditional depth, #pragma once, and where brackets
// in code lines first nest deeper than maxNesting.
func scanText(src []byte) scanned {
	s := scanned{size: len(src), endLine: endSplice(src)}
	line, col := 1, 1
	depth, cond := 0, 0
	lineStart := true
	i := 0
	adv := func() {
		if src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i++
	}
	// skipLiteral skips a string or character literal opened by src[i].
	skipLiteral := func() {
		q := src[i]
		adv()
		for i < len(src) && src[i] != q && src[i] != '\n' {
			if src[i] == '\\' && i+1 < len(src) {
				adv()
			}
			adv()
		}
		if i < len(src) && src[i] == q {
			adv()
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			adv()
			continue
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			adv()
			adv()
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			adv()
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				adv()
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			adv()
			adv()
			for i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/') {
				adv()
			}
			if i < len(src) {
				adv()
				adv()
			}
			continue
		case c == '#' && lineStart:
			dl, dc := line, col
			var text []byte
			for i < len(src) && src[i] != '\n' {
				switch {
				case src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n':
					adv()
				case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
					adv()
					adv()
					for i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/') {
						adv()
					}
					if i == len(src) {
						continue // unterminated
					}
					adv() // the '*'; the '/' below
					text = append(text, ' ')
				case src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
					for i < len(src) && src[i] != '\n' {
						adv()
					}
					continue
				default:
					text = append(text, src[i])
				}
				adv()
			}
			directive(&s, string(text[1:]), dl, dc, &cond)
			continue
		}
		lineStart = false
		switch {
		case c == '"' || c == '\'':
			skipLiteral()
			continue
		case c == '(' || c == '[' || c == '{' || c == '<' && i+1 < len(src) && (src[i+1] == ':' || src[i+1] == '%'):
			if depth++; depth > maxNesting && s.deepLine == 0 {
				s.deepLine, s.deepCol = line, col
			}
		case c == ')' || c == ']' || c == '}' || (c == ':' || c == '%') && i+1 < len(src) && src[i+1] == '>':
			if depth > 0 {
				depth--
			}
		}
		if c == '<' || c == ':' || c == '%' {
			if i+1 < len(src) && (src[i+1] == ':' || src[i+1] == '%' || src[i+1] == '>') {
				adv() // the second character of a digraph
			}
		}
		adv()
	}
	return s
}

// directive records what one preprocessing directive (text after the '#',
// comments removed) means for the scan.
func directive(s *scanned, text string, line, col int, cond *int) {
	text = strings.TrimSpace(text)
	word := text
	if k := strings.IndexAny(text, " \t\"<"); k >= 0 {
		word = text[:k]
	}
	rest := strings.TrimSpace(text[len(word):])
	switch word {
	case "if", "ifdef", "ifndef":
		*cond++
	case "endif":
		if *cond > 0 {
			*cond--
		}
	case "pragma":
		if rest == "once" {
			s.once = true
		}
	case "include":
		if strings.HasPrefix(rest, `"`) {
			if k := strings.IndexByte(rest[1:], '"'); k > 0 {
				s.includes = append(s.includes, includeLine{line: line, col: col, name: rest[1 : 1+k], cond: *cond})
			}
		}
	}
}

// sourceFile is one file of the translation unit the scan reached.
type sourceFile struct {
	name string
	scanned
}

// scanSources scans the main file and, transitively, the headers its quoted
// #include directives name, resolved as cc/v4 resolves them for the user's
// files: in the including file's directory, then in the -I directories.
// System headers are not read: they are trusted, like the compiler.
func scanSources(name string, src []byte, includePaths []string) map[string]*sourceFile {
	files := map[string]*sourceFile{name: {name: name, scanned: scanText(src)}}
	queue := []string{name}
	for len(queue) > 0 {
		f := files[queue[0]]
		queue = queue[1:]
		for k := range f.includes {
			inc := &f.includes[k]
			inc.target = resolveInclude(f.name, inc.name, includePaths)
			if inc.target == "" || files[inc.target] != nil || len(files) >= maxScannedFiles {
				continue
			}
			text, err := os.ReadFile(inc.target)
			if err != nil {
				inc.target = ""
				continue
			}
			files[inc.target] = &sourceFile{name: inc.target, scanned: scanText(text)}
			queue = append(queue, inc.target)
		}
	}
	return files
}

// resolveInclude finds the file `#include "name"` in file from names, or "".
func resolveInclude(from, name string, includePaths []string) string {
	dir, _ := filepath.Split(from)
	for _, d := range append([]string{filepath.Clean(dir)}, includePaths...) {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// tooDeep is the error for nesting deeper than maxNesting, which the
// nestingWriter found in the preprocessed tokens: it names the first file
// and line where the source text nests that deep, or only the file when
// macros built the nesting.
func tooDeep(name string, files map[string]*sourceFile) error {
	for _, f := range sortedFiles(name, files) {
		if f.deepLine > 0 {
			return fmt.Errorf("%s:%d:%d: parentheses, brackets and braces nested more than %d deep", f.name, f.deepLine, f.deepCol, maxNesting)
		}
	}
	return fmt.Errorf("%s: parentheses, brackets and braces nested more than %d deep after macro expansion", name, maxNesting)
}

// sortedFiles lists the main file first, then the headers by name, so
// that errors do not depend on map order.
func sortedFiles(name string, files map[string]*sourceFile) []*sourceFile {
	var rest []string
	for n := range files {
		if n != name {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	out := []*sourceFile{files[name]}
	for _, n := range rest {
		out = append(out, files[n])
	}
	return out
}

// includeCycle returns an error naming the #include line that closes a
// cycle of includes reachable from the main file, nil if there is none.
// Unless all is set, a cycle counts only when the preprocessor must follow
// it forever: each of its #include lines is outside every #if group (an
// include guard puts them inside one). cc/v4 ignores #pragma once, so that
// stops no cycle. With all set, every quoted #include counts: the
// diagnosis after cc/v4 failed, when guards did not stop a cycle.
func includeCycle(name string, files map[string]*sourceFile, all bool) error {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(f *sourceFile) error
	visit = func(f *sourceFile) error {
		state[f.name] = open
		path = append(path, f.name)
		for _, inc := range f.includes {
			g := files[inc.target]
			if g == nil || !all && inc.cond > 0 {
				continue
			}
			switch state[g.name] {
			case open:
				k := slices.Index(path, g.name)
				chain := strings.Join(append(slices.Clone(path[k:]), g.name), " -> ")
				why := "no include guard stops it"
				if all {
					why = "its include guards do not stop it"
				}
				for _, n := range path[k:] {
					if files[n].once {
						why += "; #pragma once is not supported, use an include guard"
						break
					}
				}
				return fmt.Errorf("%s:%d:%d: #include cycle: %s (%s)", f.name, inc.line, inc.col, chain, why)
			case unseen:
				if err := visit(g); err != nil {
					return err
				}
			}
		}
		path = path[:len(path)-1]
		state[f.name] = done
		return nil
	}
	return visit(files[name])
}

// nestingWriter receives cc/v4's preprocessed output, one token per Write,
// and fails once brackets nest deeper than maxNesting: macros can build
// nesting that the source text does not show.
type nestingWriter struct{ depth int }

// errTooDeep is the nestingWriter's error.
var errTooDeep = fmt.Errorf("nested more than %d deep", maxNesting)

func (w *nestingWriter) Write(b []byte) (int, error) {
	switch {
	case len(b) == 1 && bytes.IndexByte([]byte("([{"), b[0]) >= 0,
		len(b) == 2 && (string(b) == "<:" || string(b) == "<%"):
		if w.depth++; w.depth > maxNesting {
			return 0, errTooDeep
		}
	case len(b) == 1 && bytes.IndexByte([]byte(")]}"), b[0]) >= 0,
		len(b) == 2 && (string(b) == ":>" || string(b) == "%>"):
		if w.depth > 0 {
			w.depth--
		}
	}
	return len(b), nil
}

// maxSourceBytes bounds the C source of one program: the file and the
// headers its quoted #include directives name. cc/v4 holds the whole
// translation unit's tokens and syntax tree, about 250 bytes per source
// byte: a 10 MB file takes 2.4 GB.
const maxSourceBytes = 16 << 20

// baseExpansion is the preprocessor work (tokens through macro expansion)
// allowed beyond the user's source: the system headers, and macros that
// expand to more than they are written with. cc/v4 counts one unit per
// token even where no macro is involved, so the limit grows with the
// source (expansionLimit): a large file without macros is no macro
// explosion.
const baseExpansion = 5_000_000

// sourceSize is the size in bytes of the scanned user sources.
func sourceSize(files map[string]*sourceFile) int {
	n := 0
	for _, f := range files {
		n += f.size
	}
	return n
}

// expansionLimit is cc/v4's Config.ExpansionLimit for user sources of
// size bytes: every byte may be a token (1,1,1...), and each is counted
// about once; twice that is the margin.
func expansionLimit(size int) int {
	return baseExpansion + 2*size
}

// tooLarge is the error for sources over maxSourceBytes, or nil.
// endSplice returns the line of a backslash that ends src, alone or
// followed by one newline ("\\n" or "\\r\\n"), or 0. C11 5.1.1.2 forbids
// it (a source file ends in a newline not preceded by a backslash), and
// cc/v4 v4.31 loops forever on it inside a string or character literal
// (found by FuzzLoad), so the front end refuses it before cc/v4 sees it.
func endSplice(src []byte) int {
	t := bytes.TrimSuffix(src, []byte("\n"))
	t = bytes.TrimSuffix(t, []byte("\r"))
	if !bytes.HasSuffix(t, []byte("\\")) {
		return 0
	}
	return bytes.Count(t, []byte("\n")) + 1
}

// spliceAtEnd refuses a file that ends in a backslash (endSplice), naming
// the file and line.
func spliceAtEnd(files map[string]*sourceFile) error {
	var bad []*sourceFile
	for _, f := range files {
		if f.endLine > 0 {
			bad = append(bad, f)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Slice(bad, func(i, j int) bool { return bad[i].name < bad[j].name })
	return fmt.Errorf("%s:%d: the file ends with a backslash (a line splice or escape with no text after it): C requires a final newline not preceded by a backslash", bad[0].name, bad[0].endLine)
}

func tooLarge(name string, files map[string]*sourceFile) error {
	size := sourceSize(files)
	if size <= maxSourceBytes {
		return nil
	}
	what := "C source"
	if len(files) > 1 {
		what = "C source with the headers it includes"
	}
	return fmt.Errorf("%s: %.1f MB of %s is more than mcr's front end handles (at most %d MB): a limit of the tool, not an error in the program",
		name, float64(size)/(1<<20), what, maxSourceBytes>>20)
}
