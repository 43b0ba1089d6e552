/* Bit-field semantics the interpreter must get right (gcc on x86-64: the
   System V layout, plain int bit-fields signed); every assert holds (the
   test also compiles and runs it with gcc). Narrow unsigned bit-fields are
   only compared with == and != or cast, since gcc promotes them to int and
   the other operators on them are refused. */
#include <assert.h>

struct bf { unsigned a : 3; int b : 4; unsigned c : 9; };
struct span { unsigned lo : 6; unsigned mid : 7; unsigned hi : 3; };
struct zw { char a : 3; int : 0; char b : 3; };
struct mixed { int n; unsigned short s : 5; signed char t : 3; long l; };
struct flags { _Bool f : 1; unsigned char k : 2; unsigned full : 32; };
struct outer { char tag; struct bf in; };
struct g3 { int a : 7, b : 2, c : 1; };
struct un { int : 3; int b : 2; };

struct bf gb = { 5, -3, 300 };
struct span gs = { .hi = 6, .lo = 33 };
struct g3 gg3 = { -5, 1, -1 };
struct un gun = { 1 };

static struct bf twice(struct bf x) { x.a = (int)x.a * 2; x.b = x.b * 2; return x; }
static int getb(const struct bf *p) { return p->b; }

int main(void)
{
	struct bf b = { 1, 2, 3 };
	struct span s;
	struct mixed m = { .s = 31, .t = -4, .l = 7, .n = 9 };
	struct flags fl = { 0 };
	struct outer o = { 'x', { 7, 7, 511 } };
	/* layout */
	assert(sizeof(struct bf) == 4);
	assert(sizeof(struct span) == 4);
	assert(sizeof(struct zw) == 5);
	assert(sizeof(struct mixed) == 16);
	assert(sizeof(struct flags) == 8);
	assert(sizeof(struct outer) == 8);
	/* initialisers */
	assert(b.a == 1 && b.b == 2 && b.c == 3);
	assert(gb.a == 5 && gb.b == -3 && gb.c == 300);
	assert(gs.lo == 33 && gs.mid == 0 && gs.hi == 6);
	assert(m.n == 9 && m.s == 31 && m.t == -4 && m.l == 7);
	assert(o.tag == 'x' && o.in.a == 7 && o.in.b == 7 && o.in.c == 511);
	assert(gg3.a == -5 && gg3.b == 1 && gg3.c == -1);
	assert(gun.b == 1 && sizeof(struct un) == 4);
	struct g3 l3 = { -5, 1, -1 };
	l3.b = -2;
	assert(l3.b == -2 && l3.a == -5 && l3.c == -1);
	/* unsigned wraparound at the width, signed sign extension */
	b.a = 9;
	assert(b.a == 1);
	b.a = -1;
	assert(b.a == 7);
	b.b = 7;
	assert(b.b == 7);
	b.b = 8;
	assert(b.b == -8);
	b.b = -3;
	assert(b.b == -3 && b.b < 0);
	assert((int)b.a + b.b == 4);
	assert((b.c = 1023) == 511);
	assert((b.b = 9) == -7);
	/* neighbours are untouched */
	assert(b.a == 7 && b.c == 511);
	/* compound assignment, ++ and -- */
	b.b = 6;
	b.b += 3;
	assert(b.b == -7);
	b.a = 6;
	b.a += 3;
	assert(b.a == 1);
	b.c *= 2;
	assert(b.c == 510);
	b.c |= 1;
	assert(b.c == 511);
	b.a = 7;
	b.a++;
	assert(b.a == 0);
	b.a--;
	assert(b.a == 7);
	assert(b.a-- == 7 && b.a == 6);
	assert(++b.b == -6);
	b.b = 7;
	assert(b.b++ == 7 && b.b == -8);
	b.b >>= 1;
	assert(b.b == -4);
	/* a field spanning a byte boundary */
	s.lo = 63;
	s.mid = 100;
	s.hi = 5;
	assert(s.lo == 63 && s.mid == 100 && s.hi == 5);
	s.mid = 129;
	assert(s.mid == 1 && s.lo == 63 && s.hi == 5);
	assert(((unsigned char *)&s)[0] == 0x7f && ((unsigned char *)&s)[1] == 0xa0);
	/* zero-width bit-field: b starts a new int unit */
	struct zw z = { 3, -1 };
	assert(z.a == 3 && z.b == -1);
	assert(((unsigned char *)&z)[4] == 7);
	/* _Bool and a full-width field */
	fl.f = 5;
	assert(fl.f == 1);
	fl.k = 7;
	assert(fl.k == 3);
	fl.full = 4000000000u;
	assert(fl.full == 4000000000u && fl.full > 3000000000u);
	/* copies and calls */
	struct bf c2 = twice(gb);
	assert(c2.a == 2 && c2.b == -6 && c2.c == 300);
	assert(getb(&gb) == -3);
	o.in = c2;
	assert(o.in.a == 2 && o.in.c == 300 && o.tag == 'x');
	struct bf *p = &o.in;
	p->b = -1;
	assert(p->b == -1 && o.in.b == -1);
	return 0;
}
