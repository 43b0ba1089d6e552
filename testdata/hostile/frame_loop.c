/* 300 calls each with a 1 MB local array: a returning call frees its
   locals. */
int f(int i) {
  char buf[1 << 20];
  buf[i] = (char)i;
  return buf[i];
}
int main(void) {
  int s = 0;
  for (int i = 0; i < 300; i++)
    s += f(i);
  return s == 0;
}
