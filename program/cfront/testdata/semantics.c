/* Single-threaded C semantics the interpreter must get right; every assert
   holds (the test also compiles and runs it with gcc when available). */
#include <assert.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdatomic.h>
#include <pthread.h>

struct point { int x, y; };
struct node { int val; struct node *next; };
struct table { struct point pts[3]; char name[8]; long total; };
enum color { RED, GREEN = 5, BLUE };
typedef struct point point_t;

int g = 7;
int garr[5] = {1, 2, 3};
struct table gtab = { { {1, 2}, {3, 4} }, "abc", 10 };
int *gp = &garr[2];
const char *msg = "hello";
static int counter;
unsigned char uc = 250;
signed char sc = -3;
short sh = -30000;
unsigned long ul = 18446744073709551615UL;
int (*fptr)(int);

static int twice(int v) { return 2 * v; }
static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
static void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
static int next_count(void) { static int calls = 100; return ++calls; }
static void set_point(point_t *p, int x, int y) { p->x = x; p->y = y; }
/* structs and unions by value */
union word { int i; long l; unsigned char b[8]; };
static struct point mkpoint(int x, int y) { struct point p; p.x = x; p.y = y; return p; }
static struct point addpoint(struct point a, struct point b) { a.x += b.x; a.y += b.y; return a; }
static int clobber(struct point p) { p.x = -1; return p.y; }
static struct table mktable(long total) { struct table t = gtab; t.total = total; t.pts[2] = mkpoint(5, 6); return t; }
static union word mkword(long v) { union word w; w.l = v; return w; }
/* parameters declared as arrays are pointers (C11 6.7.6.3p7) */
static int last_of(int a[], int n) { return a[n - 1]; }
static void set_first(int a[3]) { a[0] = 7; a++; a[0] = 8; }

int main(int argc, char *argv[])
{
	/* argv as an array parameter: { the program's name, NULL } */
	assert(argc == 1 && argv[0][0] != 0 && argv[1] == 0);
	char **argp = argv;
	assert(argp == argv && *argp == argv[0]);
	int arr3[3] = { 1, 2, 3 };
	assert(last_of(arr3, 3) == 3);
	set_first(arr3);
	assert(arr3[0] == 7 && arr3[1] == 8 && arr3[2] == 3);
	/* integer arithmetic, conversions, overflow wrap-around of unsigned types */
	assert(7 / 2 == 3 && -7 / 2 == -3 && -7 % 2 == -1 && 7 % -2 == 1);
	assert((unsigned)-1 == 4294967295u);
	assert(uc + 10 == 260);
	unsigned char c2 = uc + 10;
	assert(c2 == 4);
	assert(sc * 2 == -6 && sh - 1 == -30001);
	short s2 = (short)(sh - 10000);
	assert(s2 == 25536);
	assert(ul + 1 == 0 && ul > 0);
	assert(-1 < 0 && (unsigned)-1 > 0u);
	assert((1 << 10) == 1024 && (-16 >> 2) == -4 && (0x80000000u >> 31) == 1);
	assert((5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6 && ~0 == -1);
	assert((!0) == 1 && (!5) == 0);
	long long big = 1LL << 40;
	assert(big == 1099511627776LL);
	int i32 = (int)big;
	assert(i32 == 0);
	assert(sizeof(int) == 4 && sizeof(long) == 8 && sizeof(struct point) == 8 && sizeof(gtab) == 40);
	assert(GREEN == 5 && BLUE == 6 && RED == 0);
	/* logical operators short-circuit */
	int z = 0;
	assert((0 && (z = 1)) == 0 && z == 0);
	assert((1 || (z = 1)) == 1 && z == 0);
	assert((z ? 10 : 20) == 20);
	/* comma, compound assignment, increments */
	int a = 5;
	a += 3; a -= 1; a *= 2; a /= 3; a %= 3; a <<= 4; a >>= 1; a |= 1; a &= 7; a ^= 2;
	assert(a == 3);
	int b = a++;
	b += ++a;
	assert(b == 8 && a == 5);
	assert((a--, a) == 4);
	/* globals, initialisers, designated initialisers, strings */
	assert(g == 7 && garr[0] == 1 && garr[2] == 3 && garr[3] == 0 && *gp == 3);
	assert(gtab.pts[1].y == 4 && gtab.pts[2].x == 0 && gtab.name[1] == 'b' && gtab.name[3] == 0 && gtab.total == 10);
	assert(msg[4] == 'o' && msg[5] == 0);
	struct point lp = { .y = 9 };
	assert(lp.x == 0 && lp.y == 9);
	int larr[4] = { [2] = 5 };
	assert(larr[0] == 0 && larr[2] == 5 && larr[3] == 0);
	char lstr[] = "xy";
	assert(sizeof(lstr) == 3 && lstr[1] == 'y');
	/* pointers and arrays */
	int *p = garr;
	p += 2;
	assert(*p == 3 && p - garr == 2 && p[-1] == 2 && *(p + 1) == 0);
	assert(&garr[4] - &garr[1] == 3 && p > garr);
	swap(&garr[0], &garr[1]);
	assert(garr[0] == 2 && garr[1] == 1);
	assert(sum(garr, 5) == 6);
	int local = 1, other = 2;
	swap(&local, &other);
	assert(local == 2 && other == 1);
	/* structs, struct assignment, pointers to structs */
	point_t q;
	set_point(&q, 3, 4);
	struct point r = q;
	assert(r.x == 3 && r.y == 4);
	gtab.pts[2] = r;
	assert(gtab.pts[2].y == 4);
	struct point *pp = &gtab.pts[0];
	pp++;
	assert(pp->x == 3);
	/* heap, linked list */
	struct node *head = NULL;
	for (int k = 0; k < 4; k++) {
		struct node *n = malloc(sizeof *n);
		n->val = k;
		n->next = head;
		head = n;
	}
	int total = 0;
	for (struct node *n = head; n; n = n->next)
		total += n->val;
	assert(total == 6);
	int *zeros = calloc(4, sizeof(int));
	assert(zeros[3] == 0);
	free(zeros);
	while (head) {
		struct node *n = head->next;
		free(head);
		head = n;
	}
	/* functions, recursion, function pointers, static locals */
	fptr = twice;
	assert(fptr(21) == 42 && (*fptr)(2) == 4 && fact(6) == 720);
	assert(next_count() == 101 && next_count() == 102);
	/* control flow: loops, break, continue, switch with fall-through, goto */
	int acc = 0;
	for (int k = 0; k < 10; k++) {
		if (k == 2)
			continue;
		if (k == 6)
			break;
		acc += k;
	}
	assert(acc == 13);
	int w = 0;
	do { w++; } while (w < 5);
	assert(w == 5);
	int sw = 0;
	for (int k = 0; k < 4; k++) {
		switch (k) {
		case 0: sw += 1;
		case 1: sw += 10; break;
		case 2: sw += 100; break;
		default: sw += 1000;
		}
	}
	assert(sw == 1121);
	int gt = 0;
again:
	gt++;
	if (gt < 3)
		goto again;
	assert(gt == 3);
	/* atomics on globals and locals */
	atomic_int ai;
	atomic_init(&ai, 1);
	assert(atomic_fetch_add(&ai, 2) == 1 && atomic_load(&ai) == 3);
	int expected = 3;
	assert(atomic_compare_exchange_strong(&ai, &expected, 10) && atomic_load(&ai) == 10);
	assert(!atomic_compare_exchange_strong(&ai, &expected, 11) && expected == 10);
	assert(atomic_exchange(&ai, 4) == 10 && atomic_load(&ai) == 4);
	assert(__sync_fetch_and_add(&counter, 5) == 0 && __sync_add_and_fetch(&counter, 1) == 6);
	assert(__sync_bool_compare_and_swap(&counter, 6, 7) && counter == 7);
	assert(__atomic_load_n(&counter, __ATOMIC_SEQ_CST) == 7);
	/* structs and unions by value */
	struct point sp = mkpoint(1, 2);
	assert(sp.x == 1 && sp.y == 2);
	sp = addpoint(sp, mkpoint(10, 20));
	assert(sp.x == 11 && sp.y == 22);
	assert(mkpoint(3, 4).y == 4 && addpoint(mkpoint(1, 1), sp).x == 12);
	assert(clobber(sp) == 22 && sp.x == 11);
	struct table st = mktable(99);
	assert(st.total == 99 && st.pts[1].x == 3 && st.pts[2].y == 6 && st.name[1] == 'b' && gtab.total == 10);
	assert(mktable(1).pts[0].y == 2);
	union word uw = mkword(0x0102030405060708L);
	assert(uw.b[0] == 8 && uw.i == 0x05060708 && mkword(-1).i == -1);
	struct point (*mkp)(int, int) = mkpoint;
	assert(mkp(7, 8).x == 7);
	/* mutexes */
	pthread_mutex_t m;
	pthread_mutex_init(&m, NULL);
	pthread_mutex_lock(&m);
	assert(pthread_mutex_trylock(&m) != 0);
	pthread_mutex_unlock(&m);
	assert(pthread_mutex_trylock(&m) == 0);
	pthread_mutex_unlock(&m);
	/* GNU statement expressions: the last expression statement is the value */
	struct node sn = { 7, NULL };
	int *sv = &sn.val;
	struct node *back = ({ char *c0 = (char *)sv; (struct node *)(c0 - __builtin_offsetof(struct node, val)); });
	assert(back == &sn && back->val == 7);
	int se = ({ int a0 = 2; int b0 = a0 * 21; b0; });
	assert(se == 42);
	assert(({ int k0 = 0; for (int i0 = 0; i0 < 4; i0++) k0 += i0; k0; }) == 6);
	({ se++; });
	assert(se == 43);
	return 0;
}
