// SPDX-License-Identifier: GPL-2.0
/*
 * st_wakemig WAKER_CPU BUSY_CPU HOP_CPU ROUNDS [WINDOW_NS [GAP_US]]: wakeups
 * that the stock code always turns into migrations, for the rate-limit
 * test.
 *
 * A wakee (nice -20) migrates HOP_CPU -> BUSY_CPU by affinity, which
 * stamps it, then sleeps on a pipe.  A waker pinned to WAKER_CPU wakes it
 * with a sync pipe write while a nice 19 spinner occupies BUSY_CPU (its
 * utilization in that CPU's util_est: hog_ramp()): stock
 * select_task_rq_fair() then leaves the busy previous CPU for an idle
 * one; a rate-limited task stays on it.  The wakee counts its wakeup
 * migrations the way the scheduler does (schedstats' nr_wakeups_migrate,
 * WF_MIGRATED), so the load balancer's migrations are not in the count,
 * and the wakeups after which it runs off BUSY_CPU.
 * Prints "rounds N wakeup_migrations M off_busy_cpu O late_rounds L
 * late_migrations LM"; M is -1 when schedstats are off.  A round is late
 * when its wakeup returned WINDOW_NS or more after the move began: its
 * stamp may have expired before the wakeup was decided, so a migration
 * there is the window's right (a guest starved by its host stalls that
 * long).  Without WINDOW_NS (or 0) no round is late.  The wakee's util_est
 * at the end follows ("wakee_util_est W"), then "wide_rounds WR
 * wide_migrations WM": the rounds not late whose wakeup migrated without
 * stock having tried wake_affine() (nr_wakeups_affine_attempts), as a
 * wakeup that is not affine (wake_wide()) never does, and their
 * migrations; the rate limit, as the patch, keeps only affine wakeups.
 * A second line, "util_est hog H0 H1 waker K", gives the rest of what
 * prev_bias judges room by: the hog's after its ramp and at the end, and
 * the waker's (not each CPU's: debugfs sched/debug, the one file that
 * has them, crashes 6.12 when read; docs/kernels.md).  With GAP_US
 * the waker sleeps that long before each wakeup, and at least three times
 * the CPU time the wakee took in its round, so that both tasks run little
 * whatever an emulated CPU makes their work cost: their utilization
 * leaves room on a CPU (prev_bias's test).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "st_sched.h"

/* The waker writes only once the wakee is really asleep. */
static void wait_sleeping(pid_t pid)
{
	struct timespec pause = { 0, 100000 };
	char path[64], buf[256], *state;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (;;) {
		f = fopen(path, "r");
		if (!f)
			exit(3);
		state = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (state && state[1] == ' ' && state[2] == 'S')
			return;
		nanosleep(&pause, NULL);
	}
}

/* A task's util_est (0: our own): one value from 6.9, the ewma before. */
static long util_est_of(pid_t pid)
{
	static const char *const field[] = {
		"se.avg.util_est", "se.avg.util_est.ewma"
	};
	char path[64];
	long v[2];

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/sched");
	st_sched_stats_of(path, 2, field, v);
	return v[0] >= 0 ? v[0] : v[1];
}

static long long clock_ns(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/*
 * The hog's utilization, in its CPU's runnable util_est, says the CPU is
 * full (prev_bias finds no room there).  util_est is taken when a task
 * sleeps, and a task that never slept has none: the hog runs alone for
 * HOG_RAMP_NS of its own CPU time (PELT's utilization then about 99% of
 * capacity), sleeps 1 ms, and only then tells the parent to begin.  A
 * nap whose timer fired before the hog got to sleep (a vCPU its host
 * stopped that long) took none: the hog runs a little more and naps
 * again, until its util_est shows (6.1, 2026-12-05: 0 after one nap).
 */
#define HOG_RAMP_NS 300000000LL

static void hog_ramp(int ready)
{
	struct timespec nap = { 0, 1000000 };
	long long until = HOG_RAMP_NS;
	char c = 0;
	int i;

	for (i = 0; i < 20; i++) {
		while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < until)
			;
		nanosleep(&nap, NULL);
		/* -1: the kernel does not show it */
		if (util_est_of(0) != 0)
			break;
		until += HOG_RAMP_NS / 10;
	}
	if (write(ready, &c, 1) != 1)
		exit(3);
}

static void wakee(int ready, int wake, int busy, int hop, long rounds,
		  long long window)
{
	long i, before, after, migrated = 0, off = 0, late = 0, late_mig = 0;
	static const char *const field[] = {
		"nr_wakeups_migrate", "nr_wakeups_affine_attempts"
	};
	long tried, wide = 0, wide_mig = 0, v[2];
	long long start, ran, cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	char c = 0;

	setpriority(PRIO_PROCESS, 0, -20);
	for (i = 0; i < rounds; i++) {
		st_pin(hop);
		start = now_ns();
		st_pin(busy);
		st_pin(-1);
		/* one read each side of the sleep: the wakee's run stays short */
		st_sched_stats_of("/proc/self/sched", 2, field, v);
		before = v[0];
		tried = v[1];
		/* the CPU time of this round, for the waker's gap */
		ran = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu;
		if (write(ready, &ran, sizeof(ran)) != sizeof(ran) ||
		    read(wake, &c, 1) != 1)
			exit(3);
		cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		off += sched_getcpu() != busy;
		st_sched_stats_of("/proc/self/sched", 2, field, v);
		after = v[0];
		if (window > 0 && now_ns() - start >= window) {
			late++;
			if (before >= 0 && after >= 0)
				late_mig += after - before;
		} else if (after > before && v[1] == tried) {
			/* placed by stock without wake_affine(): not affine */
			wide++;
			wide_mig += after - before;
		}
		if (before < 0 || after < 0)
			migrated = -1;
		else if (migrated >= 0)
			migrated += after - before;
	}
	fprintf(stdout,
		"rounds %ld wakeup_migrations %ld off_busy_cpu %ld late_rounds %ld late_migrations %ld wakee_util_est %ld wide_rounds %ld wide_migrations %ld\n",
		rounds, migrated, off, late, late_mig, util_est_of(0), wide,
		wide_mig);
	exit(0);
}

int main(int argc, char **argv)
{
	int waker, busy, hop, ready[2], wake[2], status;
	pid_t hog, child;
	long long window = 0;
	long rounds, i, gap = 0, hog_est;
	long long ran;
	char c = 0;

	if (argc < 5) {
		fprintf(stderr,
			"usage: %s WAKER_CPU BUSY_CPU HOP_CPU ROUNDS [WINDOW_NS [GAP_US]]\n",
			argv[0]);
		return 1;
	}
	waker = atoi(argv[1]);
	busy = atoi(argv[2]);
	hop = atoi(argv[3]);
	rounds = atol(argv[4]);
	if (argc > 5)
		window = atoll(argv[5]);
	if (argc > 6)
		gap = atol(argv[6]);
	if (pipe(ready) || pipe(wake)) {
		perror("pipe");
		return 2;
	}
	hog = fork();
	if (hog == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpriority(PRIO_PROCESS, 0, 19);
		st_pin(busy);
		hog_ramp(ready[1]);
		for (;;)
			;
	}
	/* the hog has slept once: its utilization is in BUSY_CPU's util_est */
	if (read(ready[0], &c, 1) != 1)
		return 2;
	hog_est = util_est_of(hog);
	child = fork();
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		wakee(ready[1], wake[0], busy, hop, rounds, window);
	}
	st_pin(waker);
	for (i = 0; i < rounds; i++) {
		if (read(ready[0], &ran, sizeof(ran)) != sizeof(ran))
			break;
		if (gap > 0)
			usleep(gap > ran * 3 / 1000 ? gap : ran * 3 / 1000);
		wait_sleeping(child);
		if (write(wake[1], &c, 1) != 1)
			break;
	}
	waitpid(child, &status, 0);
	printf("util_est hog %ld %ld waker %ld\n", hog_est, util_est_of(hog),
	       util_est_of(0));
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	return i == rounds && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 4;
}
