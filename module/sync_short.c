// SPDX-License-Identifier: GPL-2.0
/*
 * sync_short: a sync wakeup between two short tasks goes to the waker's
 * CPU, from Chen Yu's "sched/fair: Enhance sync wakeup for short duration
 * tasks" (SIS_SYNC, 2024-06-25,
 * https://lore.kernel.org/lkml/cover.1719295669.git.yu.c.chen@intel.com/),
 * the successor of SIS_CURRENT and SIS_SHORT.  The patch, in
 * select_idle_sibling(): for a WF_SYNC wakeup where the waker and the
 * wakee are both short (is_short_task(): an average duration dur_avg,
 * recorded, under sysctl_sched_migration_cost / 8) and the LLC has no
 * idle core, return the target (the waker's CPU) before the idle scan:
 * the waker is about to sleep, and a short wakee costs it little.
 *
 * select_idle_sibling() is inlined on every kernel here, so sync_short
 * decides in ratelimit.c's select_task_rq_fair() wrapper, last: after
 * the rate limit and prev_bias, on the choice they left to stock.  What
 * differs from the patch:
 *  - dur_avg is the patch series' own field ("sched/fair: Record the
 *    average duration of a task"), updated when a task sleeps.  No field
 *    can be added here, so the average lives in a lossy table indexed by
 *    task pointer, like the rate limit's, and is updated when the task
 *    wakes through select_task_rq_fair(): the CPU time since its last
 *    such wakeup is the duration the patch records at the sleep between.
 *    A task whose slot another took, and every task when the feature
 *    goes on, starts with no duration: not short, as the patch's new
 *    tasks are not.  Wakeups that bypass select_task_rq_fair (a task
 *    allowed one CPU) merge two durations into one.
 *  - the target is the waker's CPU and the choice is judged after the
 *    scan: a choice that is the idle previous CPU (the patch returns it
 *    before its test) or outside the waker's LLC (not the scan's) stands,
 *    and so does the waker's CPU not in the task's cpus_ptr.  The patch
 *    returns its target, which is prev when wake_affine() chose prev;
 *    here the wakee goes to the waker's CPU whenever the choice shares
 *    its cache.
 *  - has_idle_core is read as select_idle_sibling() reads it (only
 *    with SMT on), once, after stock's scan may have cleared it.
 *  - under EAS, on asymmetric capacity and for WF_CURRENT_CPU wakeups
 *    stock decides alone, as for the rate limit and prev_bias.
 *
 * The wakeup path is in sync_short.h, inline in the wrapper; this file
 * probes, owns the table and reports.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/vmalloc.h>

#include "sched_tune.h"
#include "sync_short.h"
#include "wrapper/ksym.h"
#include "wrapper/layout.h"

struct st_ss_slot *st_ss_table;
const unsigned int *st_ss_migration_cost;
const struct static_key *st_ss_smt_present = &st_key_never;
const struct static_key *st_ss_asym_cpucap = &st_key_never;
void * __percpu *st_ss_llc_shared;
u32 st_ss_has_idle_cores_off;

static int st_ss_probe(struct st_feature *f)
{
	const struct static_key *smt, *asym;
	u32 size;

	if (st_placement_probe(f))
		return -EOPNOTSUPP;
	st_ss_migration_cost = (const unsigned int *)st_ksym("sysctl_sched_migration_cost");
	if (!st_ss_migration_cost) {
		f->reason = "sysctl_sched_migration_cost is missing";
		return -EOPNOTSUPP;
	}
	smt = st_ksym_key("sched_smt_present");
	asym = st_ksym_key("sched_asym_cpucapacity");
	st_ss_llc_shared = (void * __percpu *)st_ksym("sd_llc_shared");
	if (!smt || !asym || !st_ss_llc_shared) {
		f->reason = "sched_smt_present, sched_asym_cpucapacity or sd_llc_shared is missing";
		return -EOPNOTSUPP;
	}
	st_ss_smt_present = smt;
	st_ss_asym_cpucap = asym;
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
	*idle = false;
	if (st_key_on_found(st_ss_asym_cpucap)) {
		*idle = true;
		return "CPUs of asymmetric capacity: sync_short leaves every wakeup to stock";
	}
	return NULL;
}

static bool st_ss_wanted(const struct st_config *cfg)
{
	return cfg->knob[ST_KNOB_SYNC_SHORT];
}

struct st_feature st_sync_short_feature = {
	.name = "sync_short",
	.takes_over = "select_task_rq_fair:ftrace-wrap",
	.host = &st_ratelimit_feature,
	.probe = st_ss_probe,
	.release = st_ss_release,
	.wanted = st_ss_wanted,
	.prepare = st_ss_forget,
	.status = st_ss_status,
	.stock_reason = "sync_short=0",
};
