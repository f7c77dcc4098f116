// SPDX-License-Identifier: GPL-2.0
/*
 * sync_short: SIS_SYNC, Chen Yu's "sched/fair: Record the average
 * duration of a task" and "sched/fair: Enhance sync wakeup for short
 * duration tasks",
 * https://lore.kernel.org/lkml/cover.1719295669.git.yu.c.chen@intel.com/
 * A sync wakeup stays on the waker's CPU when the two tasks are each
 * other's last wakee, both short, and the LLC has no idle core (the
 * conditions: policy/sync_short.h).  It judges stock's choice in
 * select_rq.c's select_task_rq_fair() wrapper, after the rate limit and
 * prev_bias (sync_short.h).  Details: docs/features/sync_short.md.
 *
 * Differs from the patch:
 *  - duration_avg lives in a lossy table indexed by task pointer, updated
 *    when the task wakes, and a task it does not know is not short: no
 *    field can be added to task_struct;
 *  - stock's scan still runs, and the target is read after it:
 *    select_idle_sibling() and wake_affine() are inlined;
 *  - on CPUs of asymmetric capacity and on clusters stock decides alone:
 *    its result cannot tell there how select_idle_sibling() chose.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/vmalloc.h>

#include "sched_tune.h"
#include "sync_short.h"
#include "kernel/ksym.h"
#include "kernel/layout.h"

struct st_ss_slot *st_ss_table;
const unsigned int *st_ss_migration_cost;
void __rcu * __percpu *st_ss_llc_shared;
u32 st_ss_has_idle_cores_off;

static int st_ss_probe(struct st_feature *f)
{
	u32 size;

	if (st_placement_probe(f))
		return -EOPNOTSUPP;
	st_ss_migration_cost = (const unsigned int *)st_ksym("sysctl_sched_migration_cost");
	st_ss_llc_shared = (void __rcu * __percpu *)st_ksym("sd_llc_shared");
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
