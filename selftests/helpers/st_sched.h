/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest helpers share: placing a process, reading the
 * scheduler's per-task counters, and the kernel's ARRAY_SIZE().
 * Header-only, since every helper is its own static binary.
 */
#ifndef ST_SCHED_H
#define ST_SCHED_H

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Pins the calling process to @cpu, or lets it run anywhere (@cpu < 0). */
static inline void st_pin(int cpu)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (cpu < 0 || i == cpu)
			CPU_SET(i, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(2);
	}
}

/*
 * The counters @field[0..@n-1] of /proc/<pid>/sched at @path
 * ("se.nr_migrations", "nr_wakeups_migrate", ...) into @val, in one read
 * of the file (its text costs a task in an emulated CPU a lot); -1 for
 * each the kernel does not show (schedstats off, for the nr_wakeups_*
 * ones).
 */
static inline void st_sched_stats_of(const char *path, int n,
				     const char *const *field, long *val)
{
	FILE *f = fopen(path, "r");
	int i, found = 0;
	char line[256];
	size_t len;

	for (i = 0; i < n; i++)
		val[i] = -1;
	if (!f)
		return;
	while (found < n && fgets(line, sizeof(line), f)) {
		for (i = 0; i < n; i++) {
			len = strlen(field[i]);
			if (val[i] < 0 && !strncmp(line, field[i], len) &&
			    (line[len] == ' ' || line[len] == ':') &&
			    strchr(line, ':')) {
				val[i] = atol(strchr(line, ':') + 1);
				found++;
			}
		}
	}
	fclose(f);
}

/* One counter (st_sched_stats_of()); st_sched_stat(): our own. */
static inline long st_sched_stat_of(const char *path, const char *field)
{
	long v;

	st_sched_stats_of(path, 1, &field, &v);
	return v;
}

static inline long st_sched_stat(const char *field)
{
	return st_sched_stat_of("/proc/self/sched", field);
}

#endif
