/*
 * filesystem: THREADS threads each create a file. Thread t takes inode
 * t % INODES under the inode's mutex and, if the inode is still unused,
 * searches the block bitmap from block (2*inode) % BLOCKS onwards for a
 * free block, testing and taking each block under its own mutex, and
 * records block+1 in the inode; it gives up after TRIES blocks (the shape
 * of Nidhugg's benchmarks/from_TRACER/filesystem.c, which runs it with 16
 * threads; written anew). Threads t and t+BLOCKS/2 start their search at
 * the same block. Main initialises, forks and joins. Reads-from classes
 * (rf): 8 at THREADS=16, 8,192 at 26 (seed 004's table: 8192 at 26).
 */
#include <pthread.h>
#include <stdatomic.h>

#ifndef THREADS
#define THREADS 16
#endif
#ifndef INODES
#define INODES 32
#endif
#ifndef BLOCKS
#define BLOCKS 26
#endif
#ifndef TRIES
#define TRIES 10
#endif

pthread_mutex_t inode_lock[INODES];
atomic_int inode_block[INODES];
pthread_mutex_t block_lock[BLOCKS];
atomic_int block_busy[BLOCKS];
int ident[THREADS];

static void *create_file(void *arg)
{
	int me = *(int *)arg;
	int ino = me % INODES;

	pthread_mutex_lock(&inode_lock[ino]);
	if (atomic_load(&inode_block[ino]) == 0) {
		int b = (2 * ino) % BLOCKS;

		for (int try = 0; try < TRIES; try++) {
			int taken = 0;

			pthread_mutex_lock(&block_lock[b]);
			if (!atomic_load(&block_busy[b])) {
				atomic_store(&block_busy[b], 1);
				atomic_store(&inode_block[ino], b + 1);
				taken = 1;
			}
			pthread_mutex_unlock(&block_lock[b]);
			if (taken)
				break;
			b = (b + 1) % BLOCKS;
		}
	}
	pthread_mutex_unlock(&inode_lock[ino]);
	return 0;
}

int main(void)
{
	pthread_t th[THREADS];
	int i;

	for (i = 0; i < INODES; i++) {
		pthread_mutex_init(&inode_lock[i], 0);
		atomic_init(&inode_block[i], 0);
	}
	for (i = 0; i < BLOCKS; i++) {
		pthread_mutex_init(&block_lock[i], 0);
		atomic_init(&block_busy[i], 0);
	}
	for (i = 0; i < THREADS; i++) {
		ident[i] = i;
		pthread_create(&th[i], 0, create_file, &ident[i]);
	}
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], 0);
	return 0;
}
