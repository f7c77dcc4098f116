// SPDX-License-Identifier: GPL-2.0
/*
 * st_syncpair ROUNDS SPIN_US WARMUP [STATS [TASKS]]: tasks that wake each
 * other with sync wakeups, for the sync_short test.  TASKS processes (2,
 * the default: a pair, each the other's last wakee; 3: a ring, where no
 * task's last wakee is its waker) pass the waker's CPU number round a
 * ring of pipes (a pipe write is a WF_SYNC wakeup); after each read a
 * process burns SPIN_US microseconds of its own CPU time (0: none, short
 * tasks).  Before each sleep a process moves itself to the first CPU of
 * its affinity and then allows the others again, so that every wakeup
 * starts from the wakee's previous CPU the first: whether the wakee stays
 * on its waker's CPU is decided afresh at each wakeup.  The first WARMUP
 * rounds are not counted (the module learns the durations and last
 * wakees).  Each wakee counts the wakeups after which it runs on the CPU
 * its waker wrote from.  Prints "wakeups N on_waker_cpu L cpu_us U" (N =
 * TASKS x ROUNDS; U: the processes' CPU time per wakeup, about what the
 * module's average duration sees).  With STATS (the module's stats/
 * directory; "-" for none), also " checked C both_short S placed P":
 * what sync_short counted over the counted rounds alone.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static cpu_set_t mask;
static int first;

/* writes the waker's CPU to the next task, then goes back to the first CPU */
static void put(int out)
{
	int cpu = sched_getcpu();

	if (write(out, &cpu, sizeof(cpu)) != sizeof(cpu))
		exit(3);
	st_pin(first);
	if (sched_setaffinity(0, sizeof(mask), &mask))
		exit(2);
}

/* waits for the waker's wakeup; counts it when on the waker's CPU */
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

#define MAX_TASKS 3

/* task @t of the ring: reads pipe t, writes pipe t + 1 */
static void ring_task(int (*fd)[2], int t, int n, long rounds, long warmup,
		      long spin, long *local, long long *cpu)
{
	long i;

	for (i = 0; i < warmup + rounds; i++) {
		take(fd[t][0], i, warmup, &local[t]);
		if (i == warmup)
			cpu[t] = cpu_ns();
		burn(spin);
		put(fd[(t + 1) % n][1]);
	}
	cpu[t] = cpu_ns() - cpu[t];
}

int main(int argc, char **argv)
{
	long long stats[NR_STATS] = { 0 }, *cpu, cpu_sum = 0;
	long rounds, spin, warmup, i, *local, on_waker = 0;
	int fd[MAX_TASKS][2], status, n = 2, t, failed = 0;
	const char *stats_dir;
	pid_t child[MAX_TASKS];
	int stats_ok = 1;

	if (argc < 4) {
		fprintf(stderr, "usage: %s ROUNDS SPIN_US WARMUP [STATS [TASKS]]\n", argv[0]);
		return 1;
	}
	rounds = atol(argv[1]);
	spin = atol(argv[2]);
	warmup = atol(argv[3]);
	stats_dir = argc > 4 && strcmp(argv[4], "-") ? argv[4] : NULL;
	if (argc > 5)
		n = atoi(argv[5]);

	if (rounds < 1 || spin < 0 || warmup < 0 || n < 2 || n > MAX_TASKS) {
		fprintf(stderr,
			"st_syncpair: ROUNDS >= 1, SPIN_US and WARMUP >= 0, TASKS 2 or 3\n");
		return 1;
	}
	/* zeroed: the counts, then the CPU times */
	local = mmap(NULL, 2 * MAX_TASKS * sizeof(long long), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (local == MAP_FAILED) {
		perror("st_syncpair");
		return 2;
	}
	cpu = (long long *)&local[MAX_TASKS];
	for (t = 0; t < n; t++)
		if (pipe(fd[t])) {
			perror("st_syncpair");
			return 2;
		}
	/* gathered on the first CPU allowed, then free within the mask */
	if (sched_getaffinity(0, sizeof(mask), &mask)) {
		perror("sched_getaffinity");
		return 2;
	}
	for (first = 0; first < CPU_SETSIZE && !CPU_ISSET(first, &mask); first++)
		;
	st_pin(first);
	for (t = 1; t < n; t++) {
		child[t] = fork();
		if (child[t] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			sched_setaffinity(0, sizeof(mask), &mask);
			ring_task(fd, t, n, rounds, warmup, spin, local, cpu);
			return 0;
		}
	}
	sched_setaffinity(0, sizeof(mask), &mask);
	for (i = 0; i < warmup + rounds; i++) {
		if (i == warmup) {
			/* the others sleep until the put below */
			stats_ok = add_stats(stats_dir, -1, stats);
			cpu[0] = cpu_ns();
		}
		put(fd[1][1]);
		take(fd[0][0], i, warmup, &local[0]);
		burn(spin);
	}
	cpu[0] = cpu_ns() - cpu[0];
	stats_ok &= add_stats(stats_dir, 1, stats);
	for (t = 1; t < n; t++)
		if (waitpid(child[t], &status, 0) != child[t] || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed = 1;
	if (failed) {
		fprintf(stderr, "st_syncpair: a task of the ring failed\n");
		return 3;
	}
	for (t = 0; t < n; t++) {
		on_waker += local[t];
		cpu_sum += cpu[t];
	}
	printf("wakeups %ld on_waker_cpu %ld cpu_us %lld", n * rounds, on_waker,
	       cpu_sum / 1000 / (n * rounds));
	if (stats_dir && stats_ok)
		printf(" checked %lld both_short %lld placed %lld", stats[0],
		       stats[1], stats[2]);
	else if (stats_dir)
		printf(" checked -1 both_short -1 placed -1");
	printf("\n");
	return 0;
}
