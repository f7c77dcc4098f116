/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The queued-wakeup cache level (seeds 002, 004, cache_level.c).
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#ifndef SCHED_TUNE_POLICY_CACHE_LEVEL_H
#define SCHED_TUNE_POLICY_CACHE_LEVEL_H

#include <linux/types.h>

enum st_cache_level {
	ST_LEVEL_LLC,
	ST_LEVEL_L2,
	ST_LEVEL_SMT,
	ST_LEVEL_AUTO,
	/* no CPU shares with another: TTWU_QUEUE_DEFAULT (cache_level.c) */
	ST_LEVEL_NONE,
	ST_NR_LEVELS
};

/*
 * Queued-wakeup cache level (the L2 patch, cache_level.c): the part of
 * ttwu_queue_cond() that follows its other tests (TTWU_QUEUE, CPU active,
 * affinity, class), for a wakeup from the waker's CPU to the target CPU.
 */
struct st_wake_pair {
	bool same_cpu;
	bool share_llc;		/* the kernel's cpus_share_cache() */
	bool share_l2;		/* target in the waker's L2 (cluster) mask */
	bool share_smt;		/* target in the waker's SMT sibling mask */
	bool target_idle;	/* nothing running on the target runqueue */
	unsigned int llc_size;	/* sd_llc_size of the waker's CPU */
};

void st_wake_pair_classify(struct st_wake_pair *w, int this_cpu, int cpu,
			   int this_llc_id, int cpu_llc_id, bool in_l2_mask,
			   bool in_smt_mask);
bool st_level_shares(unsigned int level, const struct st_wake_pair *w,
		     u64 auto_llc_max);
bool st_wake_queue(bool shares, const struct st_wake_pair *w);

#endif /* SCHED_TUNE_POLICY_CACHE_LEVEL_H */
