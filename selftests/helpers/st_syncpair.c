// SPDX-License-Identifier: GPL-2.0
/*
 * st_syncpair ROUNDS SPIN_US WARMUP: a pair of tasks that wake each other
 * with sync wakeups, for the sync_short test.  Two processes pass the
 * waker's CPU number back and forth through two pipes (a pipe write is a
 * WF_SYNC wakeup); after each read a process burns SPIN_US microseconds
 * of its own CPU time (0: none, a short-running pair).  Before each sleep
 * a process moves itself to CPU 0 by affinity and then allows every CPU
 * again, so that every wakeup starts from the pair gathered on CPU 0:
 * the wakee's previous CPU is the waker's, and whether the wakee stays
 * there or goes to an idle CPU is decided afresh at each wakeup (an idle
 * previous CPU elsewhere would decide it before SIS_SYNC could).  The
 * first WARMUP round trips are not counted (the module learns the two
 * durations).  Each wakee counts the wakeups after which it runs on the
 * CPU its waker wrote from.  Prints "wakeups N on_waker_cpu L cpu_us U"
 * (N = 2 x ROUNDS; U: the two processes' CPU time per wakeup, about what
 * the module's average duration sees).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "st_sched.h"

static long long cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* CPU time, not wall time: a slow emulator stretches both alike */
static void burn(long us)
{
	long long end = cpu_ns() + us * 1000LL;

	while (us && cpu_ns() < end)
		;
}

/* writes the waker's CPU, then goes back to CPU 0 to sleep there */
static void put(int out)
{
	int cpu = sched_getcpu();

	if (write(out, &cpu, sizeof(cpu)) != sizeof(cpu))
		exit(3);
	st_pin(0);
	st_pin(-1);
}

/* waits for the partner's wakeup; counts it when on the waker's CPU */
static void take(int in, long i, long warmup, long *local)
{
	int cpu;

	if (read(in, &cpu, sizeof(cpu)) != sizeof(cpu))
		exit(3);
	if (i >= warmup && cpu == sched_getcpu())
		(*local)++;
}

int main(int argc, char **argv)
{
	long rounds, spin, warmup, i, *local;
	int a2b[2], b2a[2], status;
	long long *cpu0;
	pid_t child;

	if (argc < 4) {
		fprintf(stderr, "usage: %s ROUNDS SPIN_US WARMUP\n", argv[0]);
		return 1;
	}
	rounds = atol(argv[1]);
	spin = atol(argv[2]);
	warmup = atol(argv[3]);
	if (rounds < 1 || spin < 0 || warmup < 0) {
		fprintf(stderr, "st_syncpair: ROUNDS >= 1, SPIN_US and WARMUP >= 0\n");
		return 1;
	}
	/* zeroed: the two counts, then the two CPU times */
	local = mmap(NULL, 4 * sizeof(*local), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (local == MAP_FAILED || pipe(a2b) || pipe(b2a)) {
		perror("st_syncpair");
		return 2;
	}
	cpu0 = (long long *)&local[2];
	st_pin(0);
	st_pin(-1);
	child = fork();
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (i = 0; i < warmup + rounds; i++) {
			take(a2b[0], i, warmup, &local[1]);
			if (i == warmup)
				cpu0[1] = cpu_ns();
			burn(spin);
			put(b2a[1]);
		}
		cpu0[1] = cpu_ns() - cpu0[1];
		return 0;
	}
	for (i = 0; i < warmup + rounds; i++) {
		if (i == warmup)
			cpu0[0] = cpu_ns();
		put(a2b[1]);
		take(b2a[0], i, warmup, &local[0]);
		burn(spin);
	}
	cpu0[0] = cpu_ns() - cpu0[0];
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "st_syncpair: the partner failed\n");
		return 3;
	}
	printf("wakeups %ld on_waker_cpu %ld cpu_us %lld\n", 2 * rounds,
	       local[0] + local[1], (cpu0[0] + cpu0[1]) / 1000 / (2 * rounds));
	return 0;
}
