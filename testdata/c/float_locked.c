/*
 * float_locked: N threads each add their share to a shared double and a
 * shared float under a mutex; main checks the exact sums (each partial sum
 * is exact in binary, so every order gives the same bits). Clean: no race,
 * no violation.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stddef.h>

#ifndef N
#define N 2
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
double total;
float ftotal;
long double ltotal;

void *work(void *arg)
{
	double share = (double)(intptr_t)arg / 4;
	pthread_mutex_lock(&m);
	total += share;
	ftotal -= (float)share;
	ltotal = ltotal + share * 2;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t[N];

	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, work, (void *)(intptr_t)(i + 1));
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	assert(total == N * (N + 1) / 8.0);
	assert(-ftotal == (float)total && ltotal == 2 * total);
	return 0;
}
