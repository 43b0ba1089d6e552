/*
 * mcr_fig2: the motivating example of the MCR paper (seed 001, Section 2.1,
 * Figure 2), reconstructed from the prose, since the figure itself is not in
 * the text. Comments "line k" give the paper's line numbers. What the text
 * fixes: three threads each loop twice over shared x, y and a lock l; line 3
 * sets y = 1 (repeated N times in the paper's scaled variant); the error at
 * line 13 in T3 needs (1) x > 1, which needs line 2 to run between lines 7
 * and 8, and (2) y == 3, which needs line 9 to run after line 14; lines 11
 * and 12 read the values written by lines 10 and 9; R8 and R11 read 0 in the
 * first trace and 1 in the first four seeds; W14 writes 2, R9 then reads it.
 * The rest (the lock around T2's and T3's bodies, y = y + 1 at line 9,
 * x = 2 at line 10, y = 2 as the else branch of line 12) is our choice.
 * T1 takes no lock, so its accesses race with T2's and T3's.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#ifndef N
#define N 1
#endif

int x, y;
pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;

void *t1(void *arg)
{
	int i, j;

	(void)arg;
	for (i = 0; i < 2; i++) {		/* line 1 */
		x = 1;				/* line 2 */
		for (j = 0; j < N; j++)
			y = 1;			/* line 3 */
	}
	return NULL;
}

void *t2(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 2; i++) {		/* line 5 */
		pthread_mutex_lock(&l);		/* line 6 */
		x = 0;				/* line 7 */
		if (x > 0) {			/* line 8 */
			y = y + 1;		/* line 9 */
			x = 2;			/* line 10 */
		}
		pthread_mutex_unlock(&l);
	}
	return NULL;
}

void *t3(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 2; i++) {
		pthread_mutex_lock(&l);
		if (x > 1) {			/* line 11 */
			if (y == 3)		/* line 12 */
				assert(0);	/* line 13: the error */
			else
				y = 2;		/* line 14 */
		}
		pthread_mutex_unlock(&l);
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b, c;

	pthread_create(&a, NULL, t1, NULL);
	pthread_create(&b, NULL, t2, NULL);
	pthread_create(&c, NULL, t3, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(c, NULL);
	return 0;
}
