// SPDX-License-Identifier: GPL-2.0
/*
 * st_pingpong CPU_A CPU_B ROUNDS [HOG]: a cross-CPU wakeup workload for
 * the cache-level tests.  Two processes pinned to CPU_A and CPU_B pass one
 * byte back and forth through two pipes, ROUNDS times: 2 x ROUNDS
 * wakeups, each from one CPU to the other.  With HOG=1 a spinning process
 * is pinned next to each of them, so the target runqueue is never empty:
 * stock ttwu_queue_cond() then wakes directly inside an LLC (an idle
 * target is queued whatever the level), which is where the levels differ.
 * Prints "wakeups N seconds S".
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "st_sched.h"

static pid_t hog(int cpu)
{
	pid_t pid = fork();

	if (pid == 0) {
		/* never outlive a ping-pong killed by a timeout */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		st_pin(cpu);
		for (;;)
			;
	}
	return pid;
}

static void xfer(int in, int out)
{
	char c = 0;

	if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
		exit(3);
}

int main(int argc, char **argv)
{
	int a2b[2], b2a[2], a, b, hogs, status;
	pid_t h[2] = { 0, 0 }, child;
	struct timespec t0, t1;
	long rounds, i;
	char c = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: %s CPU_A CPU_B ROUNDS [HOG]\n", argv[0]);
		return 1;
	}
	a = atoi(argv[1]);
	b = atoi(argv[2]);
	rounds = atol(argv[3]);
	hogs = argc > 4 && atoi(argv[4]);
	if (pipe(a2b) || pipe(b2a)) {
		perror("pipe");
		return 2;
	}
	if (hogs) {
		h[0] = hog(a);
		h[1] = hog(b);
	}
	child = fork();
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		st_pin(b);
		for (i = 0; i < rounds; i++)
			xfer(a2b[0], b2a[1]);
		return 0;
	}
	st_pin(a);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < rounds; i++) {
		if (write(a2b[1], &c, 1) != 1 || read(b2a[0], &c, 1) != 1)
			return 3;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	waitpid(child, &status, 0);
	for (i = 0; i < 2; i++) {
		if (h[i] > 0) {
			kill(h[i], SIGKILL);
			waitpid(h[i], NULL, 0);
		}
	}
	printf("wakeups %ld seconds %.3f\n", 2 * rounds,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 4;
}
