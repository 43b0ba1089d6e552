package cfront

// This file implements thread-local variables (_Thread_local, C11 6.2.4p4;
// GCC's __thread): each thread has its own copy, initialised as the
// variable's initialiser says (the static, run into the initial image, is
// the template). A thread's copy is an object of its own, created when the
// thread first takes the variable's address, and private to the thread
// like a local until its address escapes (publish.go): accesses of two
// threads to "the same" thread-local variable are accesses to two objects
// and never race. A copy lives until the execution ends (C ends it with
// its thread; a use after that is not reported).

// threadLocals turns every address of a thread-local static in the
// compiled code into an address of the running thread's copy.
func (c *compiler) threadLocals() {
	for i := range c.p.code {
		in := &c.p.code[i]
		if in.op == opAddrObj && int(in.a) < len(c.p.statics) && c.p.statics[in.a].tls {
			in.op = opAddrTLS
		}
	}
}

// threadLocal returns the address of th's copy of thread-local static id,
// creating it from the template on first use; 0 if a limit of the tool
// ends the execution instead. While the initial image is built, the
// template itself.
func (x *execution) threadLocal(th *thread, id int32) int64 {
	if x.imaging {
		return mkPtr(uint32(id), 0)
	}
	if p, ok := th.tls[id]; ok {
		return p
	}
	s := x.p.statics[id]
	p := x.alloc(th, int64(len(s.data)), kStack, s.name)
	if p == 0 {
		return 0
	}
	o := x.object(objOf(p))
	copy(o.data, x.object(uint32(id)).data)
	o.typ = s.typ
	if th.tls == nil {
		th.tls = map[int32]int64{}
	}
	th.tls[id] = p
	return p
}
