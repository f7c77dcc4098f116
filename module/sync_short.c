// SPDX-License-Identifier: GPL-2.0
/*
 * sync_short: Chen Yu's SIS_SYNC, "sched/fair: Enhance sync wakeup for
 * short duration tasks" with "sched/fair: Record the average duration of
 * a task" (2024-06-25,
 * https://lore.kernel.org/lkml/cover.1719295669.git.yu.c.chen@intel.com/):
 * before select_idle_cpu() scans the LLC, a sync wakeup returns the
 * target when it is the waker's CPU, the waker runs alone there, the LLC
 * has no idle core, both tasks are short for the LLC's size and each is
 * the other's last wakee (the conditions: policy/sync_short.h).
 *
 * select_idle_sibling() is inlined on every kernel here, so sync_short
 * judges stock's result in select_rq.c's select_task_rq_fair() wrapper,
 * after the rate limit and prev_bias (sync_short.h).  What differs from
 * the patch, each forced by a missing field or the inlining
 * (docs/features/sync_short.md):
 *  - duration_avg and prev_sleep_sum_runtime are the series' own fields:
 *    the average lives in a lossy table indexed by task pointer and is
 *    updated when the task wakes through select_task_rq_fair() (the CPU
 *    time since its last such wakeup is the run the patch records at the
 *    sleep between); a task the table does not know yet, as every task
 *    when the feature goes on, is not short (the patch's new tasks start
 *    at 0, short, which its review took for a flaw);
 *  - stock's scan still runs, and the target is read a moment after;
 *  - on CPUs of asymmetric capacity and on clusters stock decides alone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/vmalloc.h>

#include "sched_tune.h"
#include "sync_short.h"
#include "kernel/ksym.h"
#include "kernel/layout.h"

struct st_ss_slot *st_ss_table;
const unsigned int *st_ss_migration_cost;
void * __percpu *st_ss_llc_shared;
u32 st_ss_has_idle_cores_off;

static int st_ss_probe(struct st_feature *f)
{
	u32 size;

	if (st_placement_probe(f))
		return -EOPNOTSUPP;
	st_ss_migration_cost = (const unsigned int *)st_ksym("sysctl_sched_migration_cost");
	st_ss_llc_shared = (void * __percpu *)st_ksym("sd_llc_shared");
	if (!st_ss_migration_cost || !st_ss_llc_shared) {
		f->reason = "sysctl_sched_migration_cost or sd_llc_shared is missing";
		return -EOPNOTSUPP;
	}
	if (st_layout_member("sched_domain_shared", "has_idle_cores",
			     &st_ss_has_idle_cores_off, &size) || size != sizeof(int)) {
		f->reason = "no int sched_domain_shared.has_idle_cores in kernel BTF";
		return -EOPNOTSUPP;
	}
	st_ss_table = vzalloc(sizeof(*st_ss_table) << ST_SS_TABLE_BITS);
	if (!st_ss_table) {
		f->reason = "out of memory";
		return -EOPNOTSUPP;
	}
	return 0;
}

static void st_ss_release(void)
{
	vfree(st_ss_table);
	st_ss_table = NULL;
}

/*
 * Durations from before the feature went off are stale when it is back.
 * The host's hook may run meanwhile; under passthrough it may write a
 * slot too, which only costs that task one stale average.
 */
static void st_ss_forget(void)
{
	memset(st_ss_table, 0, sizeof(*st_ss_table) << ST_SS_TABLE_BITS);
}

static const char *st_ss_status(bool *idle)
{
	*idle = true;
	if (st_key_on_found(st_pl_asym_cpucap))
		return "CPUs of asymmetric capacity: sync_short leaves every wakeup to stock";
	if (st_key_on_found(st_pl_cluster))
		return "CPU clusters (sched_cluster_active): sync_short leaves every wakeup to stock";
	*idle = false;
	return NULL;
}

static bool st_ss_wanted(const struct st_config *cfg)
{
	return cfg->knob[ST_KNOB_SYNC_SHORT];
}

struct st_feature st_sync_short_feature = {
	.name = "sync_short",
	.takes_over = "select_task_rq_fair:ftrace-wrap",
	.probe = st_ss_probe,
	.release = st_ss_release,
	.wanted = st_ss_wanted,
	.prepare = st_ss_forget,
	.status = st_ss_status,
	.stock_reason = "sync_short=0",
};
