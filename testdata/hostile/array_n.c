/* Checked with -D N=...: the macro is an array size and an expression. */
int a[N];
int main(void) {
  a[0] = N;
  return a[0];
}
