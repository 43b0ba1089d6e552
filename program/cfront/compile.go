package cfront

import (
	"fmt"
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
	spurious bool // pthread_cond_wait may wake without a signal (condvar.go)
	file    string
	ast     *cc.AST
	p       *Program
	globals map[string]int32         // file-scope name -> static id
	locals  map[*cc.Declarator]int32 // static locals -> static id
	funcs   map[string]*function     // by name
	strIDs  map[string]int32         // string literal -> static id
	fnDefs  map[string]*cc.FunctionDefinition
	// staticInits initialise static locals; they run after <init>.
	staticInits []*function
	queue       []*function // functions referenced but not compiled yet
	staticBytes int64
	queued      map[*function]bool

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
		p:       &Program{file: file, threadIDs: map[string]program.ThreadID{}},
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
	return program.Pos{Line: int32(p.Line), Col: int32(p.Column)}
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
	c.p.Thread("0")                                                         // the main thread is id 0
	c.p.statics = append(c.p.statics, &static{name: "NULL", kind: kString}) // id 0 is the null object
	// Pass 1: functions and globals.
	for l := c.ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
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
		c.body(fn, c.fnDefs[fn.name])
	}
	c.runInit(initFn)
	return c.p, nil
}

// runInit executes the global initialisers once and keeps the result as
// the initial memory image.
func (c *compiler) runInit(initFn *function) {
	p := c.p
	if len(p.code) == 0 {
		return
	}
	x := &execution{p: p, locks: map[program.Loc]program.ThreadID{}}
	x.statics = make([]object, len(p.statics))
	for i, s := range p.statics {
		x.statics[i] = object{data: s.data, kind: s.kind, fn: s.fn}
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
	}
	fn.atomic = strings.HasPrefix(name, "__VERIFIER_atomic_") && name != "__VERIFIER_atomic_begin" && name != "__VERIFIER_atomic_end"
	fn.objID = uint32(len(c.p.statics))
	c.p.statics = append(c.p.statics, &static{name: name, kind: kFunc, fn: fn})
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
	id := int32(len(c.p.statics))
	c.p.statics = append(c.p.statics, &static{name: name, kind: kGlobal, typ: t, data: make([]byte, size)})
	return id
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
			for i := 0; i < st.NumFields(); i++ {
				f := st.FieldByIndex(i)
				if f.IsBitfield() {
					c.unsupported(n, "bit-field "+f.Name())
				}
				c.checkType(n, f.Type())
			}
		}
	case cc.Float, cc.Double, cc.LongDouble, cc.Float16, cc.Float32, cc.Float64, cc.Float128, cc.Float32x, cc.Float64x, cc.Float128x,
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
			if t.Kind() == cc.Struct || t.Kind() == cc.Union {
				c.unsupported(pd.Declarator, "struct passed by value")
			}
			slot := fn.nslots
			fn.nslots++
			fn.nparams++
			lv := &local{slot: slot, typ: t, param: true, atom: isAtomicDecl(pd.Declarator)}
			if pd.Declarator.AddressTaken() {
				lv.fv = c.frameAlloc(pd.Declarator, t, pd.Declarator.Name())
				lv.slot = -1
				w, _ := c.scalar(pd.Declarator, t)
				fn.params = append(fn.params, paramCopy{slot: slot, v: lv.fv, w: w})
			}
			c.vars[pd.Declarator] = lv
		}
	}
	if ft, ok := fd.Declarator.Type().(*cc.FunctionType); ok {
		if k := ft.Result().Kind(); k == cc.Struct || k == cc.Union {
			c.unsupported(fd.Declarator, "function returning a struct")
		}
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
	c.fn.frameVars = append(c.fn.frameVars, frameVar{name: c.fn.name + "." + name, size: size})
	return len(c.fn.frameVars) - 1
}

func (c *compiler) newTemp() int {
	s := c.fn.nslots
	c.fn.nslots++
	return s
}

func (c *compiler) ret(value cc.ExpressionNode, at cc.Node) {
	fn := c.fn
	if value != nil {
		ft := c.fnResult()
		c.exprTo(value, ft)
	} else if !fn.void {
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
		bi := l.BlockItem
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
}

func isAtomicDecl(d *cc.Declarator) bool {
	return d.IsAtomic() || isAtomicType(d.Type())
}

func isAtomicType(t cc.Type) bool {
	if t == nil {
		return false
	}
	if td := t.Typedef(); td != nil && (td.IsAtomic() || strings.HasPrefix(td.Name(), "atomic_")) {
		return true
	}
	return false
}

// localDecl compiles a block-scope declaration.
func (c *compiler) localDecl(d *cc.Declaration) {
	if d.Case != cc.DeclarationDecl {
		return // static assertions, auto type
	}
	for il := d.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
		idl := il.InitDeclarator
		decl := idl.Declarator
		if decl.IsTypename() || decl.IsExtern() {
			continue
		}
		t := decl.Type()
		if t.Kind() == cc.Function {
			continue
		}
		c.checkType(decl, t)
		if decl.IsStatic() {
			id := c.newStatic(decl, c.fn.name+"."+decl.Name())
			c.locals[decl] = id
			if idl.Initializer != nil {
				c.staticLocalInit(id, t, idl.Initializer)
			}
			continue
		}
		if t.Size() < 0 {
			c.unsupported(decl, "variable-length array "+decl.Name())
		}
		lv := &local{slot: -1, typ: t, atom: isAtomicDecl(decl)}
		agg := t.Kind() == cc.Array || t.Kind() == cc.Struct || t.Kind() == cc.Union
		if agg || decl.AddressTaken() {
			lv.fv = c.frameAlloc(decl, t, decl.Name())
		} else {
			lv.slot = c.newTemp()
		}
		c.vars[decl] = lv
		if idl.Initializer == nil {
			// Its value is indeterminate until set (C11 6.7.9p10). Reading
			// it reads 0 and makes the search incomplete (Unmodelled):
			// every value would have to be tried, as an input.
			lv.undef = true
			if lv.slot >= 0 {
				c.emit(instr{op: opPush})
				c.emit(instr{op: opSetLocal, a: int32(lv.slot), w: 1, flag: fUndef})
			} else {
				c.emit(instr{op: opAddrFrame, a: int32(lv.fv)})
				c.emit(instr{op: opZero, k: t.Size(), flag: fUndef})
			}
			continue
		}
		if lv.slot >= 0 {
			c.initExpr(idl.Initializer, t)
			c.emit(instr{op: opSetLocal, a: int32(lv.slot)})
			continue
		}
		if agg {
			c.emit(instr{op: opAddrFrame, a: int32(lv.fv)})
			c.emit(instr{op: opZero, k: t.Size()})
		}
		c.initMem(func(off int64) { c.emit(instr{op: opAddrFrame, a: int32(lv.fv), k: off}) }, t, idl.Initializer, 0)
	}
}

// staticLocalInit compiles a static local's initialiser into a separate
// piece of code run with the global initialisers.
func (c *compiler) staticLocalInit(id int32, t cc.Type, init *cc.Initializer) {
	// Emit the initialiser out of line: jump over it here, and splice a call
	// of it into <init> by compiling it as its own tiny function.
	fn := &function{name: "<init " + c.p.statics[id].name + ">", defined: true, void: true}
	skip := c.emit(instr{op: opJmp})
	fn.entry = c.pc()
	saved := c.fn
	c.fn = fn
	c.initStatic(id, t, init)
	c.emit(instr{op: opRet})
	c.fn = saved
	c.patch(skip)
	c.p.funcs = append(c.p.funcs, fn)
	c.staticInits = append(c.staticInits, fn)
}

// initStatic compiles the initialiser of static object id.
func (c *compiler) initStatic(id int32, t cc.Type, init *cc.Initializer) {
	c.initMem(func(off int64) { c.emit(instr{op: opAddrObj, a: id, k: off}) }, t, init, 0)
}

// initMem stores initializer init of type t at the address addr(off) pushes.
func (c *compiler) initMem(addr func(off int64), t cc.Type, init *cc.Initializer, off int64) {
	switch init.Case {
	case cc.InitializerExpr:
		e := init.AssignmentExpression
		switch t.Kind() {
		case cc.Array:
			if s, ok := stringLiteral(e); ok {
				n := t.Size()
				b := []byte(s)
				for i := int64(0); i < n && i < int64(len(b)); i++ {
					addr(off + i)
					c.emit(instr{op: opPush, k: int64(b[i])})
					c.emit(instr{op: opStore, w: 1})
				}
				return
			}
			c.unsupported(init, "array initialiser that is not a list or string")
		case cc.Struct, cc.Union:
			addr(off)
			c.addr(e)
			c.copyAgg(t, init)
			return
		}
		addr(off)
		c.exprTo(e, t)
		c.emitStore(t, false, 0, init)
	case cc.InitializerInitList:
		for l := init.InitializerList; l != nil; l = l.InitializerList {
			sub := l.Initializer
			if sub == nil {
				continue
			}
			st := sub.Type()
			if sub.Case == cc.InitializerExpr {
				// leaves carry their offset within the outermost object
				c.initMem(addr, st, sub, sub.Offset())
				continue
			}
			c.initMem(addr, st, sub, sub.Offset())
		}
	}
}

// initExpr pushes the value of a scalar initializer.
func (c *compiler) initExpr(init *cc.Initializer, t cc.Type) {
	switch init.Case {
	case cc.InitializerExpr:
		c.exprTo(init.AssignmentExpression, t)
	case cc.InitializerInitList:
		if init.InitializerList != nil && init.InitializerList.Initializer != nil {
			c.initExpr(init.InitializerList.Initializer, t)
			return
		}
		c.emit(instr{op: opPush})
	}
}

func stringLiteral(e cc.ExpressionNode) (string, bool) {
	if v, ok := e.Value().(cc.StringValue); ok {
		return string(v), true
	}
	return "", false
}

func (c *compiler) stmt(s *cc.Statement) {
	switch s.Case {
	case cc.StatementLabeled:
		c.labeled(s.LabeledStatement)
	case cc.StatementCompound:
		c.compound(s.CompoundStatement)
	case cc.StatementExpr:
		if e := s.ExpressionStatement.ExpressionList; e != nil {
			c.expr(e)
			c.emit(instr{op: opPop})
		}
	case cc.StatementSelection:
		c.selection(s.SelectionStatement)
	case cc.StatementIteration:
		c.iteration(s.IterationStatement)
	case cc.StatementJump:
		c.jump(s.JumpStatement)
	case cc.StatementAsm:
		c.unsupported(s, "inline assembly")
	default:
		c.unsupported(s, "statement")
	}
}

func (c *compiler) labeled(ls *cc.LabeledStatement) {
	switch ls.Case {
	case cc.LabeledStatementLabel:
		c.labels[ls.Token.SrcStr()] = c.pc()
	case cc.LabeledStatementCaseLabel:
		if c.sw == nil {
			c.errorf(ls, "case outside switch")
		}
		v, ok := constInt(ls.ConstantExpression)
		if !ok {
			c.errorf(ls, "case label is not an integer constant")
		}
		c.sw.cases = append(c.sw.cases, switchCase{v, c.pc()})
	case cc.LabeledStatementDefault:
		if c.sw == nil {
			c.errorf(ls, "default outside switch")
		}
		c.sw.deflt, c.sw.hasD = c.pc(), true
	case cc.LabeledStatementRange:
		c.unsupported(ls, "case range")
	}
	c.stmt(ls.Statement)
}

func constInt(e cc.ExpressionNode) (int64, bool) {
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		return int64(v), true
	}
	return 0, false
}

func (c *compiler) selection(s *cc.SelectionStatement) {
	switch s.Case {
	case cc.SelectionStatementIf, cc.SelectionStatementIfElse:
		c.cond(s.ExpressionList)
		jz := c.emit(instr{op: opJz})
		c.stmt(s.Statement)
		if s.Case == cc.SelectionStatementIfElse {
			j := c.emit(instr{op: opJmp})
			c.patch(jz)
			c.stmt(s.Statement2)
			c.patch(j)
		} else {
			c.patch(jz)
		}
	case cc.SelectionStatementSwitch:
		t := cc.IntegerPromotion(s.ExpressionList.Type())
		c.exprTo(s.ExpressionList, t)
		tmp := c.newTemp()
		c.emit(instr{op: opSetLocal, a: int32(tmp)})
		toDispatch := c.emit(instr{op: opJmp})
		saved := c.sw
		c.sw = &switchCtx{}
		c.loops = append(c.loops, &loopCtx{isSwitch: true})
		c.stmt(s.Statement)
		toEnd := c.emit(instr{op: opJmp})
		c.patch(toDispatch)
		w, signed := c.scalar(s, t)
		for _, cs := range c.sw.cases {
			c.emit(instr{op: opGetLocal, a: int32(tmp)})
			c.emit(instr{op: opPush, k: conv(cs.val, w, signed)})
			c.emit(instr{op: opEq})
			c.emit(instr{op: opJnz, a: cs.pc})
		}
		if c.sw.hasD {
			c.emit(instr{op: opJmp, a: c.sw.deflt})
		}
		c.patch(toEnd)
		lc := c.loops[len(c.loops)-1]
		c.loops = c.loops[:len(c.loops)-1]
		for _, b := range lc.breaks {
			c.patch(b)
		}
		c.sw = saved
	}
}

func (c *compiler) iteration(s *cc.IterationStatement) {
	lc := &loopCtx{}
	switch s.Case {
	case cc.IterationStatementWhile:
		top := c.pc()
		c.cond(s.ExpressionList)
		jz := c.emit(instr{op: opJz})
		c.loops = append(c.loops, lc)
		c.stmt(s.Statement)
		c.loops = c.loops[:len(c.loops)-1]
		for _, ct := range lc.conts {
			c.p.code[ct].a = top
		}
		c.emit(instr{op: opJmp, a: top})
		c.patch(jz)
	case cc.IterationStatementDo:
		top := c.pc()
		c.loops = append(c.loops, lc)
		c.stmt(s.Statement)
		c.loops = c.loops[:len(c.loops)-1]
		for _, ct := range lc.conts {
			c.patch(ct)
		}
		c.cond(s.ExpressionList)
		c.emit(instr{op: opJnz, a: top})
	case cc.IterationStatementFor, cc.IterationStatementForDecl:
		// for (init; cond; post): the declaration form has no init expression
		cond, post := s.ExpressionList2, s.ExpressionList3
		if s.Case == cc.IterationStatementForDecl {
			c.localDecl(s.Declaration)
			cond, post = s.ExpressionList, s.ExpressionList2
		} else if s.ExpressionList != nil {
			c.expr(s.ExpressionList)
			c.emit(instr{op: opPop})
		}
		top := c.pc()
		jz := int32(-1)
		if cond != nil {
			c.cond(cond)
			jz = c.emit(instr{op: opJz})
		}
		c.loops = append(c.loops, lc)
		c.stmt(s.Statement)
		c.loops = c.loops[:len(c.loops)-1]
		for _, ct := range lc.conts {
			c.patch(ct)
		}
		if post != nil {
			c.expr(post)
			c.emit(instr{op: opPop})
		}
		c.emit(instr{op: opJmp, a: top})
		if jz >= 0 {
			c.patch(jz)
		}
	}
	for _, b := range lc.breaks {
		c.patch(b)
	}
}

func (c *compiler) jump(s *cc.JumpStatement) {
	switch s.Case {
	case cc.JumpStatementGoto:
		name := s.Token2.SrcStr()
		c.gotos[name] = append(c.gotos[name], c.emit(instr{op: opJmp}))
	case cc.JumpStatementGotoExpr:
		c.unsupported(s, "computed goto")
	case cc.JumpStatementContinue:
		for i := len(c.loops) - 1; i >= 0; i-- {
			if !c.loops[i].isSwitch {
				c.loops[i].conts = append(c.loops[i].conts, c.emit(instr{op: opJmp}))
				return
			}
		}
		c.errorf(s, "continue outside a loop")
	case cc.JumpStatementBreak:
		if len(c.loops) == 0 {
			c.errorf(s, "break outside a loop or switch")
		}
		lc := c.loops[len(c.loops)-1]
		lc.breaks = append(lc.breaks, c.emit(instr{op: opJmp}))
	case cc.JumpStatementReturn:
		c.ret(s.ExpressionList, s)
	}
}
