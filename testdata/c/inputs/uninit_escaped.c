// An uninitialised local whose address escapes to another thread: both
// threads increment it under one mutex. Its value is indeterminate, so
// mcr check makes it an input; no branch depends on it, so the search is
// complete and clean (no race: every access holds the mutex).
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *a) {
	int *p = a;
	pthread_mutex_lock(&m);
	(*p)++;
	pthread_mutex_unlock(&m);
	return 0;
}
int main(void) {
	pthread_t th;
	int i;
	pthread_create(&th, 0, t, &i);
	pthread_mutex_lock(&m);
	i++;
	pthread_mutex_unlock(&m);
	pthread_join(th, 0);
	return 0;
}
