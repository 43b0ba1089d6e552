int a[1UL << 63];
int main(void) {
  a[0] = 1;
  return a[0];
}
