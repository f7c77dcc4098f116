// SPDX-License-Identifier: GPL-2.0
/*
 * st_slicehog CPU SLICE_NS: a CPU hog pinned on CPU whose slice was set
 * with sched_setattr(SCHED_OTHER, sched_runtime = SLICE_NS), the custom
 * slice of 6.12+ (se.custom_slice): what the eevdf slice policy must
 * never change.  Prints "ready" once the slice is set, then spins until
 * killed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "st_sched.h"

/* struct sched_attr of include/uapi/linux/sched/types.h, version 1 */
struct st_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

int main(int argc, char **argv)
{
	struct st_sched_attr attr = { .size = sizeof(attr) };
	volatile unsigned long spin = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: st_slicehog CPU SLICE_NS\n");
		return 2;
	}
	st_pin(atoi(argv[1]));
	attr.sched_policy = SCHED_OTHER;
	attr.sched_runtime = strtoull(argv[2], NULL, 10);
	if (syscall(SYS_sched_setattr, 0, &attr, 0)) {
		fprintf(stderr, "sched_setattr: %s\n", strerror(errno));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		spin++;
	return 0;
}
