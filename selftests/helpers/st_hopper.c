// SPDX-License-Identifier: GPL-2.0
/*
 * st_hopper CPU_A CPU_B WINDOW_NS BURSTS BURST_HOPS SINGLES STATS_DIR:
 * one task that migrates by affinity, for the adaptive rate limit's test.
 *
 * BURSTS times it hops between CPU_A and CPU_B BURST_HOPS times back to
 * back (each hop one migration, through migrate_task_rq_fair), then
 * sleeps one and a half windows; then SINGLES times it hops once and
 * sleeps one and a half windows.  So each burst and each single hop
 * opens a new window of the task's quota: bursts use it up (halvings),
 * single hops leave it unused (replenishments).  Reads
 * STATS_DIR/ratelimit_quota_halved and _replenished before, between and
 * after the two phases and prints
 * "bursts B halved H replenished R singles S halved H replenished R
 *  longest_burst_ns L migrations M" (M from se.nr_migrations).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "st_sched.h"

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void sleep_ns(long long ns)
{
	struct timespec t = { ns / 1000000000LL, ns % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &t, &t))
		;
}

static long long stat_read(const char *dir, const char *name)
{
	char path[512];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lld", &v) != 1) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	long long window, h[3], r[3], t0, longest = 0;
	int a, b, bursts, hops, singles, i, j, on_a;
	long m0;
	const char *dir;

	if (argc != 8) {
		fprintf(stderr,
			"usage: %s CPU_A CPU_B WINDOW_NS BURSTS BURST_HOPS SINGLES STATS_DIR\n",
			argv[0]);
		return 1;
	}
	a = atoi(argv[1]);
	b = atoi(argv[2]);
	window = atoll(argv[3]);
	bursts = atoi(argv[4]);
	hops = atoi(argv[5]);
	singles = atoi(argv[6]);
	dir = argv[7];

	st_pin(a);
	on_a = 1;
	m0 = st_sched_stat("se.nr_migrations");
	h[0] = stat_read(dir, "ratelimit_quota_halved");
	r[0] = stat_read(dir, "ratelimit_quota_replenished");
	for (i = 0; i < bursts; i++) {
		t0 = now_ns();
		for (j = 0; j < hops; j++) {
			on_a = !on_a;
			st_pin(on_a ? a : b);
		}
		if (now_ns() - t0 > longest)
			longest = now_ns() - t0;
		sleep_ns(window + window / 2);
	}
	h[1] = stat_read(dir, "ratelimit_quota_halved");
	r[1] = stat_read(dir, "ratelimit_quota_replenished");
	for (i = 0; i < singles; i++) {
		on_a = !on_a;
		st_pin(on_a ? a : b);
		sleep_ns(window + window / 2);
	}
	h[2] = stat_read(dir, "ratelimit_quota_halved");
	r[2] = stat_read(dir, "ratelimit_quota_replenished");
	fprintf(stdout,
		"bursts %d halved %lld replenished %lld singles %d halved %lld replenished %lld longest_burst_ns %lld migrations %ld\n",
		bursts, h[1] - h[0], r[1] - r[0], singles, h[2] - h[1],
		r[2] - r[1], longest, st_sched_stat("se.nr_migrations") - m0);
	return 0;
}
