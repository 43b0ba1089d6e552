package cfront

import (
	"regexp"
	"strings"

	"mcr/program"
	"modernc.org/cc/v4"
)

// This file holds the C library functions mcr runs as C code: <string.h>'s
// mem* and str* functions, atoi/atol and abs/labs/llabs. They are written
// in C below (libcSource, one more source of every translation unit, before
// the program, whose macros must not rewrite it) under the names __mcr_NAME, and a call of NAME that the
// program does not define calls __mcr_NAME instead (compiler.call); a
// program's own definition of NAME wins. Running them as C gives them the
// semantics of every other access: each byte they read or write of shared
// memory is an event (a byte-wise memcpy, as a simple libc's; races on
// the bytes are races), an access outside an object is the program's
// runtime error, and their loops are bounded like the program's.
//
// Their code has no positions: an event or error inside them is placed at
// the program's call (execution.pos), where a report, a replay and a
// witness can show it.
//
// Only functions whose result is fully determined by memory are here,
// and ftw/nftw with one of their behaviours (libcPartial);
// formatted I/O (sprintf) and locale-dependent ones are not; sscanf is
// sscanf.go's.

// A translation unit has the library only if the program's text or -D
// definitions name one of its functions (mentionsLibc): parsing and
// checking it is about a sixth of the load of a small program (issue 17).
// A call the text does not show (a macro of a quoted or system header)
// makes the compiler bail out with errNeedLibc, and the program is
// compiled again with the library. Without it, placeholders take the ids
// its functions take (placeLibc), so that every other object has the same
// id, and every pointer the same value, either way.

// errNeedLibc is the compiler's bail-out for a call of a library function
// when the translation unit was built without the library.
var errNeedLibc = &compileError{msg: "a library function needs the C library source"}

// libcWords matches a name of the library in a program's text.
var libcWords = func() *regexp.Regexp {
	var names []string
	for n := range libcFuncs {
		names = append(names, n)
	}
	return regexp.MustCompile(`\b(__mcr_\w+|` + strings.Join(names, "|") + `)\b`)
}()

// mentionsLibc reports whether src or a -D definition names a library
// function (or a __mcr_ name).
func mentionsLibc(src []byte, defines []string) bool {
	if libcWords.Match(src) {
		return true
	}
	for _, d := range defines {
		if libcWords.MatchString(d) {
			return true
		}
	}
	return false
}

// libcOrder is the library's functions in the order of their definitions
// in libcSource and sscanfSource (load.go joins them): the order in which
// they take static ids.
var libcOrder = func() []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^\S[^\n]*?\b(__mcr_\w+)\(`).FindAllStringSubmatch(libcSource+sscanfSource, -1) {
		out = append(out, m[1])
	}
	return out
}()

// placeLibc adds, when the translation unit has no library, a placeholder
// static for each of its functions where the library's definitions would
// be: before the first external declaration that is not cc/v4's builtin
// declarations. Nothing can name them (the library's names are only
// reached through calls, which then need the library).
func (c *compiler) placeLibc(ed *cc.ExternalDeclaration) {
	if !c.noLibc || c.libcPlaced || ed.Position().Filename == "<builtin>" {
		return
	}
	c.libcPlaced = true
	for _, name := range libcOrder {
		c.addStatic(&static{name: name, kind: kFunc, fn: &function{name: name, entry: -1}})
	}
}

// pos is the source position of th's current instruction; inside a
// library function, whose code has none, the position of the call that
// entered the library from the program.
func (x *execution) pos(th *thread) program.Pos {
	p := x.p.code[th.pc].pos
	for i := len(th.frames) - 1; p.Line == 0 && i > 0 && th.frames[i].fn.lib; i-- {
		p = x.p.code[th.frames[i].retPC-1].pos
	}
	return p
}

// libcFuncs are the library functions libcSource defines (as __mcr_NAME).
var libcFuncs = map[string]bool{
	"memset": true, "memcpy": true, "memmove": true, "memcmp": true, "memchr": true, "bzero": true,
	"strlen": true, "strnlen": true, "strcpy": true, "strncpy": true, "strcat": true, "strncat": true,
	"strcmp": true, "strncmp": true, "strchr": true, "strrchr": true, "strstr": true,
	"atoi": true, "atol": true, "atoll": true, "abs": true, "labs": true, "llabs": true,
	"ftw": true, "nftw": true,
}

// libcPartial are the models of libcSource that run one of the function's
// behaviours, not all: a call notes it (the execution is Unmodelled: no
// TRUE; what it finds happens).
var libcPartial = map[string]string{
	"ftw":  "ftw is taken as calling its function once, for the directory itself (FTW_D, the stat buffer indeterminate); the entries below it are not explored",
	"nftw": "nftw is taken as calling its function once, for the directory itself (FTW_D, the stat buffer indeterminate); the entries below it are not explored",
}

const libcSource = `
typedef unsigned long __mcr_size_t;
void *__mcr_memset(void *s, int c, __mcr_size_t n) {
	unsigned char *p = s;
	for (__mcr_size_t i = 0; i < n; i++) p[i] = (unsigned char)c;
	return s;
}
void __mcr_bzero(void *s, __mcr_size_t n) { __mcr_memset(s, 0, n); }
void *__mcr_memcpy(void *d, const void *s, __mcr_size_t n) {
	unsigned char *q = d;
	const unsigned char *p = s;
	for (__mcr_size_t i = 0; i < n; i++) q[i] = p[i];
	return d;
}
void *__mcr_memmove(void *d, const void *s, __mcr_size_t n) {
	unsigned char *q = d;
	const unsigned char *p = s;
	if ((unsigned long)q < (unsigned long)p)
		for (__mcr_size_t i = 0; i < n; i++) q[i] = p[i];
	else
		for (__mcr_size_t i = n; i > 0; i--) q[i-1] = p[i-1];
	return d;
}
int __mcr_memcmp(const void *a, const void *b, __mcr_size_t n) {
	const unsigned char *p = a, *q = b;
	for (__mcr_size_t i = 0; i < n; i++)
		if (p[i] != q[i]) return p[i] < q[i] ? -1 : 1;
	return 0;
}
void *__mcr_memchr(const void *s, int c, __mcr_size_t n) {
	const unsigned char *p = s;
	for (__mcr_size_t i = 0; i < n; i++)
		if (p[i] == (unsigned char)c) return (void *)(p + i);
	return 0;
}
__mcr_size_t __mcr_strlen(const char *s) {
	__mcr_size_t n = 0;
	while (s[n]) n++;
	return n;
}
__mcr_size_t __mcr_strnlen(const char *s, __mcr_size_t max) {
	__mcr_size_t n = 0;
	while (n < max && s[n]) n++;
	return n;
}
char *__mcr_strcpy(char *d, const char *s) {
	__mcr_size_t i = 0;
	while ((d[i] = s[i]) != 0) i++;
	return d;
}
char *__mcr_strncpy(char *d, const char *s, __mcr_size_t n) {
	__mcr_size_t i = 0;
	for (; i < n && s[i]; i++) d[i] = s[i];
	for (; i < n; i++) d[i] = 0;
	return d;
}
char *__mcr_strcat(char *d, const char *s) {
	__mcr_strcpy(d + __mcr_strlen(d), s);
	return d;
}
char *__mcr_strncat(char *d, const char *s, __mcr_size_t n) {
	char *e = d + __mcr_strlen(d);
	__mcr_size_t i = 0;
	for (; i < n && s[i]; i++) e[i] = s[i];
	e[i] = 0;
	return d;
}
int __mcr_strcmp(const char *a, const char *b) {
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
	while (*p && *p == *q) p++, q++;
	return *p < *q ? -1 : *p > *q;
}
int __mcr_strncmp(const char *a, const char *b, __mcr_size_t n) {
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
	for (__mcr_size_t i = 0; i < n; i++) {
		if (p[i] != q[i]) return p[i] < q[i] ? -1 : 1;
		if (!p[i]) return 0;
	}
	return 0;
}
char *__mcr_strchr(const char *s, int c) {
	for (;; s++) {
		if (*s == (char)c) return (char *)s;
		if (!*s) return 0;
	}
}
char *__mcr_strrchr(const char *s, int c) {
	const char *r = 0;
	for (;; s++) {
		if (*s == (char)c) r = s;
		if (!*s) return (char *)r;
	}
}
char *__mcr_strstr(const char *h, const char *n) {
	__mcr_size_t k = __mcr_strlen(n);
	for (; *h; h++)
		if (__mcr_strncmp(h, n, k) == 0) return (char *)h;
	return k == 0 ? (char *)h : 0;
}
long long __mcr_atoll(const char *s) {
	while (*s == ' ' || (*s >= '\t' && *s <= '\r')) s++;
	int neg = *s == '-';
	if (*s == '-' || *s == '+') s++;
	long long v = 0;
	while (*s >= '0' && *s <= '9') v = v * 10 - (*s++ - '0');
	return neg ? v : -v;
}
long __mcr_atol(const char *s) { return __mcr_atoll(s); }
int __mcr_atoi(const char *s) { return (int)__mcr_atoll(s); }
int __mcr_abs(int x) { return x < 0 ? -x : x; }
long __mcr_labs(long x) { return x < 0 ? -x : x; }
long long __mcr_llabs(long long x) { return x < 0 ? -x : x; }
int __mcr_ftw(const char *dir, int (*fn)(const char *, const void *, int), int nopenfd) {
	unsigned char st[256];
	return fn(dir, st, 1);
}
int __mcr_nftw(const char *dir, int (*fn)(const char *, const void *, int, void *), int nopenfd, int flags) {
	unsigned char st[256];
	int pos[2] = {0, 0};
	return fn(dir, st, 1, pos);
}
`
