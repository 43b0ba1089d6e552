/* setjmp: non-local jumps are not supported. */
#include <pthread.h>
#include <setjmp.h>
#include <stddef.h>

jmp_buf env;
int x;

void *thread(void *arg)
{
	(void)arg;
	x = 1;
	return NULL;
}

static void jump(void)
{
	longjmp(env, 1);
}

int main(void)
{
	pthread_t t;

	if (setjmp(env) == 0) {
		pthread_create(&t, NULL, thread, NULL);
		pthread_join(t, NULL);
		jump();
	}
	return 0;
}
