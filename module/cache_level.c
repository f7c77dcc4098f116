// SPDX-License-Identifier: GPL-2.0
/*
 * Queued-wakeup cache level (seeds 002 and 004).  The knobs are stored
 * and validated; the hook on ttwu_queue_wakelist() is not written yet,
 * and features says so.
 */
#include "sched_tune.h"

static int st_cache_level_probe(struct st_feature *f)
{
	return 0;
}

struct st_feature st_cache_level_feature = {
	.name = "cache_level",
	.takes_over = "ttwu_queue_wakelist:ftrace-replace",
	.probe = st_cache_level_probe,
};
