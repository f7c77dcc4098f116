/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sync_short's wakeup path (the feature: sync_short.c), inline in
 * select_rq.c's select_task_rq_fair wrapper: out of line, its call cost
 * about 20 instructions a wakeup of the 2% a ping-pong round trip may
 * spend on a feature (docs/hook-cost.md).
 */
#ifndef SCHED_TUNE_SYNC_SHORT_H
#define SCHED_TUNE_SYNC_SHORT_H

#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/sched.h>

#include "placement.h"
#include "sched_tune.h"
#include "sched_tune_trace.h"
#include "policy/sync_short.h"
#include "kernel/ksym.h"
#include "kernel/layout.h"

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
/* the kernel's DEFINE_PER_CPU(struct sched_domain_shared __rcu *, sd_llc_shared) */
extern void __rcu * __percpu *st_ss_llc_shared;
extern u32 st_ss_has_idle_cores_off;

static inline struct st_ss_slot *st_ss_slot(const struct task_struct *p)
{
	return &st_ss_table[hash_ptr(p, ST_SS_TABLE_BITS)];
}

static inline u64 st_ss_owner(const struct task_struct *p)
{
	return ((u64)(unsigned long)p ^ p->start_time) | 1;
}

/**
 * st_sync_short_track() - Add a waking task's last run to its average.
 * @p: the waking task
 *
 * Its last run, from wakeup to sleep, joins its average.  A task its slot
 * does not name starts again from 0.
 *
 * Context: Under @p->pi_lock (ttwu's), as every write of its slot.
 * Return: @p's average duration, 0 for a task its slot did not name.
 */
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
 * cores of several CPUs (select_idle_sibling() reads it under
 * sched_smt_active()).
 */
static inline bool st_ss_idle_core_here(void)
{
	const char *sds;

	if (!st_key_on_found(st_pl_smt))
		return false;
	sds = rcu_dereference_sched(*this_cpu_ptr(st_ss_llc_shared));
	return sds && READ_ONCE(*(const int *)(sds + st_ss_has_idle_cores_off));
}

/* What st_sync_short_pre() found, for st_sync_short_select() */
#define ST_SS_SYNC	BIT(0)	/* a sync wakeup: judged */
#define ST_SS_SHORT	BIT(1)	/* both short */
#define ST_SS_ASKS	BIT(2)	/* every condition on the tasks holds */

/**
 * st_sync_short_pre() - SIS_SYNC's conditions read before stock runs.
 * @p: the waking task
 * @wake_flags: select_task_rq_fair()'s
 * @wakee_avg: st_sync_short_track()'s for @p
 *
 * SIS_SYNC's conditions on the tasks and the waker's runqueue, read
 * before stock runs, as select_idle_sibling() reads has_idle_core before
 * its scan may clear it; the target, which the patch requires to be this
 * CPU, is judged after (st_sync_short_select()).
 *
 * Return: the ST_SS_* bits that hold, for st_sync_short_select(); 0 for a
 * wakeup that is not sync.
 */
static __always_inline unsigned int
st_sync_short_pre(struct task_struct *p, int wake_flags, u64 wakee_avg)
{
	struct st_sync_short_in in = { .target_is_waker = true };
	u64 cost;
	int llc;

	in.sync = (wake_flags & ST_WF_SYNC) && !(current->flags & PF_EXITING);
	if (!in.sync)
		return 0;
	/* each test only where the earlier ones passed, the cheapest first */
	cost = READ_ONCE(*st_ss_migration_cost);
	llc = *this_cpu_ptr(st_pl.llc_size);
	in.wakee_short = st_sis_sync_short(wakee_avg, cost, llc);
	if (in.wakee_short)
		in.waker_short = st_sis_sync_short(st_ss_current_avg(), cost, llc);
	if (!in.waker_short)
		return ST_SS_SYNC;
	/* record_wakee() is to make current->last_wakee p */
	in.mutual = READ_ONCE(p->last_wakee) == current;
	in.waker_alone = in.mutual &&
			 st_rq_nr_running(smp_processor_id()) <= 1;
	in.idle_core = in.waker_alone && st_ss_idle_core_here();
	return ST_SS_SYNC | ST_SS_SHORT |
	       (st_sync_short_decide(&in) ? ST_SS_ASKS : 0);
}

/**
 * st_sync_short_select() - sync_short's choice of CPU for a wakeup.
 * @cfg: the configuration the wakeup read
 * @p: the waking task
 * @prev_cpu: its previous CPU
 * @new_cpu: stock's choice, which neither the rate limit nor prev_bias
 *           changed
 * @recent: p->recent_used_cpu before stock ran
 * @wake_flags: select_task_rq_fair()'s, of which @pre tells what counts
 * @pre: st_sync_short_pre()'s
 *
 * Called where st_sync_short_on().  Stock's result is an earlier return
 * of select_idle_sibling() when it is prev (idle), recent_used_cpu (idle)
 * or an idle SMT sibling of prev (select_idle_smt(), without an idle
 * core); what else it returns in the target's LLC, the scan found.
 *
 * Return: the CPU to wake @p on: this CPU where SIS_SYNC applies, and not
 * under passthrough; else @new_cpu.
 */
static __always_inline int
st_sync_short_select(const struct st_config *cfg, struct task_struct *p,
		     int prev_cpu, int new_cpu, int recent, int wake_flags,
		     unsigned int pre)
{
	struct st_sync_short_in in = {
		.sync = true, .waker_short = true, .wakee_short = true,
		.mutual = true, .waker_alone = true,
	};
	int cpu, target;

	if (!pre)
		return new_cpu;
	st_stat_inc(ST_STAT_SYNC_SHORT_CHECKED);
	if (!(pre & ST_SS_SHORT))
		return new_cpu;
	st_stat_inc(ST_STAT_SYNC_SHORT_BOTH_SHORT);
	cpu = smp_processor_id();
	if (!(pre & ST_SS_ASKS) || new_cpu == cpu || st_place_stand_aside())
		return new_cpu;
	target = st_target_from_llc(cpu, prev_cpu,
				    st_cpus_share_cache(cpu, new_cpu),
				    st_cpus_share_cache(prev_cpu, new_cpu));
	if (target < 0)
		target = st_place_target(p, cpu, prev_cpu, true);
	in.target_is_waker = target == cpu;
	in.new_is_target = new_cpu == target;
	in.new_early = new_cpu == prev_cpu ||
		       (new_cpu == recent && recent != cpu) ||
		       (st_key_on_found(st_pl_smt) &&
			st_cpus_share_cache(prev_cpu, cpu) &&
			st_place_smt_sibling(new_cpu, prev_cpu));
	if (!st_sync_short_decide(&in) || st_passthrough(cfg))
		return new_cpu;
	st_stat_inc(ST_STAT_SYNC_SHORT_PLACED);
	trace_sched_tune_sync_short(p, prev_cpu, new_cpu, cpu);
	return cpu;
}

#endif /* SCHED_TUNE_SYNC_SHORT_H */
