// SPDX-License-Identifier: GPL-2.0
/*
 * eevdf: the tick-preemption counters and the 12 ms base slice of Daniel
 * Jordan's reply in the EEVDF thread (seed 001), and a slice that follows
 * the competition (eevdf_slice=scaled, the module's own),
 * https://lore.kernel.org/lkml/dlbtvvm5cewqzh5bcpl4cqhcwxmnnjb6pdle5jzywiiznlactd@cmhnpim42m3p/
 * task_tick_fair() is wrapped on 6.1, 6.12 and 7.3; the slice policy runs
 * on 6.12 and 7.3 (which tree: kernel/eevdf_tree.c).  Details, and the
 * patch hunk by hunk: docs/features/eevdf.md.
 *
 * Differs from the patch:
 *  - counts at the tick only: update_deadline() and entity_tick() are
 *    inlined, task_tick_fair() is the tick function every series keeps;
 *  - tells a renewal from the entity before and after the tick: 7.3's
 *    reweight_eevdf() also moves the deadline (reweight_deadline);
 *  - 7.3 counts the task's level only: only tasks have a deadline there;
 *  - 6.1 counts one tick_preempts for two levels in one tick:
 *    check_preempt_tick() is inlined, the second resched changes nothing;
 *  - sets the running task's slice at its renewal, never base_slice_ns:
 *    that is a debugfs file, gone under lockdown;
 *  - no slice policy on 6.1: CFS has no slice or deadline.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/version.h>

#include "sched_tune.h"
#include "scope.h"
#include "sched_tune_trace.h"
#include "policy/eevdf.h"
#include "kernel/eevdf_tree.h"
#include "hook/fhook.h"
#include "kernel/ksym.h"
#include "kernel/layout.h"

struct rq;

static void st_task_tick_fair(struct rq *rq, struct task_struct *curr,
			      int queued);

ST_KCALL_DEFINE(st_orig_task_tick_fair, st_task_tick_fair);

static struct st_fhook st_ev_hooks[] = {
	ST_FHOOK(task_tick_fair, st_task_tick_fair),
};

/* the count of entities the tick compares with 1, in struct cfs_rq */
static u32 st_ev_nr_off;
/* the slice policy may run here (its gate and its symbols) */
static bool st_ev_slice_ok;
static const char *st_ev_slice_reason;
#ifdef ST_HAVE_EEVDF
static unsigned int *st_ev_base_slice;	/* sysctl_sched_base_slice */
#endif

enum { ST_EV_RESCHED = 1, ST_EV_RESCHED_LAZY = 2 };

static inline unsigned int st_ev_resched_bits(struct task_struct *p)
{
	unsigned int bits = 0;

	if (test_tsk_thread_flag(p, TIF_NEED_RESCHED))
		bits |= ST_EV_RESCHED;
#ifdef TIF_NEED_RESCHED_LAZY
	if (test_tsk_thread_flag(p, TIF_NEED_RESCHED_LAZY))
		bits |= ST_EV_RESCHED_LAZY;
#endif
	return bits;
}

#ifdef CONFIG_FAIR_GROUP_SCHED
static inline char *st_ev_cfs_rq(const struct sched_entity *se)
{
	return (char *)se->cfs_rq;
}

static inline struct sched_entity *st_ev_parent(struct sched_entity *se)
{
	return se->parent;
}
#else
static inline char *st_ev_cfs_rq(const struct sched_entity *se)
{
	return NULL;
}

static inline struct sched_entity *st_ev_parent(struct sched_entity *se)
{
	return NULL;
}
#endif

/* Entities queued on the task's own cfs_rq, the running one included. */
static inline unsigned int st_ev_nr(const struct sched_entity *se)
{
	return READ_ONCE(*(unsigned int *)(st_ev_cfs_rq(se) + st_ev_nr_off));
}

#ifdef ST_HAVE_EEVDF

/* a slice was set since the last restore: only then is one due */
static bool st_ev_dirty;

/*
 * Levels of the hierarchy counted (the task's and its group entities'):
 * a deeper cgroup's entities above the eighth are not.
 */
#define ST_EV_LEVELS	8

struct st_ev_level {
	struct sched_entity *se;
	struct st_ev_request req;
};

static inline void st_ev_read(struct sched_entity *se, struct st_ev_request *r)
{
	r->deadline = se->deadline;
	r->vruntime = se->vruntime;
	r->weight = st_evt_weight(se);
	r->sum_exec = se->sum_exec_runtime;
}

/*
 * The entities whose update_deadline() the tick runs: on 6.12 one per
 * level, the task's and each group entity's above it (update_curr() at
 * every level of entity_tick()); on 7.3 the task's alone (update_curr()
 * gives only a task a deadline: one tree per CPU).
 */
static unsigned int st_ev_levels(struct sched_entity *se,
				 struct st_ev_level *lv)
{
	unsigned int n = 0;

	do {
		lv[n].se = se;
		st_ev_read(se, &lv[n].req);
		n++;
		if (!st_evt_group_slices())
			break;
		se = st_ev_parent(se);
	} while (se && n < ST_EV_LEVELS);
	return n;
}

static bool st_ev_applies(const struct st_config *cfg)
{
	return st_ev_slice_ok && !st_passthrough(cfg) &&
	       cfg->knob[ST_KNOB_EEVDF_SLICE] != ST_SLICE_STOCK;
}

/*
 * Only a running entity: it is out of the tree, so the tree's augment
 * stays right and the kernel puts it back with its new slice.  The
 * deadline just computed is stretched by the ratio of the slices
 * (vd = ve + r / w: the ratio needs no weight).  @p: the task of @se,
 * NULL for a group entity.
 */
static void st_ev_set_slice(struct task_struct *p, struct sched_entity *se,
			    u64 slice)
{
	trace_sched_tune_eevdf_slice(p, se->slice, slice);
	se->deadline = st_eevdf_deadline(se->vruntime, se->deadline,
					 se->slice, slice);
	se->slice = slice;
	if (!READ_ONCE(st_ev_dirty))
		WRITE_ONCE(st_ev_dirty, true);
	st_stat_inc(ST_STAT_EEVDF_SLICES_SET);
}

/*
 * Right after update_deadline() renewed the running task's request
 * with base_slice_ns.  A task with a sched_setattr() slice is left
 * alone.
 */
static void st_ev_apply(const struct st_config *cfg, struct task_struct *p,
			struct sched_entity *se)
{
	u64 base = READ_ONCE(*st_ev_base_slice);
	u64 slice;

	if (se->custom_slice)
		return;
	slice = st_eevdf_slice(cfg->knob[ST_KNOB_EEVDF_SLICE], base,
			       cfg->knob[ST_KNOB_EEVDF_SLICE_NS],
			       cfg->knob[ST_KNOB_EEVDF_LATENCY_NS],
			       st_evt_nr(se));
	if (slice != se->slice)
		st_ev_set_slice(p, se, slice);
}

/*
 * 6.12, right after update_deadline() renewed a running group entity's
 * request: the group's slice is the smallest queued below it, as
 * enqueue_task_fair() sets it, so that a group of tasks that never
 * sleep (no enqueue below it) competes with their slices too.
 */
static void st_ev_apply_group(struct sched_entity *se)
{
#ifdef CONFIG_FAIR_GROUP_SCHED
	u64 min = st_evt_min_slice((char *)se->my_q);

	if (min != ~0ULL && min != se->slice)
		st_ev_set_slice(NULL, se, min);
#endif
}

/*
 * Under the rq lock, interrupts off, as the scheduler tick runs.  The
 * seed counted in update_deadline(): check_deadline at each call,
 * update_deadline when the request was used up and renewed,
 * preempt_deadline when the renewal rescheduled (another entity queued
 * at that level).  The tick runs it at every level (6.12) or for the
 * task (7.3); we compare each level's entity before and after: a
 * deadline can also move by a reweight (7.3's reweight_eevdf() after
 * the tick, 6.12's reweight_entity() of a group entity), which renews
 * nothing (st_eevdf_renewed()).
 */
static void st_task_tick_fair(struct rq *rq, struct task_struct *curr,
			      int queued)
{
	const struct st_config *cfg = st_config_get();
	struct st_ev_level lv[ST_EV_LEVELS];
	unsigned int n = st_ev_levels(&curr->se, lv), i;
	bool apply;

	st_kcall(st_orig_task_tick_fair)(rq, curr, queued);

	apply = cfg && st_ev_applies(cfg) &&
		st_in_scope(cfg, ST_FEAT_EEVDF, curr);
	for (i = 0; i < n; i++) {
		struct sched_entity *se = lv[i].se;
		struct st_ev_request now;

		st_ev_read(se, &now);
		/* update_curr() runs update_deadline() only for time run */
		if (now.sum_exec == lv[i].req.sum_exec)
			continue;
		st_stat_inc(ST_STAT_CHECK_DEADLINE);
		if (!st_eevdf_renewed(&lv[i].req, &now, se->slice)) {
			if (now.deadline != lv[i].req.deadline)
				st_stat_inc(ST_STAT_REWEIGHT_DEADLINE);
			continue;
		}
		st_stat_inc(ST_STAT_UPDATE_DEADLINE);
		if (st_evt_nr(se) > 1) {
			st_stat_inc(ST_STAT_PREEMPT_DEADLINE);
			if (st_ev_resched_bits(curr) == ST_EV_RESCHED_LAZY)
				st_stat_inc(ST_STAT_PREEMPT_DEADLINE_LAZY);
		}
		if (!apply)
			continue;
		if (!i)
			st_ev_apply(cfg, curr, se);
		else
			st_ev_apply_group(se);
	}
}

/*
 * Every queued group entity above @se gets the smallest slice of its
 * queue again, bottom-up, as enqueue_task_fair() sets it; returns how
 * many changed.
 */
static unsigned long st_ev_fix_groups(struct sched_entity *se)
{
	unsigned long n = 0;
	u64 min;

	if (!IS_ENABLED(CONFIG_FAIR_GROUP_SCHED) || !st_evt_group_slices())
		return 0;
#ifdef CONFIG_FAIR_GROUP_SCHED
	for (se = se->parent; se && se->on_rq; se = se->parent) {
		min = st_evt_min_slice((char *)se->my_q);
		if (min == ~0ULL || se->slice == min)
			continue;
		se->slice = min;
		if (!st_evt_is_curr(se))
			st_evt_fix_augment(se);
		n++;
	}
#endif
	return n;
}

struct st_ev_restored {
	unsigned long tasks, groups;
	u64 longest;		/* ns, the longest call under the locks */
	unsigned int base;
};

/* task_call_func(), not exported */
typedef int st_ev_task_call_fn(struct task_struct *p, task_call_f func,
			       void *arg);
ST_KCALL_DEFINE(st_task_call_func, st_ev_task_call_fn);

/* Whether @p may hold a slice or a group slice of ours (a racy read). */
static bool st_ev_restore_due(struct task_struct *p, unsigned int base)
{
	const struct sched_entity *se = &p->se;

	if (READ_ONCE(se->on_rq) && st_evt_group_slices())
		return true;
	return !READ_ONCE(se->custom_slice) && READ_ONCE(se->slice) != base;
}

/*
 * Under task_call_func(): @p's pi_lock, and its rq lock when it is
 * queued or running (a blocked task cannot wake under the pi_lock).  A
 * task without a custom slice whose slice is not base_slice_ns gets
 * base_slice_ns: what the kernel gives it at its next request anyway (a
 * slice of ours, or one from before a change of base_slice_ns).  Then
 * the queued group entities above it get the smallest slice of their
 * queue again: a group is recomputed at each of its queued tasks, the
 * last time with every child final (each walk goes to the root).
 */
static int st_ev_restore_task(struct task_struct *p, void *arg)
{
	struct st_ev_restored *n = arg;
	struct sched_entity *se = &p->se;
	u64 t0 = local_clock(), t;

	if (!se->custom_slice && se->slice != n->base) {
		trace_sched_tune_eevdf_restore(p, se->slice, n->base);
		se->slice = n->base;
		if (se->on_rq && !st_evt_is_curr(se))
			st_evt_fix_augment(se);
		n->tasks++;
	}
	if (se->on_rq)
		n->groups += st_ev_fix_groups(se);
	t = local_clock() - t0;
	if (t > n->longest)
		n->longest = t;
	return 0;
}

/*
 * Called with the policy off: a tick that reads the new configuration
 * sets no slice, and a slice of ours only shrinks back to base_slice_ns
 * from there.  Each thread is visited once, under its own locks, so no
 * CPU is held for longer than one task's fix.  A thread forked during
 * the walk, or one the walk misses, gets base_slice_ns from
 * place_entity() when it is next enqueued.
 */
static void st_ev_restore(void)
{
	struct st_ev_restored n = { .base = READ_ONCE(*st_ev_base_slice) };
	struct task_struct *g, *p;
	u64 t0;

	if (!st_ev_slice_ok || !READ_ONCE(st_ev_dirty))
		return;
	WRITE_ONCE(st_ev_dirty, false);
	/* every tick hook that read the old configuration has returned */
	synchronize_rcu();
	t0 = local_clock();
	rcu_read_lock();
	for_each_process_thread(g, p)
		if (st_ev_restore_due(p, n.base))
			st_kcall(st_task_call_func)(p, st_ev_restore_task, &n);
	rcu_read_unlock();
	pr_debug("eevdf restore: %lu tasks, %lu group entities in %llu us, longest under the locks %llu ns\n",
		 n.tasks, n.groups, (local_clock() - t0) / NSEC_PER_USEC,
		 n.longest);
	this_cpu_add(st_stats.count[ST_STAT_EEVDF_SLICES_RESTORED], n.tasks);
	this_cpu_add(st_stats.count[ST_STAT_EEVDF_GROUP_SLICES_RESTORED],
		     n.groups);
}

static void st_ev_reconfigure(const struct st_config *old,
			      const struct st_config *cfg)
{
	/* a new scope: every slice back to stock, then the scope's again */
	if (st_ev_applies(old) &&
	    (!st_ev_applies(cfg) ||
	     old->scope[ST_FEAT_EEVDF] != cfg->scope[ST_FEAT_EEVDF]))
		st_ev_restore();
}

static const char *st_ev_nr_field(enum st_series series)
{
	/* 6.14 renamed cfs_rq.nr_running to nr_queued */
	return series == ST_SERIES_7_3 ? "nr_queued" : "nr_running";
}

#else /* 6.1: CFS */

/*
 * The seed counted in check_preempt_tick(), which entity_tick() runs at
 * every level whose cfs_rq has more than one entity (a queued hrtick
 * tick reschedules before it): tick_check_preempts per such level, and
 * tick_preempts per reschedule it asked.  check_preempt_tick() is
 * inlined and a second resched_curr() in one tick changes nothing, so
 * the reschedule a tick newly asked counts once, at the first level
 * that checked.
 */
static void st_task_tick_fair(struct rq *rq, struct task_struct *curr,
			      int queued)
{
	unsigned int before = st_ev_resched_bits(curr), checks = 0;
	struct sched_entity *se;

	if (!queued)
		for (se = &curr->se; se; se = st_ev_parent(se))
			checks += st_ev_nr(se) > 1;

	st_kcall(st_orig_task_tick_fair)(rq, curr, queued);

	if (!checks)
		return;
	this_cpu_add(st_stats.count[ST_STAT_TICK_CHECK_PREEMPTS], checks);
	if (st_ev_resched_bits(curr) & ~before)
		st_stat_inc(ST_STAT_TICK_PREEMPTS);
}

static void st_ev_restore(void)
{
}

static const char *st_ev_nr_field(enum st_series series)
{
	return "nr_running";
}

#define st_ev_reconfigure NULL

#endif /* ST_HAVE_EEVDF */

static const struct st_func_shape st_ev_shapes[] = {
	{ "task_tick_fair", "void (struct rq *, struct task_struct *, int)" },
};

#ifdef ST_HAVE_EEVDF
/* what the restore calls */
static const struct st_func_shape st_ev_slice_shapes[] = {
	{ "task_call_func", "int (struct task_struct *, task_call_f, void *)" },
};
#endif

static void st_ev_probe_slice(enum st_series series)
{
#ifndef ST_HAVE_EEVDF
	st_ev_slice_ok = false;
	st_ev_slice_reason = "the slice policy is for EEVDF (6.6+); this kernel runs CFS";
#else
	const char *why = NULL;

	st_ev_slice_ok = false;
	if (st_gate_check("eevdf_slice", &why) == ST_SERIES_UNCHECKED) {
		st_ev_slice_reason = why;
		return;
	}
	why = st_gate_shapes("eevdf", st_ev_slice_shapes,
			     ARRAY_SIZE(st_ev_slice_shapes));
	if (why) {
		st_ev_slice_reason = why;
		return;
	}
	if (st_kcall_bind_sym(st_task_call_func, "task_call_func")) {
		st_ev_slice_reason = "task_call_func is missing";
		return;
	}
	st_ev_base_slice = (unsigned int *)st_ksym("sysctl_sched_base_slice");
	if (!st_ev_base_slice) {
		st_ev_slice_reason = "sysctl_sched_base_slice is missing";
		return;
	}
	st_ev_slice_ok = true;
	st_ev_slice_reason = NULL;
#endif
}

static int st_ev_probe(struct st_feature *f)
{
	u32 size;
	int ret;

	f->reason = st_gate_shapes(f->name, st_ev_shapes,
				   ARRAY_SIZE(st_ev_shapes));
	if (f->reason)
		return -EOPNOTSUPP;
	if (!IS_ENABLED(CONFIG_FAIR_GROUP_SCHED)) {
		f->reason = "kernel built without CONFIG_FAIR_GROUP_SCHED (se->cfs_rq)";
		return -EOPNOTSUPP;
	}
	ret = st_fhook_resolve(&st_ev_hooks[0]);
	if (ret) {
		f->reason = ret == -ENOENT ? "task_tick_fair is missing" :
			    "task_tick_fair is not traceable";
		return -EOPNOTSUPP;
	}
	if (st_layout_member("cfs_rq", st_ev_nr_field(f->series),
			     &st_ev_nr_off, &size) || size != sizeof(unsigned int)) {
		f->reason = "struct cfs_rq has no 32-bit count of queued entities in kernel BTF";
		return -EOPNOTSUPP;
	}
#ifdef ST_HAVE_EEVDF
	/* the counters read each level's entity as the series keeps it */
	f->reason = st_evt_probe(f->series);
	if (f->reason)
		return -EOPNOTSUPP;
#endif
	st_ev_probe_slice(f->series);
	f->knob_reason = st_ev_slice_reason;
	st_fhook_bind_orig(st_orig_task_tick_fair, &st_ev_hooks[0]);
	return 0;
}

static bool st_ev_knob_supported(enum st_knob_id id)
{
	switch (id) {
	case ST_KNOB_EEVDF_SLICE:
	case ST_KNOB_EEVDF_SLICE_NS:
	case ST_KNOB_EEVDF_LATENCY_NS:
		return st_ev_slice_ok;
	default:
		return true;
	}
}

static bool st_ev_wanted(const struct st_config *cfg)
{
	return cfg->knob[ST_KNOB_EEVDF_COUNTERS] ||
	       cfg->knob[ST_KNOB_EEVDF_SLICE] != ST_SLICE_STOCK;
}

static const char *st_ev_status(bool *idle)
{
	switch (st_layout_scx()) {
	case ST_SCX_ALL:
		*idle = true;
		return "a sched_ext scheduler runs every task: no tick reaches task_tick_fair";
	case ST_SCX_SOME:
		return "a sched_ext scheduler is loaded: its tasks' ticks bypass task_tick_fair and are not counted";
	default:
		return st_ev_slice_ok ? NULL : st_ev_slice_reason;
	}
}

struct st_feature st_eevdf_feature = {
	.name = "eevdf",
	.takes_over = "task_tick_fair:ftrace-wrap",
	ST_FEATURE_HOOKS(st_ev_hooks),
	.probe = st_ev_probe,
	.wanted = st_ev_wanted,
	.quiesce = st_ev_restore,
	.reconfigure = st_ev_reconfigure,
	.status = st_ev_status,
	.knob_supported = st_ev_knob_supported,
	.stock_reason = "eevdf_counters=0 and eevdf_slice=stock",
};
