int main(void) {
  int a[4];
  int i = -1;
  a[i] = 3;
  return a[0];
}
