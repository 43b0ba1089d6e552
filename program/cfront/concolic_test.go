package cfront

import (
	"testing"

	"mcr/program"
	"mcr/program/sym"
)

// runInputs runs p with the input vector in under the default schedule
// and checks the shadow's invariant: every recorded constraint holds under
// the inputs the execution read (the terms evaluate to the concrete
// values the interpreter computed).
func runInputs(t *testing.T, p *Program, in []program.InputValue) (*sym.Path, program.Outcome) {
	t.Helper()
	q := p.WithInputs(in).(*Program)
	x := q.Start()
	program.RunDefault(x)
	_, out := x.Done()
	path := x.(*execution).Concolic()
	env := func(v *sym.Var) int64 { return v.Norm(q.inputs[v.ID()]) }
	for i, c := range path.Constraints {
		if !c.Holds(env, nil) {
			t.Fatalf("constraint %d (%s at line %d) does not hold under the inputs %v: %s", i, c.What, c.Pos.Line, in, c.Key())
		}
	}
	return path, out
}

func TestConcolicShadow(t *testing.T) {
	p := loadSrc(t, `
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
int g; int a[4]; char c;
int f(int x) { return x * 3 + 1; }
int main(void) {
	int n = __VERIFIER_nondet_int();
	_Bool b = __VERIFIER_nondet_bool();
	unsigned char u = __VERIFIER_nondet_uchar();
	__VERIFIER_assume(n > 0 && n < 100);
	g = f(n);
	c = g;
	if (c == 7) { a[n & 3] = 1; }
	if (b) g = g / (u - 3);
	if ((short)u < 0 || u % 5 == 2) g = -g;
	int *p = &g;
	for (int i = 0; i < n && i < 3; i++) *p += i;
	assert(g != 1000);
	return 0;
}`)
	if !p.HasInputs() {
		t.Fatal("HasInputs is false")
	}
	for _, in := range [][]program.InputValue{
		nil,
		{{Thread: "0", K: 0, Value: 2}},
		{{Thread: "0", K: 0, Value: 2}, {Thread: "0", K: 1, Value: 5}, {Thread: "0", K: 2, Value: 3}},
		{{Thread: "0", K: 0, Value: 50}, {Thread: "0", K: 1, Value: 1}, {Thread: "0", K: 2, Value: 255}},
	} {
		path, out := runInputs(t, p, in)
		t.Logf("%v: %s %s, %d constraints, %d vars", in, out.Kind, out.Message, len(path.Constraints), len(path.Vars))
		if len(path.Vars) != 3 {
			t.Errorf("%d inputs read, want 3", len(path.Vars))
		}
	}
}
