// SPDX-License-Identifier: GPL-2.0
/*
 * The queued-wakeup cache level's decisions (policy/cache_level.h).
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#include <linux/kernel.h>

#include "policy/cache_level.h"

/**
 * st_wake_pair_classify() - Fill the topology part of a wake pair.
 * @w: the pair, a wakeup from @this_cpu to @cpu
 * @this_cpu: the waker's CPU
 * @cpu: the target CPU
 * @this_llc_id: sd_llc_id of @this_cpu
 * @cpu_llc_id: sd_llc_id of @cpu
 * @in_l2_mask: whether @cpu is in @this_cpu's L2 (cluster) mask; false for
 *              a mask not allocated
 * @in_smt_mask: whether @cpu is in @this_cpu's SMT sibling mask; false for
 *               a mask not allocated
 *
 * As cpus_share_cache(): a CPU shares its LLC with itself, and otherwise
 * the scheduler's LLC domain ids decide.  The L2 and SMT masks are taken
 * as the kernel keeps them (a CPU is in its own masks once online).
 */
void st_wake_pair_classify(struct st_wake_pair *w, int this_cpu, int cpu,
			   int this_llc_id, int cpu_llc_id, bool in_l2_mask,
			   bool in_smt_mask)
{
	w->same_cpu = this_cpu == cpu;
	w->share_llc = w->same_cpu || this_llc_id == cpu_llc_id;
	w->share_l2 = in_l2_mask;
	w->share_smt = in_smt_mask;
}

/**
 * st_level_shares() - Whether a wake pair counts as sharing cache at a level.
 * @level: an enum st_cache_level
 * @w: the pair
 * @auto_llc_max: for ST_LEVEL_AUTO, the largest LLC that shares whole; in
 *                a larger one only an L2 does
 *
 * A pair that shares may skip the queued wakeup.  A CPU shares with
 * itself, as in the L2 patch.  A level only
 * narrows the kernel's LLC group, never widens it: CPUs in different
 * scheduler LLC domains (isolcpus, cpuset partitions) stay queued as in
 * stock, whatever the hardware masks say.  "none" leaves each CPU alone in
 * its group: every wakeup to another CPU is queued, which is what
 * ttwu_queue_cond() answers with TTWU_QUEUE_DEFAULT set.
 *
 * Return: true if the pair shares cache at @level.
 */
bool st_level_shares(unsigned int level, const struct st_wake_pair *w,
		     u64 auto_llc_max)
{
	if (w->same_cpu)
		return true;
	if (!w->share_llc)
		return false;
	switch (level) {
	case ST_LEVEL_L2:
		return w->share_l2;
	case ST_LEVEL_SMT:
		return w->share_smt;
	case ST_LEVEL_AUTO:
		return w->llc_size <= auto_llc_max || w->share_l2;
	case ST_LEVEL_NONE:
		return false;
	case ST_LEVEL_LLC:
	default:
		return true;
	}
}

/**
 * st_wake_queue() - ttwu_queue_cond() from its cache test on.
 * @shares: whether the pair shares cache (st_level_shares())
 * @w: the pair
 *
 * Return: true to use the wakelist.
 */
bool st_wake_queue(bool shares, const struct st_wake_pair *w)
{
	if (!shares)
		return true;
	if (w->same_cpu)
		return false;
	return w->target_idle;
}
