/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest helpers share: placing a process, reading one of the
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
 * The counter @field of /proc/<pid>/sched at @path ("se.nr_migrations",
 * "nr_wakeups_migrate", ...), or -1 when the kernel does not show it
 * (schedstats off, for the nr_wakeups_* ones); st_sched_stat(): our own.
 */
static inline long st_sched_stat_of(const char *path, const char *field)
{
	FILE *f = fopen(path, "r");
	size_t len = strlen(field);
	char line[256];
	long n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, field, len) &&
		    (line[len] == ' ' || line[len] == ':') && strchr(line, ':')) {
			n = atol(strchr(line, ':') + 1);
			break;
		}
	}
	fclose(f);
	return n;
}

static inline long st_sched_stat(const char *field)
{
	return st_sched_stat_of("/proc/self/sched", field);
}

#endif
