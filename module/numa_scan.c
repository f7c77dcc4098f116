// SPDX-License-Identifier: GPL-2.0
/*
 * NUMA scan threshold for disjoint VMAs (seed 003).  The knobs are stored
 * and validated; the replacement of task_numa_work() is not written yet,
 * and features says so.
 */
#include "sched_tune.h"

static int st_numa_scan_probe(struct st_feature *f)
{
	return 0;
}

struct st_feature st_numa_scan_feature = {
	.name = "numa_scan",
	.takes_over = "task_numa_work:ftrace-replace",
	.probe = st_numa_scan_probe,
};
