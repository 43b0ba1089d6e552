/*
 * sscanf semantics (sscanf.go): every call on a constant string, with the
 * result and the objects glibc gives (TestSemantics builds this file with
 * gcc too and runs its asserts). EOF before any assignment, matching
 * failures, widths, bases (%i, 0x), signs on unsigned conversions,
 * truncation to the object and saturation beyond 64 bits, %c, %s, %%.
 */
#include <stdio.h>
#include <assert.h>
#include <string.h>
int a, b; unsigned u; long l; short h; signed char hh; char s[16], c[4]; long long ll; int r;
void reset(void) { a = b = -77; u = 0; l = 0; h = 0; hh = 0; ll = 0; s[0] = '#'; s[1] = 0; c[0] = c[1] = c[2] = '#'; c[3] = 0; }
void check(int R, int A, int B, unsigned U, long L, int H, int HH, long long LL, const char *S, const char *C) {
  assert(r == R);
  assert(a == A);
  assert(b == B);
  assert(u == U);
  assert(l == L);
  assert(h == H);
  assert(hh == HH);
  assert(ll == LL);
  assert(strcmp(s, S) == 0);
  assert(strcmp(c, C) == 0);
}
int main(void) {
  reset(); r = sscanf("", "%d", &a); check(-1, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 0 */
  reset(); r = sscanf("  ", "%d", &a); check(-1, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 1 */
  reset(); r = sscanf("abc", "%d", &a); check(0, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 2 */
  reset(); r = sscanf("12", "%d %d", &a, &b); check(1, 12, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 3 */
  reset(); r = sscanf("5", "%*d %d", &a); check(-1, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 4 */
  reset(); r = sscanf("-", "%d", &a); check(0, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 5 */
  reset(); r = sscanf("+", "%d", &a); check(0, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 6 */
  reset(); r = sscanf("- 5", "%d", &a); check(0, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 7 */
  reset(); r = sscanf("-12abc", "%d", &a); check(1, -12, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 8 */
  reset(); r = sscanf("  42", "%d", &a); check(1, 42, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 9 */
  reset(); r = sscanf("0x1f", "%x", &a); check(1, 31, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 10 */
  reset(); r = sscanf("0x", "%x", &a); check(1, 0, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 11 */
  reset(); r = sscanf("0xg", "%x", &a); check(1, 0, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 12 */
  reset(); r = sscanf("ff", "%x", &a); check(1, 255, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 13 */
  reset(); r = sscanf("-ff", "%x", &a); check(1, -255, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 14 */
  reset(); r = sscanf("0X1F", "%X", &a); check(1, 31, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 15 */
  reset(); r = sscanf("010", "%i", &a); check(1, 8, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 16 */
  reset(); r = sscanf("0x10", "%i", &a); check(1, 16, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 17 */
  reset(); r = sscanf("-0x10", "%i", &a); check(1, -16, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 18 */
  reset(); r = sscanf("08", "%i", &a); check(1, 0, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 19 */
  reset(); r = sscanf("12345", "%3d%d", &a, &b); check(2, 123, 45, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 20 */
  reset(); r = sscanf("99999999999", "%d", &a); check(1, 1215752191, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 21 */
  reset(); r = sscanf("a=5", "a=%d", &a); check(1, 5, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 22 */
  reset(); r = sscanf("b=5", "a=%d", &a); check(0, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 23 */
  reset(); r = sscanf("a", "a=%d", &a); check(-1, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 24 */
  reset(); r = sscanf("a=", "a=%d", &a); check(-1, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 25 */
  reset(); r = sscanf("1,2", "%d,%d", &a, &b); check(2, 1, 2, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 26 */
  reset(); r = sscanf("1 ,2", "%d ,%d", &a, &b); check(2, 1, 2, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 27 */
  reset(); r = sscanf("1 ,2", "%d,%d", &a, &b); check(1, 1, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 28 */
  reset(); r = sscanf("x", "%c", c); check(1, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "x##"); /* case 29 */
  reset(); r = sscanf(" x", "%c", c); check(1, -77, -77, 0u, 0L, 0, 0, 0LL, "#", " ##"); /* case 30 */
  reset(); r = sscanf("", "%c", c); check(-1, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 31 */
  reset(); r = sscanf("ab", "%3c", c); check(1, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "ab#"); /* case 32 */
  reset(); r = sscanf("hello world", "%s", s); check(1, -77, -77, 0u, 0L, 0, 0, 0LL, "hello", "###"); /* case 33 */
  reset(); r = sscanf("  hi", "%s", s); check(1, -77, -77, 0u, 0L, 0, 0, 0LL, "hi", "###"); /* case 34 */
  reset(); r = sscanf("abcdef", "%3s", s); check(1, -77, -77, 0u, 0L, 0, 0, 0LL, "abc", "###"); /* case 35 */
  reset(); r = sscanf("100%", "%d%%", &a); check(1, 100, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 36 */
  reset(); r = sscanf("100 %", "%d%%", &a); check(1, 100, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 37 */
  reset(); r = sscanf("100", "%d%%", &a); check(1, 100, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 38 */
  reset(); r = sscanf("-1", "%u", &u); check(1, -77, -77, 4294967295u, 0L, 0, 0, 0LL, "#", "###"); /* case 39 */
  reset(); r = sscanf("077", "%o", &a); check(1, 63, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 40 */
  reset(); r = sscanf("12", "%ld", &l); check(1, -77, -77, 0u, 12L, 0, 0, 0LL, "#", "###"); /* case 41 */
  reset(); r = sscanf("-5", "%hd", &h); check(1, -77, -77, 0u, 0L, -5, 0, 0LL, "#", "###"); /* case 42 */
  reset(); r = sscanf("300", "%hhd", &hh); check(1, -77, -77, 0u, 0L, 0, 44, 0LL, "#", "###"); /* case 43 */
  reset(); r = sscanf("99999999999999999999", "%lld", &ll); check(1, -77, -77, 0u, 0L, 0, 0, 9223372036854775807LL, "#", "###"); /* case 44 */
  reset(); r = sscanf("-99999999999999999999", "%lld", &ll); check(1, -77, -77, 0u, 0L, 0, 0, (-9223372036854775807LL-1), "#", "###"); /* case 45 */
  reset(); r = sscanf("99999999999999999999", "%llu", &ll); check(1, -77, -77, 0u, 0L, 0, 0, -1LL, "#", "###"); /* case 46 */
  reset(); r = sscanf("-99999999999999999999", "%llu", &ll); check(1, -77, -77, 0u, 0L, 0, 0, -1LL, "#", "###"); /* case 47 */
  reset(); r = sscanf("18446744073709551615", "%llu", &ll); check(1, -77, -77, 0u, 0L, 0, 0, -1LL, "#", "###"); /* case 48 */
  reset(); r = sscanf("-9223372036854775808", "%lld", &ll); check(1, -77, -77, 0u, 0L, 0, 0, (-9223372036854775807LL-1), "#", "###"); /* case 49 */
  reset(); r = sscanf("4294967296", "%d", &a); check(1, 0, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 50 */
  reset(); r = sscanf("0", "%x", &a); check(1, 0, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 51 */
  reset(); r = sscanf("0x", "%i", &a); check(1, 0, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 52 */
  reset(); r = sscanf("+-5", "%d", &a); check(0, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 53 */
  reset(); r = sscanf(" ", " %d", &a); check(-1, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 55 */
  reset(); r = sscanf("7", "%1d", &a); check(1, 7, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 56 */
  reset(); r = sscanf("-7", "%1d", &a); check(0, -77, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 57 */
  reset(); r = sscanf("0x12", "%2x", &a); check(1, 0, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 58 */
  reset(); r = sscanf("0x12", "%3x", &a); check(1, 1, -77, 0u, 0L, 0, 0, 0LL, "#", "###"); /* case 59 */
  return 0;
}
