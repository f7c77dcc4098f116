// SPDX-License-Identifier: GPL-2.0
/*
 * st_threads N: N threads that block at once (each on a pipe that is
 * never written), with small stacks; prints "ready N" once all exist,
 * then waits to be killed.  The thread count of a busy machine, for the
 * eevdf restore, which visits every thread.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int st_pipe[2];

static void *st_block(void *arg)
{
	char c;

	(void)arg;
	for (;;)
		if (read(st_pipe[0], &c, 1) <= 0)
			pause();
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0, i;
	pthread_attr_t attr;
	pthread_t t;

	if (n <= 0 || pipe(st_pipe))
		return 2;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		if (pthread_create(&t, &attr, st_block, NULL)) {
			fprintf(stderr, "st_threads: thread %ld of %ld failed\n", i + 1, n);
			break;
		}
	}
	printf("ready %ld\n", i);
	fflush(stdout);
	for (;;)
		pause();
}
