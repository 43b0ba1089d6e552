/* -1 as an unsigned index is 4294967295 elements past a. */
int a[4];
int main(void) {
  unsigned i = -1;
  return a[i];
}
