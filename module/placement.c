// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler facts prev_bias and sync_short judge a wakeup on
 * (placement.h), read as kernel/sched/fair.c computes them: the same in
 * Debian's 6.1.192, 6.12.95 and 7.3.4 where not said otherwise.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/topology.h>

#include "sched_tune.h"
#include "placement.h"
#include "policy/prev_bias.h"

/* kernel/sched/pelt.h from v6.9; include/linux/sched.h before */
#ifndef UTIL_AVG_UNCHANGED
#define UTIL_AVG_UNCHANGED	0x80000000
#endif

struct st_place_layout st_pl;
const struct static_key *st_pl_asym_cpucap = &st_key_never;
const struct static_key *st_pl_cluster = &st_key_never;
const struct static_key *st_pl_smt = &st_key_never;

ST_KCALL_DEFINE(st_place_idle_cpu, int (int));

static const struct st_func_shape st_place_shapes[] = {
	{ "idle_cpu", "int (int)" },
};

static unsigned long st_rq_ulong(int cpu, u32 off)
{
	return READ_ONCE(*(const unsigned long *)(st_rq(cpu) + off));
}

/*
 * sched_idle_cpu() (7.x: choose_sched_idle_rq(), which a SCHED_IDLE
 * wakee may not choose): only SCHED_IDLE tasks runnable there.
 */
static bool st_place_sched_idle(int cpu, struct task_struct *p)
{
	unsigned int nr = st_rq_nr_running(cpu);

	if (!nr || nr != st_rq_u32(cpu, st_pl.rq_cfs + st_pl.cfs_idle))
		return false;
	return !ST_SCHED_IDLE_RQ_NOT_FOR_IDLE ||
	       p->policy != SCHED_IDLE;
}

/**
 * st_place_choose_idle() - Whether select_idle_sibling() takes a CPU as idle.
 * @cpu: the CPU
 * @p: the waking task
 *
 * Return: available_idle_cpu() || sched_idle_cpu(), select_idle_sibling()'s
 * test.
 */
bool st_place_choose_idle(int cpu, struct task_struct *p)
{
	return st_place_available_idle(cpu) || st_place_sched_idle(cpu, p);
}

/* _task_util_est() and task_util_est() of kernel/sched/fair.c */
static unsigned long st_place_task_util_est(struct task_struct *p)
{
	const u32 *ue = (const u32 *)&p->se.avg.util_est;
	unsigned long est = READ_ONCE(ue[0]) & ~UTIL_AVG_UNCHANGED;

	if (st_pl.util_est_pair)
		est = max_t(unsigned long, est, READ_ONCE(ue[1]));
	return max_t(unsigned long, READ_ONCE(p->se.avg.util_avg), est);
}

/**
 * st_place_fits() - task_fits_remaining_cpu_capacity() of UTIL_FITS_CAPACITY.
 * @p: the waking task
 * @cpu: the CPU
 *
 * Return: whether the CPU's runnable util_est and the task's are under 80%
 * of its capacity, with the UTIL_EST sched feature on
 * (sched_util_fits_capacity_active()); false with it off.
 */
bool st_place_fits(struct task_struct *p, int cpu)
{
	u32 cpu_est;

	if (!st_sched_feat(st_pl.util_est))
		return false;
	cpu_est = st_rq_u32(cpu, st_pl.rq_cfs + st_pl.cfs_util_est);
	return st_util_fits_capacity(cpu_est & ~UTIL_AVG_UNCHANGED,
				     st_place_task_util_est(p),
				     st_rq_ulong(cpu, st_pl.rq_capacity));
}

/*
 * task_h_load(): the task's share of its CPU's load through its groups,
 * from the h_load its cfs_rq had computed this jiffy (stock's
 * wake_affine_weight() has just done so).
 */
static u64 st_place_task_h_load(struct task_struct *p)
{
	u64 load = READ_ONCE(p->se.avg.load_avg);
#ifdef CONFIG_FAIR_GROUP_SCHED
	const char *cfs_rq = (const char *)READ_ONCE(p->se.cfs_rq);
	u64 h_load, cfs_load;

	if (!cfs_rq)
		return load;
	h_load = READ_ONCE(*(const unsigned long *)(cfs_rq + st_pl.cfs_h_load));
	cfs_load = READ_ONCE(*(const unsigned long *)(cfs_rq + st_pl.cfs_load_avg));
	load = div64_u64(load * h_load, cfs_load + 1);
#endif
	return load;
}

/* The lowest of @cpu's domains that holds @prev, if it is SD_WAKE_AFFINE. */
static const struct sched_domain *st_place_affine_sd(int cpu, int prev)
{
	const struct sched_domain *sd;

	sd = rcu_dereference_sched(*(struct sched_domain __rcu **)(st_rq(cpu) + st_pl.rq_sd));
	for (; sd; sd = rcu_dereference_sched(sd->parent))
		if ((sd->flags & SD_WAKE_AFFINE) &&
		    cpumask_test_cpu(prev, sched_domain_span((struct sched_domain *)sd)))
			return sd;
	return NULL;
}

static unsigned int st_place_this_nr(int cpu)
{
	unsigned int nr = st_rq_nr_running(cpu);

	/* cfs_h_nr_delayed() of 6.12 and 7.3: h_nr_queued - h_nr_runnable */
	if (st_pl.cfs_queued)
		nr -= st_rq_u32(cpu, st_pl.rq_cfs + st_pl.cfs_queued) -
		      st_rq_u32(cpu, st_pl.rq_cfs + st_pl.cfs_runnable);
	return nr;
}

/**
 * st_place_target() - The target wake_affine() left select_idle_sibling().
 * @p: the waking task
 * @cpu: the waker's CPU
 * @prev: @p's previous CPU
 * @sync: a sync wakeup (WF_SYNC, the waker not exiting)
 *
 * Computed after stock ran: want_affine on the wakee flips its
 * record_wakee() left, the first domain of the waker's CPU that holds prev
 * with SD_WAKE_AFFINE, then wake_affine().  No domain has SD_BALANCE_WAKE
 * on these kernels (sd_init() builds them with 0*SD_BALANCE_WAKE), so the
 * slow path is never taken for a wakeup.
 *
 * Context: Preemption off.
 * Return: @cpu or @prev, as wake_affine() chose.
 */
int st_place_target(struct task_struct *p, int cpu, int prev, bool sync)
{
	struct st_affine_idle_in idle = { .sync = sync };
	struct st_affine_weight_in w = { .sync = sync };
	const struct sched_domain *sd;
	enum st_affine a = ST_AFFINE_NONE;

	if (cpu == prev || !cpumask_test_cpu(cpu, p->cpus_ptr) ||
	    st_wake_wide(current->wakee_flips, p->wakee_flips,
			 *this_cpu_ptr(st_pl.llc_size)))
		return prev;
	sd = st_place_affine_sd(cpu, prev);
	if (!sd)
		return prev;
	if (st_sched_feat(st_pl.wa_idle)) {
		idle.this_idle = st_place_available_idle(cpu);
		idle.prev_idle = st_place_available_idle(prev);
		idle.share_cache = st_cpus_share_cache(cpu, prev);
		idle.this_nr = st_place_this_nr(cpu);
		a = st_wake_affine_idle(&idle);
	}
	if (a == ST_AFFINE_NONE && st_sched_feat(st_pl.wa_weight)) {
		w.this_load = st_rq_ulong(cpu, st_pl.rq_cfs + st_pl.cfs_load_avg);
		w.prev_load = st_rq_ulong(prev, st_pl.rq_cfs + st_pl.cfs_load_avg);
		if (sync)
			w.current_load = st_place_task_h_load(current);
		w.task_load = st_place_task_h_load(p);
		w.this_cap = st_rq_ulong(cpu, st_pl.rq_capacity);
		w.prev_cap = st_rq_ulong(prev, st_pl.rq_capacity);
		w.imbalance_pct = sd->imbalance_pct;
		w.bias = st_sched_feat(st_pl.wa_bias);
		if (st_wake_affine_weight(&w))
			a = ST_AFFINE_THIS;
	}
	return a == ST_AFFINE_THIS ? cpu : prev;
}

static int st_place_member(const char *type, const char *member, u32 *off,
			   u32 size)
{
	u32 got;

	return st_layout_member(type, member, off, &got) || got != size;
}

static int st_place_feat(const char *name, u8 *bit)
{
	s64 v;

	if (st_layout_enum(name, &v) || v < 0 || v >= 32)
		return -ENOENT;
	*bit = v;
	return 0;
}

/* rq.cfs.avg.util_est's first u32 and the rest, from BTF */
static const char *st_place_layout(void)
{
	u32 avg, ue, ue_size, enq, ewma, size;

	if (st_place_member("rq", "nr_running", &st_pl.rq_nr_running, 4) ||
	    st_place_member("rq", "cpu_capacity", &st_pl.rq_capacity,
			    sizeof(unsigned long)) ||
	    st_place_member("rq", "sd", &st_pl.rq_sd, sizeof(void *)))
		return "no rq.nr_running, rq.cpu_capacity or rq.sd in kernel BTF";
	if (st_layout_member("rq", "cfs", &st_pl.rq_cfs, &size) ||
	    st_layout_member("cfs_rq", "avg", &avg, &size) ||
	    st_layout_member("sched_avg", "util_est", &ue, &ue_size))
		return "no rq.cfs.avg.util_est in kernel BTF";
	if (ue_size == 8) {
		if (st_layout_member("util_est", "enqueued", &enq, &size) ||
		    enq || size != 4 ||
		    st_layout_member("util_est", "ewma", &ewma, &size) ||
		    ewma != 4 || size != 4)
			return "struct util_est is not { enqueued; ewma; } in kernel BTF";
		st_pl.util_est_pair = true;
	} else if (ue_size != 4) {
		return "sched_avg.util_est is neither a u32 nor a pair in kernel BTF";
	}
	/* the task's own, read through the headers the module was built with */
	if (sizeof(((struct sched_avg *)0)->util_est) != ue_size ||
	    offsetof(struct sched_avg, util_est) != ue)
		return "sched_avg.util_est differs between kernel BTF and the headers";
	st_pl.cfs_util_est = avg + ue;
	st_pl.cfs_load_avg = avg + offsetof(struct sched_avg, load_avg);
	if (st_place_member("cfs_rq", "h_load", &st_pl.cfs_h_load,
			    sizeof(unsigned long)))
		return "no cfs_rq.h_load in kernel BTF";
	if (st_place_member("cfs_rq", "idle_h_nr_running", &st_pl.cfs_idle, 4) &&
	    st_place_member("cfs_rq", "h_nr_idle", &st_pl.cfs_idle, 4))
		return "no cfs_rq.idle_h_nr_running or h_nr_idle in kernel BTF";
	/* 6.12 on: delayed-dequeue tasks, left out of wake_affine_idle()'s count */
	if (ST_DELAYED_DEQUEUE &&
	    (st_place_member("cfs_rq", "h_nr_queued", &st_pl.cfs_queued, 4) ||
	     st_place_member("cfs_rq", "h_nr_runnable", &st_pl.cfs_runnable, 4)))
		return "no cfs_rq.h_nr_queued or h_nr_runnable in kernel BTF";
	if (st_place_feat("__SCHED_FEAT_WA_IDLE", &st_pl.wa_idle) ||
	    st_place_feat("__SCHED_FEAT_WA_WEIGHT", &st_pl.wa_weight) ||
	    st_place_feat("__SCHED_FEAT_WA_BIAS", &st_pl.wa_bias) ||
	    st_place_feat("__SCHED_FEAT_UTIL_EST", &st_pl.util_est))
		return "no WA_IDLE, WA_WEIGHT, WA_BIAS or UTIL_EST sched feature in kernel BTF";
	return NULL;
}

/**
 * st_placement_probe() - Resolve what prev_bias and sync_short need.
 * @f: the feature probing: prev_bias or sync_short
 *
 * Once for both: their host supported, idle_cpu() gated and bound, the
 * per-CPU data and the keys select_idle_sibling() reads, the layout
 * (st_pl).
 *
 * Return: 0, or -EOPNOTSUPP with @f->reason set.
 */
int st_placement_probe(struct st_feature *f)
{
	const struct static_key *asym, *smt;

	if (!f->host->supported) {
		f->reason = "ratelimit, whose hook it decides in, is unsupported";
		return -EOPNOTSUPP;
	}
	f->reason = st_gate_shapes(f->name, st_place_shapes,
				   ARRAY_SIZE(st_place_shapes));
	if (f->reason)
		return -EOPNOTSUPP;
	if (st_kcall_bind_sym(st_place_idle_cpu, "idle_cpu")) {
		f->reason = "idle_cpu is missing";
		return -EOPNOTSUPP;
	}
	if (!st_sd_llc_id) {
		f->reason = "per-CPU sd_llc_id (cpus_share_cache's) is missing";
		return -EOPNOTSUPP;
	}
	st_pl.runqueues = (char __percpu *)st_ksym("runqueues");
	st_pl.llc_size = (const int __percpu *)st_ksym("sd_llc_size");
	st_pl.sched_features = (unsigned int *)st_ksym("sysctl_sched_features");
	if (!st_pl.runqueues || !st_pl.llc_size || !st_pl.sched_features) {
		f->reason = "runqueues, sd_llc_size or sysctl_sched_features is missing";
		return -EOPNOTSUPP;
	}
	asym = st_ksym_key("sched_asym_cpucapacity");
	smt = st_ksym_key("sched_smt_present");
	if (!asym || !smt) {
		f->reason = "sched_asym_cpucapacity or sched_smt_present is missing";
		return -EOPNOTSUPP;
	}
	st_pl_asym_cpucap = asym;
	st_pl_smt = smt;
	/* 6.1 has no cluster step in select_idle_sibling() */
	st_pl_cluster = st_ksym_key_or_never("sched_cluster_active");
	f->reason = st_place_layout();
	return f->reason ? -EOPNOTSUPP : 0;
}
