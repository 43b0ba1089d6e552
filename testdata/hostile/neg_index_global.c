int a[4];
int main(void) {
  int i = -1;
  return a[i];
}
