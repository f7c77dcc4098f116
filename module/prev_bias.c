// SPDX-License-Identifier: GPL-2.0
/*
 * prev_bias: keep a waking task on its previous CPU, from Mathieu
 * Desnoyers' "sched/fair: Introduce SELECT_BIAS_PREV to reduce
 * migrations" with its "sched/fair: Introduce UTIL_FITS_CAPACITY feature
 * (v2)" (2023-10-19,
 * https://lore.kernel.org/lkml/20231019160523.1582101-1-mathieu.desnoyers@efficios.com/).
 * The patch, in select_idle_sibling(): when prev shares the cache with
 * the target and is idle, or the task's utilization fits what the
 * runnable tasks there leave of its capacity (fits_capacity(): 20% kept
 * free), return prev before looking at the target; and when the scan
 * found no idle CPU, return prev rather than the busy target.
 *
 * select_idle_sibling() is inlined on every kernel here, so prev_bias
 * decides in ratelimit.c's select_task_rq_fair() wrapper (one ftrace hook
 * per function), after the rate limit, on stock's choice: the original
 * runs whole (record_wakee, wake_affine, recent_used_cpu, the scan), then
 * prev replaces its result when the patch would have returned prev.  That
 * is the same answer, because stock's result lies in the target's LLC
 * (sharing a cache with it is sharing one with the target), and because
 * select_idle_sibling() returns a CPU that is not idle only when it
 * found none and falls back to the target.  What differs from the patch:
 *  - stock's scan still runs, and its schedstats (nr_wakeups_affine...)
 *    count stock's choice;
 *  - idleness is read after the scan, a moment later than the patch;
 *  - sched_idle_cpu() (a CPU running only SCHED_IDLE tasks) is not
 *    idle here: it is static in fair.c;
 *  - capacity is rq->cpu_capacity, what the load balancer last set from
 *    scale_rt_capacity() (v1 of the patch), not a fresh
 *    scale_rt_capacity(); and the task's utilization is as last updated,
 *    without the patch's sync_entity_load_avg();
 *  - asym_fits_cpu() is not copied: on a machine with asymmetric CPU
 *    capacity (sched_asym_cpucapacity) prev_bias leaves every wakeup to
 *    stock, as it does under EAS, WF_CURRENT_CPU and for non-wakeups
 *    (ratelimit.c's wrapper);
 *  - prev must be in the task's cpus_ptr (the patch left that to
 *    select_task_rq()'s fallback).
 * The utilization test needs the UTIL_EST sched feature, as the patch's
 * sched_util_fits_capacity_active() does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#include "sched_tune.h"
#include "wrapper/ksym.h"
#include "wrapper/layout.h"

/* kernel/sched/pelt.h from v6.9; include/linux/sched.h before */
#ifndef UTIL_AVG_UNCHANGED
#define UTIL_AVG_UNCHANGED	0x80000000
#endif

static char __percpu *st_pb_runqueues;
static unsigned int *st_pb_sched_features;
static int st_pb_util_est_bit;
/* never NULL: the kernel's, or st_key_never before the probe */
static const struct static_key *st_pb_asym_cpucap = &st_key_never;
/* absent without CONFIG_ENERGY_MODEL, as ratelimit.c reads it */
static const struct static_key *st_pb_energy;
/* rq->cfs.avg.util_est (6.1: its .enqueued), rq->cpu_capacity */
static u32 st_pb_rq_util_est_off;
static u32 st_pb_rq_capacity_off;
/* 6.1's struct util_est: the task's ewma follows its enqueued */
static bool st_pb_util_est_pair;

/* _task_util_est() and task_util_est() of kernel/sched/fair.c */
static unsigned long st_pb_task_util_est(struct task_struct *p)
{
	const u32 *ue = (const u32 *)&p->se.avg.util_est;
	unsigned long est = READ_ONCE(ue[0]) & ~UTIL_AVG_UNCHANGED;

	if (st_pb_util_est_pair)
		est = max_t(unsigned long, est, READ_ONCE(ue[1]));
	return max_t(unsigned long, READ_ONCE(p->se.avg.util_avg), est);
}

/*
 * available_idle_cpu() of kernel/sched/core.c (absent from 7.3's BTF
 * and headers): idle_cpu() and not a preempted vCPU.
 */
static bool st_pb_available_idle(int cpu)
{
	return st_kcall(st_place_idle_cpu)(cpu) && !vcpu_is_preempted(cpu);
}

/* task_fits_remaining_cpu_capacity() of UTIL_FITS_CAPACITY */
static bool st_pb_fits(struct task_struct *p, int cpu)
{
	const char *rq = per_cpu_ptr(st_pb_runqueues, cpu);
	unsigned long cap;
	u32 cpu_est;

	if (!(READ_ONCE(*st_pb_sched_features) & (1U << st_pb_util_est_bit)))
		return false;
	cpu_est = READ_ONCE(*(const u32 *)(rq + st_pb_rq_util_est_off));
	cap = READ_ONCE(*(const unsigned long *)(rq + st_pb_rq_capacity_off));
	return st_util_fits_capacity(cpu_est & ~UTIL_AVG_UNCHANGED,
				     st_pb_task_util_est(p), cap);
}

int st_prev_bias_select(const struct st_config *cfg, struct task_struct *p,
			int prev_cpu, int new_cpu)
{
	struct st_prev_bias_in in = { .new_is_prev = new_cpu == prev_cpu };
	enum st_prev_bias_verdict v;

	/* called only when st_prev_bias_on(): the knob or passthrough */
	if (in.new_is_prev || st_key_on_found(st_pb_asym_cpucap))
		return new_cpu;
	st_stat_inc(ST_STAT_PREV_BIAS_CHECKED);
	in.share_cache = st_cpus_share_cache(prev_cpu, new_cpu);
	in.prev_allowed = cpumask_test_cpu(prev_cpu, p->cpus_ptr);
	if (in.share_cache && in.prev_allowed) {
		in.prev_idle = st_pb_available_idle(prev_cpu);
		in.prev_fits = !in.prev_idle && st_pb_fits(p, prev_cpu);
		in.new_idle = st_pb_available_idle(new_cpu);
	}
	v = st_prev_bias_decide(&in);
	if (v == ST_PB_STOCK || st_passthrough(cfg))
		return new_cpu;
	st_stat_inc(ST_STAT_PREV_BIAS_KEPT);
	if (v == ST_PB_KEEP_BUSY)
		st_stat_inc(ST_STAT_PREV_BIAS_KEPT_BUSY);
	return prev_cpu;
}

/* rq.cfs.avg.util_est's first u32 and rq.cpu_capacity, from BTF */
static const char *st_pb_layout(void)
{
	u32 cfs, avg, ue, ue_size, enq, ewma, size;

	if (st_layout_member("rq", "cfs", &cfs, &size) ||
	    st_layout_member("cfs_rq", "avg", &avg, &size) ||
	    st_layout_member("sched_avg", "util_est", &ue, &ue_size))
		return "no rq.cfs.avg.util_est in kernel BTF";
	if (ue_size == 8) {
		if (st_layout_member("util_est", "enqueued", &enq, &size) ||
		    enq || size != 4 ||
		    st_layout_member("util_est", "ewma", &ewma, &size) ||
		    ewma != 4 || size != 4)
			return "struct util_est is not { enqueued; ewma; } in kernel BTF";
		st_pb_util_est_pair = true;
	} else if (ue_size != 4) {
		return "sched_avg.util_est is neither a u32 nor a pair in kernel BTF";
	}
	/* the task's own, read through the headers the module was built with */
	if (sizeof(((struct sched_avg *)0)->util_est) != ue_size)
		return "sched_avg.util_est differs between kernel BTF and the headers";
	st_pb_rq_util_est_off = cfs + avg + ue;
	if (st_layout_member("rq", "cpu_capacity", &st_pb_rq_capacity_off, &size) ||
	    size != sizeof(unsigned long))
		return "no rq.cpu_capacity in kernel BTF";
	return NULL;
}

static int st_pb_probe(struct st_feature *f)
{
	const struct static_key *asym;
	s64 bit;

	if (st_placement_probe(f))
		return -EOPNOTSUPP;
	st_pb_runqueues = (char __percpu *)st_ksym("runqueues");
	if (!st_pb_runqueues) {
		f->reason = "per-CPU runqueues is missing";
		return -EOPNOTSUPP;
	}
	st_pb_sched_features = (unsigned int *)st_ksym("sysctl_sched_features");
	if (!st_pb_sched_features) {
		f->reason = "sysctl_sched_features is missing (sched features are constants here)";
		return -EOPNOTSUPP;
	}
	if (st_layout_enum("__SCHED_FEAT_UTIL_EST", &bit) || bit < 0 || bit >= 32) {
		f->reason = "no __SCHED_FEAT_UTIL_EST in kernel BTF";
		return -EOPNOTSUPP;
	}
	st_pb_util_est_bit = bit;
	st_pb_energy = st_ksym_key("sched_energy_present");
	asym = st_ksym_key("sched_asym_cpucapacity");
	if (!asym) {
		f->reason = "sched_asym_cpucapacity is missing";
		return -EOPNOTSUPP;
	}
	st_pb_asym_cpucap = asym;
	f->reason = st_pb_layout();
	return f->reason ? -EOPNOTSUPP : 0;
}

static const char *st_pb_status(bool *idle)
{
	*idle = false;
	if (st_key_on(st_pb_energy)) {
		*idle = true;
		return "energy-aware scheduling is on: the stock code places wakeups by energy";
	}
	if (st_key_on_found(st_pb_asym_cpucap)) {
		*idle = true;
		return "CPUs of asymmetric capacity: prev_bias leaves every wakeup to stock";
	}
	return NULL;
}

static bool st_pb_wanted(const struct st_config *cfg)
{
	return cfg->knob[ST_KNOB_PREV_BIAS];
}

struct st_feature st_prev_bias_feature = {
	.name = "prev_bias",
	.takes_over = "select_task_rq_fair:ftrace-wrap",
	.host = &st_ratelimit_feature,
	.probe = st_pb_probe,
	.wanted = st_pb_wanted,
	.status = st_pb_status,
	.stock_reason = "prev_bias=0",
};
