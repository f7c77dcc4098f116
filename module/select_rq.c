// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks on select_task_rq_fair() and migrate_task_rq_fair(), and the
 * features that decide in them, in this order:
 *  - ratelimit (ratelimit.c), whose hooks these are: migrate_task_rq_fair
 *    is hooked for it alone, and a limited task returns prev_cpu first;
 *  - prev_bias (prev_bias.c), then sync_short (sync_short.c, inline from
 *    sync_short.h), on the CPU stock chose: select_idle_sibling() is
 *    inlined on every kernel here, so they judge its result.
 * The first that changes stock's choice decides, and is the only one to
 * count the wakeup as its own.  The hooks go in while any of them asks for
 * them (st_feature.guests); the features' own files never call back here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/sched.h>

#include "ratelimit.h"
#include "sched_tune.h"
#include "scope.h"
#include "sync_short.h"
#include "policy/prev_bias.h"
#include "test_inject.h"
#include "hook/fhook.h"
#include "kernel/ksym.h"
#include "kernel/layout.h"

static unsigned int st_wf_ttwu;

static int st_select_task_rq_fair(struct task_struct *p, int prev_cpu,
				  int wake_flags);

ST_KCALL_DEFINE(st_orig_select_task_rq_fair, st_select_task_rq_fair);

/* Stamp first, so a task is never checked against a missing stamp. */
enum { ST_SEL_HOOK_MIGRATE, ST_SEL_HOOK_SELECT };
static struct st_fhook st_select_hooks[] = {
	[ST_SEL_HOOK_MIGRATE] = ST_FHOOK(migrate_task_rq_fair,
					 st_migrate_task_rq_fair),
	[ST_SEL_HOOK_SELECT] = ST_FHOOK(select_task_rq_fair,
					st_select_task_rq_fair),
};

/* the features that decide in the rate limit's hooks, after it */
static struct st_feature *const st_select_guests[] = {
	&st_prev_bias_feature,
	&st_sync_short_feature,
	NULL
};

/* ST_PLACE_* of the placement features that judge @p's wakeup */
static __always_inline unsigned int st_placement(const struct st_config *cfg,
						 struct task_struct *p)
{
	unsigned int placement = cfg->placement;

	if (static_branch_unlikely(&st_scope_key) && placement) {
		if (!st_in_scope(cfg, ST_FEAT_PREV_BIAS, p))
			placement &= ~ST_PLACE_PREV_BIAS;
		if (!st_in_scope(cfg, ST_FEAT_SYNC_SHORT, p))
			placement &= ~ST_PLACE_SYNC_SHORT;
	}
	return placement;
}

/*
 * The rate limit left the wakeup to stock: the placement features judge
 * its choice in turn, and the first that changes it decides.
 * @placement: st_placement()'s, not 0.
 * @wakee_avg: sync_short's duration of @p, recorded on entry.
 */
static __always_inline int st_place(const struct st_config *cfg,
				    unsigned int placement,
				    struct task_struct *p, int prev_cpu,
				    int wake_flags, u64 wakee_avg)
{
	/* stock's select_idle_sibling() makes it prev */
	int recent = READ_ONCE(p->recent_used_cpu);
	unsigned int ss = 0;
	int new_cpu, cpu;

	if (placement & ST_PLACE_SYNC_SHORT)
		ss = st_sync_short_pre(p, wake_flags, wakee_avg);
	new_cpu = st_kcall(st_orig_select_task_rq_fair)(p, prev_cpu, wake_flags);
	if ((placement & ST_PLACE_PREV_BIAS) &&
	    !st_prev_bias_stock_kept(prev_cpu, new_cpu, recent,
				     st_cpus_share_cache(recent, new_cpu))) {
		cpu = st_prev_bias_select(cfg, p, prev_cpu, new_cpu, recent,
					  wake_flags);
		if (cpu != new_cpu)
			return cpu;
	}
	return st_sync_short_select(cfg, p, prev_cpu, new_cpu, recent,
				    wake_flags, ss);
}

/* Its task migrated within the window: it may be limited. */
static noinline int st_rl_select(const struct st_config *cfg,
				 struct task_struct *p, int prev_cpu,
				 int wake_flags, unsigned long now,
				 u64 wakee_avg)
{
	unsigned int placement;

	if (st_rl_keeps_prev(cfg, p, prev_cpu, now))
		return prev_cpu;
	placement = st_placement(cfg, p);
	if (placement)
		return st_place(cfg, placement, p, prev_cpu, wake_flags,
				wakee_avg);
	return st_kcall(st_orig_select_task_rq_fair)(p, prev_cpu, wake_flags);
}

/*
 * The placement features and the rate limit's first test are inline here,
 * its clock check out of line: with every feature on and every decision
 * stock's, a wakeup makes no call into the module's own functions
 * (docs/hook-cost.md).
 */
static int st_select_task_rq_fair(struct task_struct *p, int prev_cpu,
				  int wake_flags)
{
	const struct st_config *cfg = st_config_get();
	unsigned int placement;
	u64 wakee_avg = 0;

	/*
	 * The patch decides after the WF_CURRENT_CPU and energy-aware
	 * returns; with either in play the stock path decides alone.
	 */
	if (!cfg || !st_rl_wakeup_judged(wake_flags, st_wf_ttwu,
					 ST_WF_CURRENT_CPU, st_rl_eas_enabled))
		goto stock;

	st_stat_inc(ST_STAT_RL_CHECKED);
	/* each wakeup judged here is a duration, whoever places it */
	if (st_sync_short_on(cfg))
		wakee_avg = st_sync_short_track(p);
	/* window 0: hooked for the placement features alone */
	if (cfg->rl.window) {
		unsigned long now = jiffies;

		if (st_rl_may_be_limited(p, now) &&
		    st_in_scope(cfg, ST_FEAT_RATELIMIT, p))
			return st_rl_select(cfg, p, prev_cpu, wake_flags, now,
					    wakee_avg);
	}
	placement = st_placement(cfg, p);
	if (placement)
		return st_place(cfg, placement, p, prev_cpu, wake_flags,
				wakee_avg);
stock:
	return st_kcall(st_orig_select_task_rq_fair)(p, prev_cpu, wake_flags);
}

static const struct st_func_shape st_select_shapes[] = {
	{ "select_task_rq_fair", "int (struct task_struct *, int, int)" },
	{ "migrate_task_rq_fair", "void (struct task_struct *, int)" },
};

/* The hooks, what the wrapper reads, then the rate limit's own. */
static int st_select_probe(struct st_feature *f)
{
	s64 ttwu;
	int i, ret;

	st_inject_init();
	f->reason = st_gate_shapes(f->name, st_select_shapes,
				   ARRAY_SIZE(st_select_shapes));
	if (f->reason)
		return -EOPNOTSUPP;

	for (i = 0; i < ARRAY_SIZE(st_select_hooks); i++) {
		ret = st_fhook_resolve(&st_select_hooks[i]);
		if (ret) {
			f->reason = ret == -ENOENT ?
				"select_task_rq_fair or migrate_task_rq_fair is missing" :
				"select_task_rq_fair or migrate_task_rq_fair is not traceable";
			return -EOPNOTSUPP;
		}
	}
	if (st_layout_enum("SD_BALANCE_WAKE", &ttwu) || ttwu <= 0) {
		f->reason = "no SD_BALANCE_WAKE (WF_TTWU) in kernel BTF";
		return -EOPNOTSUPP;
	}
	st_wf_ttwu = ttwu;
	ret = st_rl_probe(f);
	if (ret)
		return ret;
	st_fhook_bind_orig(st_orig_select_task_rq_fair,
			   &st_select_hooks[ST_SEL_HOOK_SELECT]);
	st_fhook_bind_orig(st_orig_migrate_task_rq_fair,
			   &st_select_hooks[ST_SEL_HOOK_MIGRATE]);
	return 0;
}

struct st_feature st_ratelimit_feature = {
	.name = "ratelimit",
	.takes_over = "select_task_rq_fair:ftrace-wrap,migrate_task_rq_fair:ftrace-wrap",
	ST_FEATURE_HOOKS(st_select_hooks),
	.guests = st_select_guests,
	.probe = st_select_probe,
	.release = st_rl_release,
	.wanted = st_rl_wanted,
	.prepare = st_rl_forget,
	.reconfigure = st_rl_reconfigure,
	.status = st_rl_status,
	.stock_reason = "ratelimit_window_ns=0",
};
