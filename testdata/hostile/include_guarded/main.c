#include "a.h"
int main(void) { return 0; }
