// SPDX-License-Identifier: GPL-2.0
/*
 * st_icount_pingpong ROUNDS [WARMUP]: the hook-cost workload of
 * bench-icount.sh.  Two processes pass one byte back and forth through
 * two pipes, WARMUP rounds untimed, then ROUNDS timed: 2 wakeups a round.
 *
 * Nothing stays pinned.  select_task_rq() calls the class's
 * select_task_rq (select_task_rq_fair, which the rate limit wraps) only
 * when the task may run on more than one CPU, so pinning each process to
 * one CPU would measure a path without the hook.  The processes only
 * start apart, the parent on CPU 0 and the child on CPU 1, then both may
 * run on every CPU: left to fork's placement, some runs started (and
 * stayed) on one CPU, about 18% cheaper, and mixed two workloads.  Prints
 * "rounds N ns T ns_per_round X" from CLOCK_MONOTONIC; under qemu
 * -icount shift=0,sleep=off one guest nanosecond is one instruction.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "st_sched.h"

static void xfer(int in, int out)
{
	char c = 0;

	if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
		exit(3);
}

static void ping(int out, int in)
{
	char c = 0;

	if (write(out, &c, 1) != 1 || read(in, &c, 1) != 1)
		exit(3);
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	int a2b[2], b2a[2], status;
	long rounds, warmup, i, m0, m1, cm = -1, ccpu = -1;
	long long t0, t1;
	pid_t child;

	if (argc < 2) {
		fprintf(stderr, "usage: %s ROUNDS [WARMUP]\n", argv[0]);
		return 1;
	}
	rounds = atol(argv[1]);
	warmup = argc > 2 ? atol(argv[2]) : 1000;
	if (rounds <= 0 || warmup < 0) {
		fprintf(stderr, "bad ROUNDS or WARMUP\n");
		return 1;
	}
	st_pin(0);
	if (pipe(a2b) || pipe(b2a)) {
		perror("pipe");
		return 2;
	}
	child = fork();
	if (child < 0) {
		perror("fork");
		return 2;
	}
	if (child == 0) {
		/* never outlive a ping-pong killed by a timeout */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		st_pin(1);
		st_pin(-1);
		for (i = 0; i < warmup; i++)
			xfer(a2b[0], b2a[1]);
		m0 = st_sched_stat("se.nr_migrations");
		for (i = 0; i < rounds; i++)
			xfer(a2b[0], b2a[1]);
		m1 = st_sched_stat("se.nr_migrations");
		cm = m0 < 0 || m1 < 0 ? -1 : m1 - m0;
		ccpu = sched_getcpu();
		if (write(b2a[1], &cm, sizeof(cm)) != sizeof(cm) ||
		    write(b2a[1], &ccpu, sizeof(ccpu)) != sizeof(ccpu))
			return 3;
		return 0;
	}
	st_pin(-1);
	for (i = 0; i < warmup; i++)
		ping(a2b[1], b2a[0]);
	m0 = st_sched_stat("se.nr_migrations");
	t0 = now_ns();
	for (i = 0; i < rounds; i++)
		ping(a2b[1], b2a[0]);
	t1 = now_ns();
	m1 = st_sched_stat("se.nr_migrations");
	if (read(b2a[0], &cm, sizeof(cm)) != sizeof(cm) ||
	    read(b2a[0], &ccpu, sizeof(ccpu)) != sizeof(ccpu))
		return 3;
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return 4;
	printf("rounds %ld ns %lld ns_per_round %.1f migrations %ld cpus %d,%ld\n",
	       rounds, t1 - t0, (double)(t1 - t0) / rounds,
	       m0 < 0 || m1 < 0 || cm < 0 ? -1 : m1 - m0 + cm, sched_getcpu(),
	       ccpu);
	return 0;
}
