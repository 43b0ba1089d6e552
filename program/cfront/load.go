// Package cfront is mcr's C front end: it parses a pthreads C program with
// modernc.org/cc/v4, compiles the typed AST to a small bytecode, and runs it
// under a controlled scheduler as a program.Program (DESIGN.md, "Executing
// programs").
//
// Shared memory is globals and heap blocks: every access to them is an event
// at scalar granularity, like Nidhugg's loads and stores after mem2reg.
// Locals whose address is never taken live in registers and produce no
// events; address-taken and aggregate locals live in a frame block that is
// private to its thread until a pointer to it is passed to another thread or
// stored in shared memory.
//
// The front end puts its own <pthread.h>, <stdatomic.h> and <assert.h> first
// on the include path, mapping each operation to one builtin of the
// interpreter; other system headers are the real ones. Anything the
// interpreter does not model (floating point, inline assembly, setjmp,
// condition variables, ...) is rejected with an error naming the construct
// and its position.
package cfront

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"modernc.org/cc/v4"
)

//go:embed mcrinclude/*.h
var headers embed.FS

// Options configure loading.
type Options struct {
	// Defines are -D macro definitions: NAME or NAME=VALUE.
	Defines []string
	// IncludePaths are extra -I directories.
	IncludePaths []string
	// MaxEvents is the per-thread event bound; 0 means DefaultMaxEvents.
	MaxEvents int
	// StepLimit bounds the instructions a thread runs between two events
	// (an execution that exceeds it ends as bounded); 0 means 50 million.
	StepLimit int
}

// DefaultMaxEvents is the per-thread event bound when none is given.
const DefaultMaxEvents = 100_000

var (
	cfgOnce sync.Once
	cfgBase *cc.Config
	cfgErr  error
)

func config() (*cc.Config, error) {
	cfgOnce.Do(func() {
		cfgBase, cfgErr = cc.NewConfig(runtime.GOOS, runtime.GOARCH)
		if cfgErr != nil {
			cfgErr = fmt.Errorf("cannot configure the C parser (is gcc installed?): %v", cfgErr)
		}
	})
	if cfgErr != nil {
		return nil, cfgErr
	}
	c := *cfgBase
	return &c, nil
}

// Load parses and compiles the C file at path.
// Errors name the file, line and column and the problem.
func Load(path string, opts Options) (*Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return LoadSource(path, src, opts)
}

// LoadSource is Load for source text already in memory; name is used in
// positions and errors.
func LoadSource(name string, src []byte, opts Options) (p *Program, err error) {
	cfg, err := config()
	if err != nil {
		return nil, err
	}
	cfg.FS = headers
	cfg.SysIncludePaths = append([]string{"mcrinclude"}, cfg.SysIncludePaths...)
	cfg.IncludePaths = append(append([]string{"", "mcrinclude"}, opts.IncludePaths...), cfg.IncludePaths...)
	cfg.ExpansionLimit = 5_000_000
	var defs strings.Builder
	defs.WriteString("#define __MCR__ 1\n")
	for _, d := range opts.Defines {
		k, v, ok := strings.Cut(d, "=")
		if !ok {
			v = "1"
		}
		if k == "" || strings.ContainsAny(k, " \t\n()") {
			return nil, fmt.Errorf("bad macro definition -D %q", d)
		}
		fmt.Fprintf(&defs, "#define %s %s\n", k, v)
	}
	defer func() {
		// cc/v4 is robust, but a front end must never take the process down
		// on bad input: turn any internal failure into an error.
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("%s: internal error while compiling: %v", name, r)
		}
	}()
	sources := func() []cc.Source {
		return []cc.Source{
			{Name: "<predefined>", Value: cfg.Predefined},
			{Name: "<builtin>", Value: cc.Builtin},
			{Name: "<defines>", Value: defs.String()},
			{Name: name, Value: src},
			// cc/v4 loops forever when the translation unit ends right
			// after some tokens (a lone "*"); a final declaration keeps it
			// from meeting the end of input there (found by FuzzLoad).
			{Name: "<end>", Value: "\nstruct __mcr_end_of_input;\n"},
		}
	}
	// Preprocessing errors (a missing header) first: after one, cc/v4's
	// parser can loop at the end of input (also found by FuzzLoad).
	if err := cc.Preprocess(cfg, sources(), io.Discard); err != nil {
		return nil, tidyError(err)
	}
	ast, err := cc.Translate(cfg, sources())
	if err != nil {
		return nil, tidyError(err)
	}
	c := newCompiler(name, ast)
	p, err = c.compile()
	if err != nil {
		return nil, err
	}
	p.maxEvents, p.stepLimit = opts.MaxEvents, opts.StepLimit
	if p.maxEvents <= 0 {
		p.maxEvents = DefaultMaxEvents
	}
	if p.stepLimit <= 0 {
		p.stepLimit = localStepLimit
	}
	return p, nil
}

// tidyError keeps the first few lines of a cc error list.
func tidyError(err error) error {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	if len(lines) > 5 {
		lines = append(lines[:5], fmt.Sprintf("(%d more errors)", len(lines)-5))
	}
	return errors.New(strings.Join(lines, "\n"))
}
