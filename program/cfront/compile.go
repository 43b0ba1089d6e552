package cfront

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"

	"modernc.org/cc/v4"
	"modernc.org/token"

	"mcr/program"
)

// This file implements the compiler's declarations and statements: the
// translation unit's globals and functions, function bodies, control flow.

// compileError is a positioned error about the input program.
type compileError struct {
	pos token.Position
	msg string
}

func (e *compileError) Error() string { return fmt.Sprintf("%s: %s", e.pos, e.msg) }

// bail aborts compilation with a positioned error; compile recovers it.
type bail struct{ err *compileError }

type compiler struct {
	spurious    bool  // pthread_cond_wait may wake without a signal (condvar.go)
	keys        int32 // the static counting pthread keys, -1 until needed (tsd.go)
	dtorTable   int32 // the static table of key destructors, once Program.exitHook is set (tsd.go)
	noSpinAwait bool  // compile spin loops as written (spin.go)
	randInputs  bool  // rand() is an input (Options.RandInputs)
	file        string
	ast         *cc.AST
	p           *Program
	globals     map[string]int32         // file-scope name -> static id
	markers     []lineMarker             // a preprocessed (.i) source's line markers (extern.go)
	locals      map[*cc.Declarator]int32 // static locals -> static id
	funcs       map[string]*function     // by name
	strIDs      map[string]int32         // string literal -> static id
	fnDefs      map[string]*cc.FunctionDefinition
	// staticInits initialise static locals; they run after <init>.
	staticInits []*function
	queue       []*function // functions referenced but not compiled yet
	staticBytes int64
	queued      map[*function]bool
	bitLayouts  map[*cc.StructType][]*bitField // by field index (bitfield.go)

	// failingLocks: a pthread_mutex_lock whose result is used may fail
	// (Options.FailingLocks, failinglock.go); discarded is the call whose
	// result the expression statement being compiled drops
	failingLocks bool
	discarded    *cc.PostfixExpression

	// noLibc: the translation unit has no <libc> source; its functions'
	// ids are held by placeholders (libcPlaced once they are), and a call
	// of one bails out with errNeedLibc (libc.go)
	noLibc, libcPlaced bool

	// per function
	fn     *function
	vars   map[*cc.Declarator]*local
	loops  []*loopCtx
	labels map[string]int32
	gotos  map[string][]int32
	sw     *switchCtx
}

type local struct {
	slot  int // register slot, or -1
	fv    int // frame variable when slot < 0
	typ   cc.Type
	atom  bool
	param bool
	undef bool // declared without an initialiser
	vla   bool // a variable-length array: slot holds its storage's address
}

type loopCtx struct {
	breaks, conts []int32
	isSwitch      bool
}

type switchCtx struct {
	cases []switchCase
	deflt int32
	hasD  bool
}

type switchCase struct {
	val int64
	pc  int32
}

func newCompiler(file string, ast *cc.AST) *compiler {
	return &compiler{
		file: file, ast: ast,
		p: &Program{file: file, threads: newThreadNames()}, keys: -1,
		globals: map[string]int32{}, locals: map[*cc.Declarator]int32{},
		funcs: map[string]*function{}, strIDs: map[string]int32{}, fnDefs: map[string]*cc.FunctionDefinition{},
	}
}

func (c *compiler) errorf(n cc.Node, format string, args ...any) {
	var pos token.Position
	if n != nil {
		pos = n.Position()
	}
	if pos.Filename == "" {
		pos.Filename = c.file
	}
	panic(bail{&compileError{pos, fmt.Sprintf(format, args...)}})
}

func (c *compiler) unsupported(n cc.Node, what string) {
	c.errorf(n, "unsupported: %s", what)
}

func toPos(n cc.Node) program.Pos {
	if n == nil {
		return program.Pos{}
	}
	p := n.Position()
	return program.Pos{Line: int32(p.Line), Col: int32(p.Column), File: program.FileIndex(p.Filename)}
}

func (c *compiler) compile() (p *Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			p, err = nil, b.err
		}
	}()
	c.p.statics = append(c.p.statics, &static{name: "NULL", kind: kString}) // id 0 is the null object
	// Pass 1: functions and globals.
	for l := c.ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		c.placeLibc(ed)
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			fd := ed.FunctionDefinition
			name := fd.Declarator.Name()
			fn := c.function(name, fd.Declarator)
			if fn.defined {
				c.errorf(fd.Declarator, "function %s defined twice", name)
			}
			fn.defined = true
			fn.pos = toPos(fd.Declarator)
			c.fnDefs[name] = fd
		case cc.ExternalDeclarationDecl:
			c.fileDecl(ed.Declaration)
		case cc.ExternalDeclarationAsmStmt:
			c.unsupported(ed, "inline assembly")
		}
	}
	main := c.funcs["main"]
	if main == nil || !main.defined {
		c.errorf(nil, "no main function")
	}
	c.p.mainFn = main
	c.mainArgs()
	// Pass 2: global initialisers run once, at load time, into the initial image.
	initFn := &function{name: "<init>", entry: int32(len(c.p.code)), defined: true, void: true}
	c.fn, c.vars = initFn, map[*cc.Declarator]*local{}
	for l := c.ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		if d := l.ExternalDeclaration.Declaration; d != nil {
			for il := d.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
				id := il.InitDeclarator
				if id.Initializer != nil && !id.Declarator.IsTypename() && id.Declarator.Type().Kind() != cc.Function {
					c.initStatic(c.globals[id.Declarator.Name()], id.Declarator.Type(), id.Initializer)
				}
			}
		}
	}
	c.emit(instr{op: opRet})
	// Pass 3: the bodies of the functions reachable from main and from the
	// initialisers (headers define inline functions nobody calls).
	c.need(main)
	for len(c.queue) > 0 {
		fn := c.queue[0]
		c.queue = c.queue[1:]
		fd := c.fnDefs[fn.name]
		from := c.pc()
		c.body(fn, fd)
		if fd.Position().Filename == "<libc>" {
			fn.lib = true
			for i := from; i < c.pc(); i++ {
				c.p.code[i].pos = program.Pos{}
			}
		}
	}
	c.threadLocals()
	c.runInit(initFn)
	c.p.shared, c.p.nfuncs = funcObjects(c.p.statics)
	c.p.ownIdx = ownIndex(c.p.statics)
	return c.p, nil
}

// runInit executes the global initialisers once and keeps the result as
// the initial memory image.
func (c *compiler) runInit(initFn *function) {
	p := c.p
	if len(p.code) == 0 {
		return
	}
	x := &execution{p: p, locks: map[program.Loc]program.ThreadID{}, imaging: true}
	x.statics = make([]*object, len(p.statics))
	for i, s := range p.statics {
		x.statics[i] = &object{data: s.data, kind: s.kind, fn: s.fn}
	}
	th := &thread{id: 0, name: "0", begun: true}
	x.addThread(th)
	p.maxEvents, p.stepLimit = 1, localStepLimit
	for _, fn := range append([]*function{initFn}, c.staticInits...) {
		x.call(th, fn, nil, -1)
		x.run(th)
		if x.over {
			c.errorf(nil, "global initialiser failed: %s", x.outcome.Message)
		}
		th.ending, th.frames, th.stack = false, nil, nil
	}
	for i, s := range p.statics {
		if s.kind == kGlobal {
			s.data = x.statics[i].data
		}
	}
}

func (c *compiler) emit(in instr) int32 {
	if in.op == opBuiltin && in.a == bTryLock {
		c.p.hasTrylock = true
	}
	c.p.code = append(c.p.code, in)
	return int32(len(c.p.code) - 1)
}

func (c *compiler) pc() int32 { return int32(len(c.p.code)) }

func (c *compiler) patch(at int32) { c.p.code[at].a = c.pc() }

// function returns the function named name, creating its entry.
func (c *compiler) function(name string, d *cc.Declarator) *function {
	if fn, ok := c.funcs[name]; ok {
		return fn
	}
	ft, _ := d.Type().(*cc.FunctionType)
	fn := &function{name: name, entry: -1}
	if ft != nil {
		fn.void = ft.Result().Kind() == cc.Void
		fn.sret = isAggregate(ft.Result())
	}
	fn.atomic = strings.HasPrefix(name, "__VERIFIER_atomic_") && name != "__VERIFIER_atomic_begin" && name != "__VERIFIER_atomic_end"
	fn.objID = uint32(c.addStatic(&static{name: name, kind: kFunc, fn: fn}))
	c.funcs[name] = fn
	c.p.funcs = append(c.p.funcs, fn)
	return fn
}

// need queues fn's body for compilation (once).
func (c *compiler) need(fn *function) {
	if !fn.defined || c.queued[fn] {
		return
	}
	if c.queued == nil {
		c.queued = map[*function]bool{}
	}
	c.queued[fn] = true
	c.queue = append(c.queue, fn)
}

func (c *compiler) funcIndex(fn *function) int32 {
	for i, f := range c.p.funcs {
		if f == fn {
			return int32(i)
		}
	}
	return -1
}

// fileDecl handles a file-scope declaration.
func (c *compiler) fileDecl(d *cc.Declaration) {
	for il := d.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
		decl := il.InitDeclarator.Declarator
		if decl.IsTypename() {
			continue
		}
		t := decl.Type()
		if t.Kind() == cc.Function {
			c.function(decl.Name(), decl)
			continue
		}
		if _, ok := c.globals[decl.Name()]; ok {
			continue
		}
		c.globals[decl.Name()] = c.newStatic(decl, decl.Name())
	}
}

// mainArgs gives main the arguments of a run without command-line
// arguments, as SV-COMP and a shell run it: argc = 1, argv = {name of the
// file, NULL} (C11 5.1.2.2.1). Reading argc as 0 would take the usage-error
// branch of programs that test it and hide everything else.
func (c *compiler) mainArgs() {
	name := filepath.Base(c.file)
	prog := c.stringObj(name)
	argv := make([]byte, 16)
	binary.LittleEndian.PutUint64(argv, uint64(mkPtr(uint32(prog), 0)))
	c.p.mainArgs = []int64{1, mkPtr(uint32(c.addStatic(&static{name: "argv", kind: kString, data: argv})), 0)}
}

func (c *compiler) newStatic(d *cc.Declarator, name string) int32 {
	t := d.Type()
	c.checkType(d, t)
	size := t.Size()
	if size < 0 {
		size = 0 // incomplete: extern array without size; accesses are out of bounds
	}
	// every execution starts from a copy of the globals: keep them small
	if size > maxObject {
		c.unsupported(d, fmt.Sprintf("global %s of %d bytes (at most %d)", name, size, maxObject))
	}
	if c.staticBytes += size; c.staticBytes > maxStatics {
		c.unsupported(d, fmt.Sprintf("more than %d bytes of globals", maxStatics))
	}
	return c.addStatic(&static{name: name, kind: kGlobal, typ: t, data: make([]byte, size), tls: d.IsThreadLocal(), internal: d.IsStatic()})
}

// addStatic adds s to the program's static objects and returns its id.
func (c *compiler) addStatic(s *static) int32 {
	c.p.statics = append(c.p.statics, s)
	return int32(len(c.p.statics) - 1)
}

// checkType rejects types the interpreter does not model.
func (c *compiler) checkType(n cc.Node, t cc.Type) {
	switch t.Kind() {
	case cc.Array:
		at := t.(*cc.ArrayType)
		c.checkArraySize(at)
		c.checkType(n, at.Elem())
	case cc.Struct:
		if st, ok := t.(*cc.StructType); ok {
			if hasBitFields(st) {
				c.bitLayout(n, st) // refuses what is not modelled
			}
			for i := 0; i < st.NumFields(); i++ {
				if f := st.FieldByIndex(i); !f.IsBitfield() {
					c.checkType(n, f.Type())
				}
			}
		}
	case cc.Float16, cc.Float128, cc.Float32x, cc.Float64x, cc.Float128x,
		cc.ComplexDouble, cc.ComplexFloat, cc.ComplexLongDouble, cc.BFloat16, cc.Decimal32, cc.Decimal64, cc.Decimal128:
		c.unsupported(n, "floating-point type "+t.String())
	case cc.Int128, cc.UInt128:
		c.unsupported(n, "128-bit integer type")
	}
}

// checkArraySize rejects an array type whose size expression is not a
// usable integer or whose size does not fit one object. cc/v4 lets some
// through: a size that is a string, or whose value or byte size overflows
// int64, gives an incomplete or 0-byte array, and then bogus out-of-bounds
// findings. Variable-length arrays are left to the callers, which name the
// variable.
func (c *compiler) checkArraySize(at *cc.ArrayType) {
	e := at.SizeExpression()
	if e == nil {
		return // [] with an initialiser, extern or flexible array member
	}
	if !cc.IsIntegerType(e.Type()) {
		c.errorf(e, "array size %s is not an integer", srcText(e))
	}
	if v, ok := e.Value().(cc.UInt64Value); ok && int64(v) < 0 {
		c.errorf(e, "array size %s = %d is too large (at most %d bytes per object)", srcText(e), uint64(v), maxObject)
	}
	if n, es := at.Len(), at.Elem().Size(); n >= 0 && es > 0 && n > maxObject/es {
		c.errorf(e, "array of %d elements of %d bytes is too large (at most %d bytes per object)", n, es, maxObject)
	}
}

// body compiles a function definition.
func (c *compiler) body(fn *function, fd *cc.FunctionDefinition) {
	c.fn = fn
	c.vars = map[*cc.Declarator]*local{}
	c.labels = map[string]int32{}
	c.gotos = map[string][]int32{}
	c.loops = nil
	c.sw = nil
	fn.entry = c.pc()
	// parameters
	if fn.sret {
		fn.nslots++ // slot 0: the hidden result pointer (structret.go)
		fn.nparams++
	}
	dd := fd.Declarator.DirectDeclarator
	for dd != nil && dd.Case != cc.DirectDeclaratorFuncParam && dd.Case != cc.DirectDeclaratorFuncIdent {
		if dd.Declarator != nil {
			dd = dd.Declarator.DirectDeclarator
		} else {
			dd = dd.DirectDeclarator
		}
	}
	if dd != nil && dd.Case == cc.DirectDeclaratorFuncIdent && dd.IdentifierList != nil {
		c.unsupported(fd, "K&R-style parameter list")
	}
	var aggParams []*cc.Declarator // copied in after every parameter has its slot
	if dd != nil && dd.ParameterTypeList != nil {
		for pl := dd.ParameterTypeList.ParameterList; pl != nil; pl = pl.ParameterList {
			pd := pl.ParameterDeclaration
			if pd.Declarator == nil {
				if pd.Type().Kind() != cc.Void {
					fn.nparams++
					fn.nslots++
				}
				continue
			}
			t := pd.Declarator.Type()
			c.checkType(pd.Declarator, t)
			slot := fn.nslots
			fn.nslots++
			fn.nparams++
			lv := &local{slot: slot, typ: t, param: true, atom: isAtomicDecl(pd.Declarator)}
			if isAggregate(t) {
				aggParams = append(aggParams, pd.Declarator)
			} else if pd.Declarator.AddressTaken() {
				lv.fv = c.frameAlloc(pd.Declarator, t, pd.Declarator.Name())
				lv.slot = -1
				w, _ := c.scalar(pd.Declarator, t)
				fn.params = append(fn.params, paramCopy{slot: slot, v: lv.fv, w: w})
			}
			c.vars[pd.Declarator] = lv
		}
	}
	for _, d := range aggParams {
		c.structParam(d, c.vars[d])
	}
	if ft, ok := fd.Declarator.Type().(*cc.FunctionType); ok {
		c.checkType(fd.Declarator, ft.Result())
	}
	if fn.atomic {
		c.emit(instr{op: opBuiltin, a: bAtomicBegin, pos: fn.pos})
		c.emit(instr{op: opPop})
	}
	c.compound(fd.CompoundStatement)
	// falling off the end returns 0 (main) or nothing
	c.ret(nil, fd.CompoundStatement.Token2)
	for name, sites := range c.gotos {
		pc, ok := c.labels[name]
		if !ok {
			c.errorf(fd, "goto to undefined label %s", name)
		}
		for _, s := range sites {
			c.p.code[s].a = pc
		}
	}
}

// frameAlloc adds a memory-resident local of type t to the current
// function and returns its frame variable index.
func (c *compiler) frameAlloc(n cc.Node, t cc.Type, name string) int {
	size := t.Size()
	if size <= 0 {
		size = 1
	}
	if size > maxObject {
		c.unsupported(n, fmt.Sprintf("local %s of %s needs %d bytes (at most %d)", name, c.fn.name, size, maxObject))
	}
	c.fn.frameVars = append(c.fn.frameVars, frameVar{name: c.fn.name + "." + name, size: size, typ: t})
	return len(c.fn.frameVars) - 1
}

func (c *compiler) newTemp() int {
	s := c.fn.nslots
	c.fn.nslots++
	return s
}

func (c *compiler) ret(value cc.ExpressionNode, at cc.Node) {
	fn := c.fn
	switch {
	case fn.sret:
		c.retAggregate(value)
	case value != nil:
		c.exprTo(value, c.fnResult())
	case !fn.void:
		c.emit(instr{op: opPush})
	}
	if fn.atomic {
		c.emit(instr{op: opBuiltin, a: bAtomicEnd, pos: toPos(at)})
		c.emit(instr{op: opPop})
	}
	var f uint8
	if !fn.void {
		f = fKeep
	} else if value != nil {
		c.emit(instr{op: opPop})
	}
	c.emit(instr{op: opRet, flag: f, pos: toPos(at)})
}

func (c *compiler) fnResult() cc.Type {
	fd := c.fnDefs[c.fn.name]
	if ft, ok := fd.Declarator.Type().(*cc.FunctionType); ok {
		return ft.Result()
	}
	return c.ast.Int
}

func (c *compiler) compound(cs *cc.CompoundStatement) {
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		c.blockItem(l.BlockItem)
	}
}

// blockItem compiles one item of a block (compound, stmtExpr).
func (c *compiler) blockItem(bi *cc.BlockItem) {
	switch bi.Case {
	case cc.BlockItemDecl:
		c.localDecl(bi.Declaration)
	case cc.BlockItemLabel:
	case cc.BlockItemStmt:
		c.stmt(bi.Statement)
	case cc.BlockItemFuncDef:
		c.unsupported(bi, "nested function definition")
	}
}
