/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sync_short's wakeup path (the feature: sync_short.c), inline in
 * ratelimit.c's select_task_rq_fair wrapper: out of line, its call cost
 * about 20 instructions a wakeup of the 2% a ping-pong round trip may
 * spend on a feature (docs/hook-cost.md).
 */
#ifndef SCHED_TUNE_SYNC_SHORT_H
#define SCHED_TUNE_SYNC_SHORT_H

#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/sched.h>

#include "sched_tune.h"
#include "wrapper/ksym.h"
#include "wrapper/layout.h"

#define ST_SS_TABLE_BITS 14

/* one task's duration; written only under its p->pi_lock (ttwu's) */
struct st_ss_slot {
	u64 owner;
	u64 last_sum;
	u64 dur_avg;
};

/* set by sync_short.c's probe, read here */
extern struct st_ss_slot *st_ss_table;
extern const unsigned int *st_ss_migration_cost;
/* never NULL: the kernel's, or st_key_never before the probe */
extern const struct static_key *st_ss_smt_present;
extern const struct static_key *st_ss_asym_cpucap;
extern void * __percpu *st_ss_llc_shared;
extern u32 st_ss_has_idle_cores_off;

static inline struct st_ss_slot *st_ss_slot(const struct task_struct *p)
{
	return &st_ss_table[hash_ptr(p, ST_SS_TABLE_BITS)];
}

static inline u64 st_ss_owner(const struct task_struct *p)
{
	return ((u64)(unsigned long)p ^ p->start_time) | 1;
}

/* @p is waking: its last run, from wakeup to sleep, joins its average. */
static inline u64 st_sync_short_track(struct task_struct *p)
{
	struct st_ss_slot *slot = st_ss_slot(p);
	u64 owner = st_ss_owner(p), sum = READ_ONCE(p->se.sum_exec_runtime);
	u64 avg = 0;

	if (READ_ONCE(slot->owner) == owner)
		avg = st_dur_avg_update(READ_ONCE(slot->dur_avg),
					sum - READ_ONCE(slot->last_sum));
	else
		WRITE_ONCE(slot->owner, owner);
	WRITE_ONCE(slot->last_sum, sum);
	WRITE_ONCE(slot->dur_avg, avg);
	return avg;
}

/* current runs: its average as of its own last wakeup */
static inline u64 st_ss_current_avg(void)
{
	const struct st_ss_slot *slot = st_ss_slot(current);

	if (READ_ONCE(slot->owner) != st_ss_owner(current))
		return 0;
	return READ_ONCE(slot->dur_avg);
}

/*
 * test_idle_cores() of the LLC we run on: only read where SMT makes
 * cores of several CPUs.
 */
static inline bool st_ss_idle_core_here(void)
{
	const char *sds;

	if (!st_key_on_found(st_ss_smt_present))
		return false;
	sds = rcu_dereference_sched(*this_cpu_ptr(st_ss_llc_shared));
	return sds && READ_ONCE(*(const int *)(sds + st_ss_has_idle_cores_off));
}

/*
 * Returns the CPU to wake @p on, given stock's @new_cpu, which neither
 * the rate limit nor prev_bias changed, and @wakee_avg, what
 * st_sync_short_track() returned for this wakeup.  Called where
 * st_sync_short_on().
 */
static __always_inline int
st_sync_short_select(const struct st_config *cfg, struct task_struct *p,
		     int prev_cpu, int new_cpu, int wake_flags, u64 wakee_avg)
{
	struct st_sync_short_in in = { .sync = wake_flags & ST_WF_SYNC };
	unsigned int cost;
	int cpu;

	if (!in.sync)
		return new_cpu;
	cpu = smp_processor_id();
	if (new_cpu == cpu || st_key_on_found(st_ss_asym_cpucap))
		return new_cpu;
	st_stat_inc(ST_STAT_SYNC_SHORT_CHECKED);
	/*
	 * Each test only where the earlier ones passed (decide() is an
	 * "and"), the cheapest that most often fails first: a choice
	 * outside the waker's LLC (inline, no call) stands, then the idle
	 * previous CPU, which the patch returns before its own test and a
	 * ping-pong's wakee mostly finds.
	 */
	in.share_cache = st_llc_id_here() == st_llc_id(new_cpu);
	if (in.share_cache)
		in.new_is_idle_prev = new_cpu == prev_cpu &&
				      st_kcall(st_place_idle_cpu)(prev_cpu);
	if (in.share_cache && !in.new_is_idle_prev) {
		cost = READ_ONCE(*st_ss_migration_cost);
		in.wakee_short = st_task_short(wakee_avg, cost);
		in.waker_short = in.wakee_short &&
				 st_task_short(st_ss_current_avg(), cost);
	}
	if (in.waker_short) {
		st_stat_inc(ST_STAT_SYNC_SHORT_BOTH_SHORT);
		in.idle_core = st_ss_idle_core_here();
		in.waker_allowed = cpumask_test_cpu(cpu, p->cpus_ptr);
	}
	if (!st_sync_short_decide(&in) || st_passthrough(cfg))
		return new_cpu;
	st_stat_inc(ST_STAT_SYNC_SHORT_PLACED);
	return cpu;
}

#endif /* SCHED_TUNE_SYNC_SHORT_H */
