/* Floating-point C semantics the interpreter must get right (C11 Annex F,
   gcc on x86-64 with FLT_EVAL_METHOD 0); every assert holds (the test also
   compiles and runs it with gcc). Values are written so that no assert
   depends on the 80-bit long double, which mcr computes as double. */
#include <assert.h>
#include <math.h>
#include <stdatomic.h>
int printf(const char *, ...);

double g = 1.5;
float gf = 0.1f;
double gz;
struct rec { int a; double d; float f; long double ld; };
struct rec grec = { 1, 2.5, 3.25f, 4.0L };
double garr[3] = { 1.0, 2.0, 3.0 };
float gfarr[2] = { 1e-45f, 3.4028235e38f };
union pun { float f; unsigned u; double d; unsigned long long ul; };
_Atomic double ad = 1.5;

static double half(double x) { return x / 2; }
static float addf(float a, float b) { return a + b; }
static struct rec scale(struct rec r, double k) { r.d *= k; r.f *= k; return r; }
static double sum(const double *a, int n) { double s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
static int classify(double x) { return fpclassify(x); }
typedef double (*mixer)(double, float);
static double mix(double a, float b) { return a * b; }
struct { float x; double y; } pts[2] = { { 1.5f, 2.5 }, { 3.5f, 4.5 } };

int main(void)
{
	double zero = gz;
	/* constants, rounding of float and double */
	assert(g * 2 == 3.0);
	assert(gf + 0.2f != 0.3);
	assert(0.1f + 0.2f == 0.3f);
	assert(0.1 + 0.2 != 0.3);
	assert((float)0.1 != 0.1);
	assert(0x1.8p1 == 3.0 && 1e3 == 1000 && .5 == 0.5 && 5. == 5);
	assert(sizeof(float) == 4 && sizeof(double) == 8);
	float f = 16777217;
	assert(f == 16777216.0f);
	long long big = 9007199254740993LL;
	double bd = big;
	assert(bd == 9007199254740992.0);
	assert((float)big == 9007199254740992.0f);
	assert(gfarr[0] > 0 && gfarr[0] / 2 == 0);
	assert(gfarr[1] * 2 > 3.5e38 && isinf(gfarr[1] * 2));
	assert((double)gfarr[1] * 2 < 1e39);
	/* conversions to integers truncate toward zero */
	assert((int)2.9 == 2 && (int)-2.9 == -2 && (int)0.99f == 0);
	assert((unsigned char)255.5 == 255 && (long)-1e18 == -1000000000000000000L);
	unsigned u = 3000000000.0;
	assert(u == 3000000000u);
	unsigned long long ull = 1.8e19;
	assert(ull == 18000000000000000000ULL);
	assert((double)ull == 1.8e19);
	assert((double)-1 == -1.0 && (float)(unsigned)-1 == 4294967296.0f);
	int i = 7;
	i += 0.9;
	assert(i == 7);
	i *= 1.5;
	assert(i == 10);
	_Bool b = 0.5;
	assert(b);
	b = -0.0;
	assert(!b);
	/* arithmetic and compound assignment */
	double x = 1;
	x += 0.5;
	x *= 2;
	x -= 1;
	x /= 4;
	assert(x == 0.5);
	x++;
	++x;
	x--;
	assert(x == 1.5);
	float fx = 0.1f;
	fx *= 3;
	assert(fx == 0.3f + 0.0f * fx || fx != 0.3f);
	assert(fx == (float)(0.1f * 3));
	assert(half(3) == 1.5 && addf(1.5f, 2.25f) == 3.75f);
	assert(sum(garr, 3) == 6 && garr[1] * garr[2] == 6);
	assert(grec.d + grec.f + grec.ld == 9.75);
	struct rec r = scale(grec, 2);
	assert(r.d == 5 && r.f == 6.5f && r.a == 1 && grec.d == 2.5);
	assert(-g == -1.5 && +g == 1.5 && - -g == g);
	assert(7.0 / 2 == 3.5 && 7 / 2 == 3);
	assert(1e308 * 10 > 1e308);
	/* IEEE special values: division by zero is no error (Annex F.9) */
	assert(1.0 / zero > 1e308 && -1.0 / zero < -1e308);
	double nan = zero / zero;
	assert(nan != nan);
	assert(!(nan == nan) && !(nan < 1) && !(nan > 1) && !(nan <= nan) && !(nan >= nan));
	assert(nan ? 1 : 0);
	assert(-0.0 == 0.0 && 1 / -0.0 < 0 && 1 / -zero < 0 && 1 / (0.0 - 0.0) > 0);
	assert(isnan(nan) && !isnan(1.0) && isinf(1 / zero) && isinf(-1 / zero) < 0 && !isinf(nan));
	assert(isfinite(1.0) && !isfinite(nan) && signbit(-0.0) && !signbit(0.0));
	assert(classify(nan) == FP_NAN && classify(1 / zero) == FP_INFINITE && classify(1.0) == FP_NORMAL);
	assert(classify(0x1p-1074) == FP_SUBNORMAL && classify(-0.0) == FP_ZERO && isnormal(1.0f) && !isnormal(0x1p-149f));
	assert(INFINITY > 1e308 && HUGE_VAL == INFINITY && isnan(NAN));
	/* bit patterns: -0.0 and +0.0 differ in memory, a NaN equals itself */
	union pun p;
	p.f = -0.0f;
	assert(p.u == 0x80000000u);
	p.f = 1.0f;
	assert(p.u == 0x3f800000u);
	p.d = -2.0;
	assert(p.ul == 0xc000000000000000ULL);
	p.u = 0x7fc00000u;
	assert(p.f != p.f);
	/* libm functions mcr computes exactly */
	assert(sqrt(2.0) * sqrt(2.0) != 2.0 && sqrt(16.0) == 4 && sqrtf(2.0f) == 1.41421354f);
	assert(fabs(-3.5) == 3.5 && fabsf(-0.5f) == 0.5f && floor(-1.5) == -2 && ceil(-1.5) == -1);
	assert(trunc(-2.7) == -2 && round(2.5) == 3 && round(-2.5) == -3 && roundf(0.49999997f) == 0);
	assert(fmin(1, nan) == 1 && fmax(nan, 2) == 2 && fmin(-1, 2) == -1 && fmod(7.5, 2) == 1.5);
	assert(copysign(3, -0.0) == -3 && isnan(sqrt(-1.0)));
	/* conditions and comparisons mix integers and floats */
	int k = 0;
	if (0.0)
		k = 9;
	if (-0.0f)
		k = 9;
	assert(k == 0);
	for (double d = 0; d < 1; d += 0.25)
		k++;
	assert(k == 4);
	assert((3 > 2.5) == 1 && (2u < 2.5f) && (-1 < 0.0));
	assert(0.5 && !0.0 && (0.0 || 0.1));
	/* constant expressions folded at float precision, as gcc */
	assert((1.0f / 3.0f == 1.0 / 3.0) == 0 && (0.1f * 3 == 0.3f) == 1 && (int)(0.1f * 3 * 10) == 3);
	int c2 = (0.1 + 0.7) * 10;
	assert(c2 == 7);
	/* function pointers, arrays and members through pointers */
	mixer mf = mix;
	assert(mf(2, 1.5f) == 3);
	double *pd = &pts[1].y;
	*pd /= 3;
	assert(pts[1].y == 1.5 && pts[1].x + pts[0].y == 6);
	float *pf = &pts[0].x;
	(*pf)++;
	assert(pts[0].x == 2.5f);
	/* integer limits */
	unsigned long long umax = 18446744073709551615ULL;
	assert((double)umax == 18446744073709551616.0 && (float)umax == 18446744073709551616.0f);
	long long lmin = -9223372036854775807LL - 1;
	assert((double)lmin == -9223372036854775808.0 && (long long)-9223372036854775808.0 == lmin);
	assert((unsigned long long)9223372036854775808.0 == 9223372036854775808ULL);
	short sh = -32768.9;
	assert(sh == -32768 && (char)('a' + 0.9) == 'a');
	/* subnormals and underflow */
	double sub = 1e-320;
	assert(sub > 0 && sub * 1e-10 == 0 && sub / 2 > 0);
	float ftiny = 1e-38f;
	assert(ftiny / 1e10f == 0 && ftiny / 1e5f > 0);
	/* an atomic double: plain accesses, store and compare-exchange on its bits */
	assert(ad == 1.5);
	atomic_store(&ad, 3.25);
	double expected = 3.25;
	assert(atomic_compare_exchange_strong(&ad, &expected, 4.0) && ad == 4.0);
	expected = 1.0;
	assert(!atomic_compare_exchange_strong(&ad, &expected, 5.0) && expected == 4.0);
	ad += 0.5;
	assert(ad == 4.5);
	printf("%f %g\n", x, fx);
	return 0;
}
