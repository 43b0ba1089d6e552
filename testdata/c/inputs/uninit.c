// An uninitialised local (its value is indeterminate, SV-COMP: any value):
// mcr check explores it as an input once a search reads it (no .json: the
// explore tests do not run this mode, cmd/mcr's TestInputsCLI does).
#include <pthread.h>
#include <assert.h>
int x;
void *t(void *a) { x = 1; return 0; }
int main(void) {
	int i;
	pthread_t th;
	pthread_create(&th, 0, t, 0);
	pthread_join(th, 0);
	if (i == 42)
		assert(x == 0);
	return 0;
}
