// SPDX-License-Identifier: GPL-2.0
/*
 * st_syncpair ROUNDS SPIN_US WARMUP: a pair of tasks that wake each other
 * with sync wakeups, for the sync_short test.  Two processes pass the
 * waker's CPU number back and forth through two pipes (a pipe write is a
 * WF_SYNC wakeup); after each read a process burns SPIN_US microseconds
 * of its own CPU time (0: none, a short-running pair).  Both start on
 * CPU 0 and, for the first WARMUP round trips, may run on CPU 0 and CPU 1
 * only, with a nice 19 spinner of ours on CPU 1: stock keeps them
 * together on CPU 0 while the module learns their durations.  Then the
 * spinner ends and both may run anywhere.  Each wakee counts the wakeups
 * after the warm-up after which it runs on the CPU its waker wrote from.
 * Prints "wakeups N on_waker_cpu L cpu_us U" (N = 2 x ROUNDS; U: the two
 * processes' CPU time per wakeup after the warm-up, about what the
 * module's average duration sees).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

static void allow_0_1(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(2);
	}
}

static void put(int out)
{
	int cpu = sched_getcpu();

	if (write(out, &cpu, sizeof(cpu)) != sizeof(cpu))
		exit(3);
}

/* waits for the partner's wakeup; counts it when on the waker's CPU */
static void take(int in, long i, long warmup, long *local)
{
	int cpu;

	if (read(in, &cpu, sizeof(cpu)) != sizeof(cpu))
		exit(3);
	if (i >= warmup && cpu == sched_getcpu())
		(*local)++;
	if (i + 1 == warmup)
		st_pin(-1);
}

static pid_t warm_spinner(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		st_pin(1);
		setpriority(PRIO_PROCESS, 0, 19);
		for (;;)
			;
	}
	return pid;
}

int main(int argc, char **argv)
{
	long rounds, spin, warmup, i, *local;
	long long *cpu0;
	int a2b[2], b2a[2], status;
	pid_t child, spinner = -1;

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
	/* zeroed: the two counts */
	local = mmap(NULL, 4 * sizeof(*local), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cpu0 = (long long *)&local[2];
	if (local == MAP_FAILED || pipe(a2b) || pipe(b2a)) {
		perror("st_syncpair");
		return 2;
	}
	if (warmup)
		spinner = warm_spinner();
	st_pin(0);
	allow_0_1();
	if (!warmup)
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
		if (i + 1 == warmup) {
			kill(spinner, SIGKILL);
			waitpid(spinner, NULL, 0);
		}
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
