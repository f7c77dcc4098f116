// SPDX-License-Identifier: GPL-2.0
/*
 * st_syncpair ROUNDS SPIN_US WARMUP [STATS]: a pair of tasks that wake each other
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
 * the module's average duration sees).  With STATS (the module's stats/
 * directory), also " checked C both_short S placed P": what sync_short
 * counted over the counted rounds alone, read at the end of the warm-up
 * (a new task's average starts at 0, short, as the patch's dur_avg
 * does, so the warm-up's first wakeups may be placed whatever the pair).
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

#define NR_STATS 3

static const char *const stat_names[NR_STATS] = {
	"sync_short_checked", "sync_short_both_short", "sync_short_placed",
};

/* adds SIGN times each counter of DIR to V; 0 if one is unreadable */
static int add_stats(const char *dir, int sign, long long *v)
{
	char path[512];
	long long n;
	unsigned int s;
	int ok = 1;
	FILE *f;

	for (s = 0; dir && s < NR_STATS; s++) {
		snprintf(path, sizeof(path), "%s/%s", dir, stat_names[s]);
		f = fopen(path, "r");
		if (f && fscanf(f, "%lld", &n) == 1)
			v[s] += sign * n;
		else
			ok = 0;
		if (f)
			fclose(f);
	}
	return ok;
}

int main(int argc, char **argv)
{
	long long stats[NR_STATS] = { 0 };
	const char *stats_dir;
	int stats_ok = 1;
	long rounds, spin, warmup, i, *local;
	int a2b[2], b2a[2], status;
	long long *cpu0;
	pid_t child;

	if (argc < 4) {
		fprintf(stderr, "usage: %s ROUNDS SPIN_US WARMUP [STATS]\n", argv[0]);
		return 1;
	}
	rounds = atol(argv[1]);
	spin = atol(argv[2]);
	warmup = atol(argv[3]);
	stats_dir = argc > 4 ? argv[4] : NULL;
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
		if (i == warmup) {
			/* the partner sleeps until the put below */
			stats_ok = add_stats(stats_dir, -1, stats);
			cpu0[0] = cpu_ns();
		}
		put(a2b[1]);
		take(b2a[0], i, warmup, &local[0]);
		burn(spin);
	}
	cpu0[0] = cpu_ns() - cpu0[0];
	stats_ok &= add_stats(stats_dir, 1, stats);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "st_syncpair: the partner failed\n");
		return 3;
	}
	printf("wakeups %ld on_waker_cpu %ld cpu_us %lld", 2 * rounds,
	       local[0] + local[1], (cpu0[0] + cpu0[1]) / 1000 / (2 * rounds));
	if (stats_dir && stats_ok)
		printf(" checked %lld both_short %lld placed %lld", stats[0],
		       stats[1], stats[2]);
	else if (stats_dir)
		printf(" checked -1 both_short -1 placed -1");
	printf("\n");
	return 0;
}
