/*
 * Two threads branch on inputs of their own, unordered by causality: rf's
 * input exploration asks each flip under every order of the other
 * thread's decisions, and proves the property (it said incomplete, and a
 * task run explored again with dfs).
 */
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
int x, y;

void *t(void *arg)
{
	(void)arg;
	int n = __VERIFIER_nondet_int();
	if (n > 5)
		x = 1;
	else
		x = 2;
	return 0;
}

int main(void)
{
	pthread_t th;
	pthread_create(&th, 0, t, 0);
	int m = __VERIFIER_nondet_int();
	if (m > 3)
		y = 1;
	pthread_join(th, 0);
	if (x == 0)
		reach_error();
	return 0;
}
