/* syntax_error: the declaration on line 6 lacks its semicolon; the parser meets `return` at 7:2. */
#include <pthread.h>

int main(void)
{
	int x = 1
	return x;
}
