/*
 * float_signed_zero: the writer stores -0.0 over the initial +0.0. The two
 * compare equal as doubles but are different values for the trace model
 * (an event's value is the bit pattern), and the reader tells them apart
 * through 1 / v: the assertion fails only when it reads the writer's
 * -0.0. An algorithm that took the two writes for one value would skip
 * that read and miss the failure. The writer also stores f's own value
 * back (1.0f * 1.0f): the same bits, so the value-based algorithms (rvf,
 * mcr) merge main's two reads of f there. Both z and f race.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

double z;
float f = 1.0f;

void *writer(void *arg)
{
	(void)arg;
	z = -0.0;
	f = f * 1.0f;
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, writer, NULL);
	double v = z;
	float w = f;
	assert(w == 1.0f);
	assert(1 / v > 0);
	pthread_join(t, NULL);
	return 0;
}
