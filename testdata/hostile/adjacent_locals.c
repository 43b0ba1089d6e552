/* a[4] is just past a, where b may lie: still out of bounds. */
int main(void) {
  int b[4] = {0};
  int a[4] = {0};
  a[4] = 1;
  return a[0] + b[0];
}
