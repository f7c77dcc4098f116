// SPDX-License-Identifier: GPL-2.0
/*
 * prev_bias: Mathieu Desnoyers' "sched/fair: Introduce UTIL_FITS_CAPACITY
 * feature (v2)" and "sched/fair: Introduce SELECT_BIAS_PREV to reduce
 * migrations", both on,
 * https://lore.kernel.org/lkml/20231019160523.1582101-1-mathieu.desnoyers@efficios.com/
 * Before the idle scan, prev, the target or recent_used_cpu is taken when
 * idle or when the task fits what its CPU's runnable tasks leave of its
 * capacity; prev rather than a busy target when the scan finds nothing.
 * It judges stock's choice in select_rq.c's select_task_rq_fair()
 * wrapper (the facts: placement.c; the steps: policy/prev_bias.h).
 * Details: docs/features/prev_bias.md.
 *
 * Differs from the patch:
 *  - stock's scan still runs, its schedstats count stock's choice, and
 *    the CPUs are read after stock: select_idle_sibling() is inlined;
 *  - capacity is rq->cpu_capacity as last set, the task's utilization as
 *    last updated: scale_rt_capacity() and sync_entity_load_avg() are
 *    static in fair.c;
 *  - stock decides alone on asymmetric capacity and on clusters, where
 *    its result cannot tell how it chose, and under energy-aware
 *    scheduling, where find_energy_efficient_cpu() decides first.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/sched.h>

#include "sched_tune.h"
#include "sched_tune_trace.h"
#include "policy/prev_bias.h"
#include "placement.h"
#include "kernel/layout.h"

/* absent without CONFIG_ENERGY_MODEL, as ratelimit.c reads it */
static const struct static_key *st_pb_energy;

/* one wakeup: the CPUs of the patch's select_idle_sibling(), and S */
struct st_pb_wakeup {
	struct task_struct *p;
	int cpu, prev, new, recent, target;
	bool sync;
};

static bool st_pb_room(const struct st_pb_wakeup *w, int cpu)
{
	return st_place_choose_idle(cpu, w->p) || st_place_fits(w->p, cpu);
}

/* the fact st_prev_bias_decide() asks for */
static void st_pb_learn(struct st_prev_bias_in *in, int fact,
			struct st_pb_wakeup *w)
{
	switch (fact) {
	case ST_PB_F_PREV_ROOM:
		in->prev_room = st_pb_room(w, w->prev);
		break;
	case ST_PB_F_TARGET:
		w->target = st_target_from_llc(w->cpu, w->prev,
					       st_cpus_share_cache(w->cpu, w->new),
					       in->share_prev);
		if (w->target < 0)
			w->target = st_place_target(w->p, w->cpu, w->prev,
						    w->sync);
		in->target_apart = w->target != w->prev;
		in->new_is_target = w->target == w->new;
		in->recent_is_target = w->target == w->recent;
		break;
	case ST_PB_F_TARGET_ROOM:
		in->target_room = st_pb_room(w, w->target);
		break;
	case ST_PB_F_RECENT_ROOM:
		in->recent_room = st_pb_room(w, w->recent);
		break;
	case ST_PB_F_NEW_IDLE:
		in->new_idle = st_place_choose_idle(w->new, w->p);
		break;
	}
	in->known |= 1U << fact;
}

/**
 * st_prev_bias_select() - prev_bias's choice of CPU for a wakeup.
 * @cfg: the configuration the wakeup read
 * @p: the waking task
 * @prev_cpu: its previous CPU
 * @new_cpu: stock's choice
 * @recent: p->recent_used_cpu before stock ran
 * @wake_flags: select_task_rq_fair()'s
 *
 * Called only where st_prev_bias_on(), from select_rq.c's
 * select_task_rq_fair wrapper, after the rate limit.
 *
 * Context: Preemption disabled (a hook).
 * Return: the CPU to wake @p on; @new_cpu where stock's choice stands,
 * and under passthrough.
 */
int st_prev_bias_select(const struct st_config *cfg, struct task_struct *p,
			int prev_cpu, int new_cpu, int recent, int wake_flags)
{
	struct st_pb_wakeup w = {
		.p = p, .cpu = smp_processor_id(), .prev = prev_cpu,
		.new = new_cpu, .recent = recent, .target = -1,
	};
	struct st_prev_bias_in in = {
		.new_is_prev = new_cpu == prev_cpu,
		.share_prev = st_cpus_share_cache(prev_cpu, new_cpu),
		.recent_is_new = recent == new_cpu,
	};
	int v;

	/* called only when st_prev_bias_on(): the knob or passthrough */
	if (st_place_stand_aside())
		return new_cpu;
	st_stat_inc(ST_STAT_PREV_BIAS_CHECKED);
	in.recent_ok = recent != prev_cpu && (unsigned int)recent < nr_cpu_ids &&
		       st_cpus_share_cache(recent, new_cpu) &&
		       cpumask_test_cpu(recent, p->cpus_ptr);
	in.kthread_stack = st_place_kthread_stack(w.cpu, prev_cpu);
	w.sync = (wake_flags & ST_WF_SYNC) && !(current->flags & PF_EXITING);
	while ((v = st_prev_bias_decide(&in)) < 0)
		st_pb_learn(&in, -1 - v, &w);
	if (v == ST_PB_STOCK || st_passthrough(cfg))
		return new_cpu;
	switch (v) {
	case ST_PB_TARGET_ROOM:
		st_stat_inc(ST_STAT_PREV_BIAS_TARGET_ROOM);
		trace_sched_tune_prev_bias(p, prev_cpu, new_cpu, w.target,
					   ST_PB_TARGET_ROOM);
		return w.target;
	case ST_PB_RECENT_ROOM:
		st_stat_inc(ST_STAT_PREV_BIAS_RECENT_ROOM);
		trace_sched_tune_prev_bias(p, prev_cpu, new_cpu, recent,
					   ST_PB_RECENT_ROOM);
		return recent;
	case ST_PB_KEEP_BUSY:
		st_stat_inc(ST_STAT_PREV_BIAS_KEPT_BUSY);
		st_stat_inc(ST_STAT_PREV_BIAS_KEPT);
		trace_sched_tune_prev_bias(p, prev_cpu, new_cpu, prev_cpu,
					   ST_PB_KEEP_BUSY);
		return prev_cpu;
	default:
		st_stat_inc(ST_STAT_PREV_BIAS_KEPT);
		trace_sched_tune_prev_bias(p, prev_cpu, new_cpu, prev_cpu,
					   ST_PB_KEEP_ROOM);
		return prev_cpu;
	}
}

static int st_pb_probe(struct st_feature *f)
{
	if (st_placement_probe(f))
		return -EOPNOTSUPP;
	st_pb_energy = st_ksym_key("sched_energy_present");
	return 0;
}

static const char *st_pb_status(bool *idle)
{
	*idle = false;
	if (st_key_on(st_pb_energy)) {
		*idle = true;
		return "energy-aware scheduling is on: the stock code places wakeups by energy";
	}
	if (st_key_on_found(st_pl_asym_cpucap)) {
		*idle = true;
		return "CPUs of asymmetric capacity: prev_bias leaves every wakeup to stock";
	}
	if (st_key_on_found(st_pl_cluster)) {
		*idle = true;
		return "CPU clusters (sched_cluster_active): prev_bias leaves every wakeup to stock";
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
	.probe = st_pb_probe,
	.wanted = st_pb_wanted,
	.status = st_pb_status,
	.stock_reason = "prev_bias=0",
};
