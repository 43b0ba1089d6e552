#include "s.h"
int main(void) { return 0; }
