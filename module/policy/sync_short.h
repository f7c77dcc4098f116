/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sync_short (sync_short.c), inline only.
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#ifndef SCHED_TUNE_POLICY_SYNC_SHORT_H
#define SCHED_TUNE_POLICY_SYNC_SHORT_H

#include <linux/types.h>

/*
 * sync_short: SIS_SYNC as posted ("sched/fair: Enhance sync wakeup for
 * short duration tasks", Chen Yu, 2024-06-25).
 */

/**
 * st_dur_avg_update() - A task's average duration, with one more sample.
 * @avg: the average so far
 * @sample: the CPU time the task ran between a wakeup and its next sleep
 *
 * The duration_avg of the series' "Record the average duration of a
 * task": update_avg() of kernel/sched/fair.c.
 *
 * Return: the average, moved 1/8 of the way to @sample.
 */
static inline u64 st_dur_avg_update(u64 avg, u64 sample)
{
	return avg + (u64)((s64)(sample - avg) / 8);
}

/**
 * st_sis_sync_short() - short_task() of the patch.
 * @dur_avg: the task's average duration; 0: not recorded
 * @migration_cost: sysctl_sched_migration_cost
 * @llc: the target's sd_llc_size
 *
 * (duration_avg << 16) < sysctl_sched_migration_cost * llc^2: 0.5 us at 8
 * CPUs per LLC, 31 us at 64, 500 us at 256 (the patch's table, at the
 * default 500 us).
 *
 * Return: whether the task is short; one whose duration the module has
 * not recorded is not.
 */
static inline bool st_sis_sync_short(u64 dur_avg, u64 migration_cost,
				     u64 llc)
{
	return dur_avg && (dur_avg << 16) < migration_cost * llc * llc;
}

/*
 * What SIS_SYNC knows of a wakeup.  Its test, in select_idle_cpu(),
 * returns the target before the idle scan:
 *   target == smp_processor_id() && !has_idle_core && sync &&
 *   this_rq()->nr_running <= 1 && short_task(p) && short_task(current) &&
 *   current->last_wakee == p && p->last_wakee == current
 * so it changes stock's choice only where that choice came from the scan:
 * not the target itself, and none of select_idle_sibling()'s earlier
 * returns (an idle prev, an idle recent_used_cpu, an idle SMT sibling of
 * prev).
 */
struct st_sync_short_in {
	bool sync;		/* WF_SYNC, and the waker not exiting */
	bool waker_short;	/* short_task(current) */
	bool wakee_short;	/* short_task(p) */
	bool mutual;		/* p->last_wakee == current */
	bool waker_alone;	/* this_rq()->nr_running <= 1 */
	bool idle_core;		/* test_idle_cores() of the waker's LLC */
	bool target_is_waker;	/* wake_affine() chose the waker's CPU */
	bool new_is_target;	/* stock returned the target */
	bool new_early;		/* stock's choice is an earlier return */
};

/**
 * st_sync_short_decide() - SIS_SYNC's test, on what it knows of a wakeup.
 * @in: the facts
 *
 * Return: true when SIS_SYNC returns the target, the waker's CPU, where
 * stock's choice came from the idle scan.
 */
static inline bool st_sync_short_decide(const struct st_sync_short_in *in)
{
	return in->sync && in->waker_short && in->wakee_short &&
	       in->mutual && in->waker_alone && !in->idle_core &&
	       in->target_is_waker && !in->new_is_target && !in->new_early;
}

#endif /* SCHED_TUNE_POLICY_SYNC_SHORT_H */
