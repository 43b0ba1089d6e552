package cfront

import (
	"strings"

	"modernc.org/cc/v4"
)

// This file models sscanf (C11 7.21.6.7, 7.21.6.2) on the string the
// program passes: the string is memory of the program, known in every
// execution (a literal, a buffer it filled, argv[0]), so sscanf is run, not
// guessed: __mcr_sscanf below is C in the library source (libc.go), and a
// call sscanf(s, fmt, p...) with a literal format calls it with the
// pointers padded to eight. Each byte it reads of shared memory is an event,
// as atoi's are, and its stores are the program's writes.
//
// The format must be literal and hold only the conversions d i u o x X
// (with hh h l ll j z t), c, s, %% and %*..., with one pointer per
// assigning conversion of the size its modifier names (an integer of that
// size, a char array for c and s); any other call (%[, %n, %p, floats, a
// computed format, more than eight pointers, a pointer of another size)
// is left unmodelled and ends its execution when reached (compiler.call).
//
// It follows glibc where C leaves a choice (checked against gcc's sscanf
// on 60 cases): an input failure (the string ends) before any assignment
// returns EOF even after a suppressed conversion; "0x" without hex digits
// reads 0; a value beyond 64 bits saturates (strtol, strtoul) and is then
// cut to the object's size; %c with a width copies what is left.
const sscanfSource = `
int __mcr_scan_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
int __mcr_scan_digit(int c) {
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return 99;
}
int __mcr_sscanf(const char *str, const char *f, void *p0, void *p1, void *p2, void *p3, void *p4, void *p5, void *p6, void *p7) {
	void *ps[8] = {p0, p1, p2, p3, p4, p5, p6, p7};
	const unsigned char *in = (const unsigned char *)str;
	int np = 0, done = 0;
	for (; *f; f++) {
		if (__mcr_scan_space(*f)) {
			while (__mcr_scan_space(*in)) in++;
			continue;
		}
		if (*f != '%') {
			if (!*in) return done ? done : -1;
			if (*in != (unsigned char)*f) return done;
			in++;
			continue;
		}
		f++;
		int suppress = 0, width = 0, size = 4;
		if (*f == '*') { suppress = 1; f++; }
		while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
		if (*f == 'h') { size = 2; f++; if (*f == 'h') { size = 1; f++; } }
		else if (*f == 'l') { size = 8; f++; if (*f == 'l') f++; }
		else if (*f == 'j' || *f == 'z' || *f == 't') { size = 8; f++; }
		char conv = *f;
		if (conv != 'c') {
			while (__mcr_scan_space(*in)) in++;
		}
		if (!*in) return done ? done : -1;
		int max = width ? width : 0x7fffffff;
		if (conv == '%') {
			if (*in != '%') return done;
			in++;
			continue;
		}
		if (conv == 'c' || conv == 's') {
			char *d = suppress ? 0 : ps[np++];
			if (conv == 'c' && !width) max = 1;
			int n = 0;
			for (; n < max && in[n] && (conv == 'c' || !__mcr_scan_space(in[n])); n++)
				if (d) d[n] = in[n];
			if (d && conv == 's') d[n] = 0;
			in += n;
			if (!suppress) done++;
			continue;
		}
		int base = conv == 'o' ? 8 : conv == 'x' || conv == 'X' ? 16 : conv == 'i' ? 0 : 10;
		int n = 0, neg = 0, digits = 0, over = 0;
		unsigned long long v = 0;
		if (n < max && (in[n] == '-' || in[n] == '+')) { neg = in[n] == '-'; n++; }
		if ((base == 16 || base == 0) && n < max && in[n] == '0') {
			n++;
			digits = 1;
			if (n < max && (in[n] == 'x' || in[n] == 'X')) { n++; base = 16; }
			else if (base == 0) base = 8;
		}
		if (base == 0) base = 10;
		for (; n < max; n++) {
			int d = __mcr_scan_digit(in[n]);
			if (d >= base) break;
			if (v > (~0ULL - d) / base) over = 1;
			else v = v * base + d;
			digits = 1;
		}
		if (!digits) return done;
		in += n;
		if (conv == 'd' || conv == 'i') {
			if (neg) v = over || v > 0x8000000000000000ULL ? 0x8000000000000000ULL : -v;
			else if (over || v > 0x7fffffffffffffffULL) v = 0x7fffffffffffffffULL;
		} else if (over) v = ~0ULL;
		else if (neg) v = -v;
		if (suppress) continue;
		void *p = ps[np++];
		if (size == 1) *(unsigned char *)p = v;
		else if (size == 2) *(unsigned short *)p = v;
		else if (size == 4) *(unsigned *)p = v;
		else *(unsigned long long *)p = v;
		done++;
	}
	return done;
}
`

// sscanfCall compiles sscanf into a call of __mcr_sscanf; false if it is
// another call, the program defines sscanf, or the call is beyond the
// model (it then stays unmodelled).
func (c *compiler) sscanfCall(x *cc.PostfixExpression, name string, as []cc.ExpressionNode) bool {
	if name != "sscanf" || len(as) < 2 || len(as) > 10 {
		return false
	}
	if own := c.funcs[name]; own != nil && own.defined {
		return false
	}
	lib := c.funcs["__mcr_sscanf"]
	if (lib == nil || !lib.defined) && c.noLibc {
		panic(bail{errNeedLibc}) // compiled again with the library (load.go)
	}
	if lib == nil || !lib.defined {
		return false
	}
	fv, ok := as[1].Value().(cc.StringValue)
	if !ok {
		return false
	}
	sizes, ok := sscanfConversions(strings.TrimSuffix(string(fv), "\x00"))
	if !ok || len(sizes) != len(as)-2 {
		return false
	}
	for i, a := range as[2:] {
		et := pointee(c.rtype(a))
		if et == nil || !cc.IsIntegerType(et) || et.Size() != sizes[i] {
			return false
		}
	}
	c.need(lib)
	for _, a := range as {
		c.expr(a)
	}
	for range 10 - len(as) {
		c.push(0)
	}
	c.emit(instr{op: opCall, a: c.funcIndex(lib), k: 10, pos: toPos(x)})
	return true
}

// sscanfConversions returns, per assigning conversion of a sscanf format,
// the size of the object it stores (1 for the chars of c and s); ok is
// false if the format has anything __mcr_sscanf does not run.
func sscanfConversions(f string) (sizes []int64, ok bool) {
	specs, ok := scanSpecs(f)
	if !ok {
		return nil, false
	}
	lengths := map[string]int64{"": 4, "hh": 1, "h": 2, "ll": 8, "l": 8, "j": 8, "z": 8, "t": 8}
	for _, sp := range specs {
		size, ok := lengths[sp.length]
		if !ok {
			return nil, false
		}
		switch sp.conv {
		case 'd', 'i', 'u', 'o', 'x', 'X':
		case 'c', 's':
			if size != 4 {
				return nil, false // %lc, %ls: wide characters
			}
			size = 1
		default:
			return nil, false
		}
		if !sp.suppress {
			sizes = append(sizes, size)
		}
	}
	return sizes, true
}
