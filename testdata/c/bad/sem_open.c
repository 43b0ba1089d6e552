/* sem_open: named semaphores are not supported (unnamed ones, sem_init, are). */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <semaphore.h>
#include <stddef.h>

int main(void)
{
	sem_t *s = sem_open("/mcr", O_CREAT, 0600, 1);

	if (s == SEM_FAILED)
		return 1;
	sem_wait(s);
	sem_post(s);
	return 0;
}
