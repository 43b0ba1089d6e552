/*
 * dispatch_reread: the shape of Nidhugg's dispatcher benchmark, cut down to
 * two servers and three requests. Each server checks the counter of its
 * channel under the channel's mutex, reading it twice; each request of main
 * starts a thread that writes sid = 0 then sid = 1, reads sid, increments the
 * chosen channel's counter under that channel's mutex and joins the thread.
 *
 * mcr-seeds reached 42 of the 44 outcomes here and called its search
 * complete: both lost outcomes have a server read a counter between two of
 * main's increments. In the node that had to ask for that value, main's later
 * reads of sid were fixed, so the seed had to let the server's critical
 * section run to its release; a probe that checked this with the server's
 * second read of the counter keeping its traced value (the counter after
 * both increments) found it impossible and dropped the seed.
 */
#include <pthread.h>
#include <stddef.h>

pthread_mutex_t lock0, lock1;
int sid, in0, in1, out0, out1;

void *pick(void *arg)
{
	(void)arg;
	sid = 0;
	sid = 1;
	return NULL;
}

void *server0(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock0);
	if (in0 > 0)
		out0 = in0;
	pthread_mutex_unlock(&lock0);
	return NULL;
}

void *server1(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock1);
	if (in1 > 0)
		out1 = in1;
	pthread_mutex_unlock(&lock1);
	return NULL;
}

static void request(void)
{
	pthread_t p;
	int chosen;

	pthread_create(&p, NULL, pick, NULL);
	chosen = sid;
	if (chosen == 0) {
		pthread_mutex_lock(&lock0);
		in0 = in0 + 1;
		pthread_mutex_unlock(&lock0);
	} else {
		pthread_mutex_lock(&lock1);
		in1 = in1 + 1;
		pthread_mutex_unlock(&lock1);
	}
	pthread_join(p, NULL);
}

int main(void)
{
	pthread_t s0, s1;
	int i;

	pthread_create(&s0, NULL, server0, NULL);
	pthread_create(&s1, NULL, server1, NULL);
	for (i = 0; i < 3; i++)
		request();
	return 0;
}
