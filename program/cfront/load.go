// Package cfront is mcr's C front end: it parses a pthreads C program with
// modernc.org/cc/v4, compiles the typed AST to a small bytecode, and runs it
// under a controlled scheduler as a program.Program (DESIGN.md, "Executing
// programs").
//
// Shared memory is globals and heap blocks: every access to them is an event
// at scalar granularity, like Nidhugg's loads and stores after mem2reg.
// Locals whose address is never taken live in registers and produce no
// events; each address-taken or aggregate local lives in a block of its own
// (so that an access out of one is out of bounds), private to its thread
// until a pointer to it is passed to another thread or stored in shared
// memory. Structs and unions passed or returned by value are copied
// through such frame objects of the caller and the callee (structret.go),
// so the copies are private unless a source or destination is shared.
//
// Limits of the interpreter (threads, allocations per thread, object and
// heap sizes, steps between events) end an execution as program.Bounded,
// never as a finding: the exploration is then incomplete. Input the C parser
// cannot survive (brackets nested more than 1000 deep, #include cycles,
// more than 16 MB of source) is refused with its position or file.
//
// The front end puts its own <pthread.h>, <semaphore.h>, <stdatomic.h> and
// <assert.h> first on the include path, mapping each operation to builtins
// of the interpreter (condvar.go, rwlock.go, barrier.go, semaphore.go for
// the synchronisation objects); other system headers are the real ones.
// Anything the interpreter does not model (floating point, inline assembly,
// setjmp, timed waits, key destructors, ...) is rejected with an error
// naming the construct and its position.
package cfront

import (
	"embed"
	"errors"
	"fmt"
	"os"
	"regexp"
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
	// MaxThreads bounds the threads of one execution, main included; 0
	// means DefaultMaxThreads. A pthread_create beyond it stops its thread
	// and the execution ends as bounded.
	MaxThreads int
	// NoSpinAwait compiles spin loops as written instead of as awaits
	// (spin.go) and lets threads run on after a loop iteration without
	// effect (idle.go).
	NoSpinAwait bool
	// SpuriousWakeups lets pthread_cond_wait return without a signal
	// (condvar.go); off, a wait returns only after a signal.
	SpuriousWakeups bool
	// RandInputs makes rand() and random() inputs (values in [0, RAND_MAX],
	// explored like __VERIFIER_nondet_int) and srand/srandom no-ops; off,
	// a call of them ends its execution as unmodelled (issue 16).
	RandInputs bool
	// FailingLocks lets a pthread_mutex_lock whose result the program uses
	// fail with EINVAL, a nondeterministic choice (failinglock.go); off, a
	// lock always succeeds, as glibc's default mutex does.
	FailingLocks bool
	// StepLimit bounds the instructions a thread runs between two events
	// (an execution that exceeds it ends as bounded); 0 means 50 million.
	StepLimit int
}

// DefaultMaxEvents is the per-thread event bound when none is given.
const DefaultMaxEvents = 100_000

// DefaultMaxThreads is the thread bound when none is given. Programs that
// create threads in an unbounded loop (SV-COMP's pthread-ext tasks) would
// otherwise create one per event until the event bound: 100,000 threads,
// each scheduled and each a column of every happens-before clock.
const DefaultMaxThreads = 32

var (
	cfgOnce sync.Once
	cfgBase *cc.Config
	cfgErr  error
)

func config() (*cc.Config, error) {
	cfgOnce.Do(func() {
		cfgBase, cfgErr = hostConfig() // cc.NewConfig, cached (hostcc.go)
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
	return loadSource(path, src, opts, true)
}

// LoadSource is Load for source text already in memory; name is used in
// positions and errors.
func LoadSource(name string, src []byte, opts Options) (p *Program, err error) {
	return loadSource(name, src, opts, false)
}

// loadSource is Load and LoadSource; cacheGuard lets the guard pass use
// its cache (guardcache.go): set for files, whose path names a cache slot,
// not for generated programs, which would only churn the slots.
func loadSource(name string, src []byte, opts Options, cacheGuard bool) (p *Program, err error) {
	cfg, err := config()
	if err != nil {
		return nil, err
	}
	cfg.FS = headers
	cfg.SysIncludePaths = append([]string{"mcrinclude"}, cfg.SysIncludePaths...)
	cfg.IncludePaths = append(append([]string{"", "mcrinclude"}, opts.IncludePaths...), cfg.IncludePaths...)
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
	var files map[string]*sourceFile
	preprocessing := true
	defer func() {
		// cc/v4 is robust, but a front end must never take the process down
		// on bad input: turn any internal failure into an error. An include
		// cycle that include guards should have stopped makes cc/v4's
		// preprocessor panic once its expansion limit stops it: name the
		// cycle.
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("%s: internal error while compiling: %v", name, r)
			if files != nil && preprocessing {
				if cyc := includeCycle(name, files, true); cyc != nil {
					err = cyc
				}
			}
		}
	}()
	// cc/v4 overflows the Go stack on deep nesting (fatal, beyond recover)
	// and loops on #include cycles: refuse cycles first, with file and line;
	// the nesting is measured while preprocessing, before parsing.
	files = scanSources(name, src, opts.IncludePaths)
	if err := includeCycle(name, files, false); err != nil {
		return nil, err
	}
	if err := spliceAtEnd(files); err != nil {
		return nil, err
	}
	if err := tooLarge(name, files); err != nil {
		return nil, err
	}
	cfg.ExpansionLimit = expansionLimit(sourceSize(files))
	// The library in C (libc.go) only if the program may call it: it is
	// about a sixth of the parse of a small program. A call found while
	// compiling without it compiles the program again with it.
	withLibc := mentionsLibc(src, opts.Defines)
	sources := func() []cc.Source {
		srcs := []cc.Source{
			{Name: "<predefined>", Value: cfg.Predefined},
			{Name: "<builtin>", Value: cc.Builtin},
			{Name: "<defines>", Value: defs.String()},
		}
		if withLibc {
			// before the program, so that its macros (SV-COMP's scull.c
			// has #define char int) do not rewrite the library (libc.go)
			srcs = append(srcs, cc.Source{Name: "<libc>", Value: libcSource + sscanfSource})
		}
		return append(srcs,
			cc.Source{Name: name, Value: src},
			// cc/v4 loops forever when the translation unit ends right
			// after some tokens (a lone "*"); a final declaration keeps it
			// from meeting the end of input there (found by FuzzLoad).
			cc.Source{Name: "<end>", Value: "\nstruct __mcr_end_of_input;\n"})
	}
	// Preprocessing errors (a missing header) first: after one, cc/v4's
	// parser can loop at the end of input (also found by FuzzLoad). The
	// output is only checked for nesting that macros built. A pass that
	// succeeded on the same input before is not repeated (guardcache.go).
	var guard *guardCache
	if cacheGuard {
		guard = newGuardCache(name, src, defs.String(), cfg)
	}
	if !guard.hit() {
		pcfg := *cfg
		pcfg.FS = guard.fs(cfg.FS)
		if err := cc.Preprocess(&pcfg, sources(), &nestingWriter{}); err != nil {
			if errors.Is(err, errTooDeep) {
				return nil, tooDeep(name, files)
			}
			if strings.Contains(err.Error(), "expansion limit") {
				if cyc := includeCycle(name, files, true); cyc != nil {
					return nil, cyc
				}
			}
			return nil, tidyError(err)
		}
		guard.store()
	}
	preprocessing = false
	for {
		ast, err := cc.Translate(cfg, sources())
		if err != nil {
			return nil, tidyError(err)
		}
		c := newCompiler(name, ast)
		c.markers = lineMarkers(src)
		c.spurious, c.noSpinAwait, c.randInputs = opts.SpuriousWakeups, opts.NoSpinAwait, opts.RandInputs
		c.failingLocks, c.noLibc = opts.FailingLocks, !withLibc
		p, err = c.compile()
		if errors.Is(err, errNeedLibc) && !withLibc {
			withLibc = true // the library has no macros: the guard pass stands
			continue
		}
		if err != nil {
			return nil, err
		}
		break
	}
	p.maxEvents, p.maxThreads, p.stepLimit = opts.MaxEvents, opts.MaxThreads, opts.StepLimit
	p.noIdleStop = opts.NoSpinAwait
	if p.maxEvents <= 0 {
		p.maxEvents = DefaultMaxEvents
	}
	if p.maxThreads <= 0 {
		p.maxThreads = DefaultMaxThreads
	}
	if p.stepLimit <= 0 {
		p.stepLimit = localStepLimit
	}
	return p, nil
}

// tidyError turns cc/v4's error list into user-facing lines: each names a
// position and what is wrong. It drops cc/v4's Go source positions
// ("(check.go:5317:check:)"), its position-less "TODO ..." notes and the
// errors that only follow from an earlier one ("<invalid type>"), words Go
// library errors in C terms, and keeps the first few lines.
func tidyError(err error) error {
	var lines, followUps []string
	for _, l := range strings.Split(strings.TrimSpace(err.Error()), "\n") {
		l = strings.TrimSpace(goOrigin.ReplaceAllString(l, ""))
		if m := todoAt.FindStringSubmatch(l); m != nil {
			l = m[1] + ": construct the C parser cannot check"
		}
		switch {
		case l == "" || strings.HasPrefix(l, "TODO"):
			continue
		case strings.Contains(l, "<invalid type>"):
			followUps = append(followUps, l)
			continue
		}
		for _, r := range rewrites {
			l = r.re.ReplaceAllString(l, r.with)
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		lines = followUps
	}
	if len(lines) == 0 {
		// nothing but internal notes: still say what failed, never how
		return errors.New("the C parser could not check this program (a construct it does not support)")
	}
	if len(lines) > 5 {
		lines = append(lines[:5], fmt.Sprintf("(%d more errors)", len(lines)-5))
	}
	return errors.New(strings.Join(lines, "\n"))
}

var (
	// goOrigin is the Go source position cc/v4 appends to its messages.
	goOrigin = regexp.MustCompile(`\s*\([A-Za-z0-9_]+\.go:\d+:[^()]*\)`)
	// todoAt is cc/v4's note on a construct its checker misses, with a position.
	todoAt = regexp.MustCompile(`^TODO (\S+:\d+:\d+):`)
	// rewrites word Go library errors that cc/v4 passes on in C terms.
	rewrites = []struct {
		re   *regexp.Regexp
		with string
	}{
		{regexp.MustCompile(`strconv\.Parse\w+: parsing "(.*)": invalid syntax`), "invalid integer constant"},
		{regexp.MustCompile(`strconv\.Parse\w+: parsing "(.*)": value out of range`), "integer constant ${1} is too large"},
		{regexp.MustCompile(`invalid array size, (.*): (-?\d+)$`), "negative array size ${2}"},
		{regexp.MustCompile(`\(Config\.ExpansionLimit (\d+)\)`), "(at most ${1} tokens)"},
	}
)
