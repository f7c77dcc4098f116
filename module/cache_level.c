// SPDX-License-Identifier: GPL-2.0
/*
 * cache_level: which CPUs take a wakeup's remote runqueue lock directly
 * rather than queue it on the target's wakelist (an IPI).  Level l2 is
 * "sched: ttwu_queue_cond: perform queued wakeups across different L2
 * caches" (Mathieu Desnoyers, seed 002),
 * https://lore.kernel.org/lkml/20230817153515.143932-1-mathieu.desnoyers@efficios.com/
 * level none is TTWU_QUEUE_DEFAULT of "sched: Add ttwu_queue controls"
 * (Peter Zijlstra, seed 004),
 * https://lore.kernel.org/lkml/20250702121158.817814031@infradead.org/
 * The groups are the kernel's own masks, read live.  Details, and the
 * patches hunk by hunk: docs/features/cache_level.md.
 *
 * Differs from the patch:
 *  - ttwu_queue_wakelist() is taken over whole, the original run where
 *    stock and the level agree: ttwu_queue_cond() is inlined into it;
 *  - any idle target is queued, at every level: Debian's ttwu_queue_cond()
 *    tests !nr_running for both callers and has no WF_ON_CPU;
 *  - none: TTWU_QUEUE decides for both callers, no TTWU_QUEUE_ON_CPU: the
 *    on_cpu caller is try_to_wake_up(), which is not taken over;
 *  - two CPUs of one L2 in different sched domains stay queued, and 7.3's
 *    sched_ext tasks keep stock's decision: the module's choices.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/llist.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/topology.h>

#include "sched_tune.h"
#include "scope.h"
#include "sched_tune_trace.h"
#include "policy/cache_level.h"
#include "hook/fhook.h"
#include "kernel/ksym.h"
#include "kernel/layout.h"

static int __percpu *st_cl_llc_size;
static cpumask_var_t __percpu *st_cl_l2c_map;
static char __percpu *st_cl_runqueues;
static unsigned int *st_cl_sched_features;
static unsigned int st_cl_ttwu_queue_bit;
static u32 st_cl_nr_running_off;
static u32 st_cl_ttwu_pending_off;
static const void *st_cl_stop_class;
/* NULL unless the kernel has CONFIG_SCHED_CLASS_EXT */
static const void *st_cl_ext_class;

static bool st_ttwu_queue_wakelist(struct task_struct *p, int cpu,
				   int wake_flags);

ST_KCALL_DEFINE(st_orig_ttwu_queue_wakelist, st_ttwu_queue_wakelist);
ST_KCALL_DEFINE(st_smp_call_single_queue, __smp_call_single_queue);

static struct st_fhook st_cl_hooks[] = {
	ST_FHOOK(ttwu_queue_wakelist, st_ttwu_queue_wakelist),
};

static inline char *st_cl_rq(int cpu)
{
	return per_cpu_ptr(st_cl_runqueues, cpu);
}

/*
 * The tests of ttwu_queue_cond() before its cache test, and the
 * sched_feat(TTWU_QUEUE) of its caller: when one fails, neither stock nor
 * any level queues.  A task of a sched_ext scheduler (7.x; Debian's 6.12
 * has no sched_ext) always goes to the original, whose own test
 * (scx_allow_ttwu_queue on 7.3) decides for it.  6.1 lacks the
 * stop-class test, but we only ever use it to keep a wakeup with the
 * original, which is always correct.
 */
static bool st_cl_may_queue(struct task_struct *p, int cpu)
{
	const void *class = READ_ONCE(p->sched_class);

	if (!(READ_ONCE(*st_cl_sched_features) & (1U << st_cl_ttwu_queue_bit)))
		return false;
	if (class == st_cl_stop_class || (st_cl_ext_class && class == st_cl_ext_class))
		return false;
	return cpu_active(cpu) && cpumask_test_cpu(cpu, p->cpus_ptr);
}

static bool st_cl_mask_has(cpumask_var_t mask, int cpu)
{
	/* a never-onlined CPU's mask may be unallocated */
	return cpumask_available(mask) && cpumask_test_cpu(cpu, mask);
}

/*
 * The kernel's own masks, read live: cpu_l2c_shared_map (x86's
 * cpu_clustergroup_mask(), the CLS domain's) and cpu_sibling_map, which
 * the kernel allocates at boot, never frees and updates at hotplug.  A
 * torn read during hotplug picks queue or direct for one wakeup, and both
 * are correct once the CPU-active and affinity tests passed.
 */
static void st_cl_pair(struct st_wake_pair *w, int this_cpu, int cpu)
{
	st_wake_pair_classify(w, this_cpu, cpu,
			      st_llc_id(this_cpu),
			      st_llc_id(cpu),
			      st_cl_mask_has(*per_cpu_ptr(st_cl_l2c_map, this_cpu), cpu),
			      st_cl_mask_has(per_cpu(cpu_sibling_map, this_cpu), cpu));
	w->llc_size = *per_cpu_ptr(st_cl_llc_size, this_cpu);
	w->target_idle = !READ_ONCE(*(unsigned int *)(st_cl_rq(cpu) +
						      st_cl_nr_running_off));
}

/* The queue path of ttwu_queue_wakelist() and __ttwu_queue_wakelist(). */
static void st_cl_queue(struct task_struct *p, int cpu, int wake_flags)
{
	sched_clock_cpu(cpu); /* sync clocks across CPUs, as stock does */
	p->sched_remote_wakeup = !!(wake_flags & ST_WF_MIGRATED);
	WRITE_ONCE(*(unsigned int *)(st_cl_rq(cpu) + st_cl_ttwu_pending_off), 1);
	st_kcall(st_smp_call_single_queue)(cpu, &p->wake_entry.llist);
}

/*
 * A wakeup within one LLC, where the level may differ from stock.  Out of
 * line: its frame (and the stack canary st_wake_pair brings) stays off
 * the path of every other wakeup.
 */
static noinline bool st_cl_by_level(const struct st_config *cfg,
				    struct task_struct *p, int this_cpu,
				    int cpu, int wake_flags)
{
	unsigned int lvl = cfg->knob[ST_KNOB_CACHE_LEVEL];
	struct st_wake_pair w;
	bool stock, level;

	if (!st_cl_may_queue(p, cpu))
		goto orig;
	st_cl_pair(&w, this_cpu, cpu);
	stock = st_wake_queue(w.share_llc, &w);
	level = st_wake_queue(st_level_shares(lvl, &w,
					      cfg->knob[ST_KNOB_AUTO_LLC_MAX]),
			      &w);
	if (stock == level || st_passthrough(cfg) ||
	    !st_in_scope(cfg, ST_FEAT_CACHE_LEVEL, p))
		goto orig;
	if (level) {
		st_cl_queue(p, cpu, wake_flags);
		st_stat_inc(ST_STAT_TTWU_QUEUED_BY_LEVEL);
		trace_sched_tune_cache_level(p, cpu, true);
		return true;
	}
	st_stat_inc(ST_STAT_TTWU_DIRECT_BY_LEVEL);
	trace_sched_tune_cache_level(p, cpu, false);
	return false;
orig:
	return st_kcall(st_orig_ttwu_queue_wakelist)(p, cpu, wake_flags);
}

/*
 * Runs under p->pi_lock with interrupts off, as the original does.  A
 * wakeup on the same CPU or into another LLC, stock's at every level,
 * saves no register here (docs/hook-cost.md).  Where UBSAN_BOUNDS is on
 * (Debian's 7.3), its report of an index out of __per_cpu_offset[] is a
 * call, which gave every wakeup a frame of six registers: the index is
 * checked below instead, and the function is left uninstrumented.
 */
static bool __no_sanitize_undefined
st_ttwu_queue_wakelist(struct task_struct *p, int cpu, int wake_flags)
{
	const struct st_config *cfg = st_config_get();
	int this_cpu = smp_processor_id();
	unsigned int target = cpu;

	if (!cfg || cfg->knob[ST_KNOB_CACHE_LEVEL] == ST_LEVEL_LLC)
		goto orig;
	st_stat_inc(ST_STAT_TTWU_CHECKED);
	/* in place of UBSAN_BOUNDS' check of __per_cpu_offset[] */
	if (unlikely(target >= nr_cpu_ids))
		goto orig;
	/*
	 * Levels only narrow the LLC group (the unit tests check it at
	 * every level): a wakeup on the same CPU, or into another LLC, is
	 * stock's at every level.  Tested first, it is the cheap way out.
	 */
	if (this_cpu == cpu ||
	    st_llc_id_here() != st_llc_id(target))
		goto orig;
	return st_cl_by_level(cfg, p, this_cpu, cpu, wake_flags);
orig:
	return st_kcall(st_orig_ttwu_queue_wakelist)(p, cpu, wake_flags);
}

static int st_cl_percpu(const char *name, void __percpu **ptr)
{
	*ptr = (void __percpu *)st_ksym(name);
	return *ptr ? 0 : -ENOENT;
}

/* Returns why the feature cannot run here, or NULL. */
static const char *st_cl_resolve(void)
{
	u32 size;
	s64 bit;
	int ret;

	ret = st_fhook_resolve(&st_cl_hooks[0]);
	if (ret)
		return ret == -ENOENT ?
			"ttwu_queue_wakelist is missing (inlined?)" :
			"ttwu_queue_wakelist is not traceable";
	if (!ST_WF_MIGRATED)
		return "WF_MIGRATED unknown for this kernel version";
	if (!st_sd_llc_id ||
	    st_cl_percpu("sd_llc_size", (void __percpu **)&st_cl_llc_size))
		return "per-CPU sd_llc_id or sd_llc_size is missing";
	if (st_cl_percpu("cpu_l2c_shared_map", (void __percpu **)&st_cl_l2c_map))
		return "per-CPU cpu_l2c_shared_map (L2 groups) is missing";
	if (st_cl_percpu("runqueues", (void __percpu **)&st_cl_runqueues))
		return "per-CPU runqueues is missing";
	/* 6.x without CONFIG_SCHED_DEBUG makes sched_feat() a constant */
	st_cl_sched_features = (unsigned int *)st_ksym("sysctl_sched_features");
	if (!st_cl_sched_features)
		return "sysctl_sched_features is missing (sched features are constants here)";
	if (st_layout_enum("__SCHED_FEAT_TTWU_QUEUE", &bit) || bit < 0 || bit >= 32)
		return "no __SCHED_FEAT_TTWU_QUEUE in kernel BTF";
	st_cl_ttwu_queue_bit = bit;
	if (st_layout_member("rq", "nr_running", &st_cl_nr_running_off, &size) ||
	    size != sizeof(unsigned int))
		return "struct rq has no 32-bit nr_running in kernel BTF";
	if (st_layout_member("rq", "ttwu_pending", &st_cl_ttwu_pending_off, &size) ||
	    size != sizeof(unsigned int))
		return "struct rq has no 32-bit ttwu_pending in kernel BTF";
	st_cl_stop_class = (const void *)st_ksym("stop_sched_class");
	if (!st_cl_stop_class)
		return "stop_sched_class is missing";
	st_cl_ext_class = (const void *)st_ksym("ext_sched_class");
	if (st_kcall_bind_sym(st_smp_call_single_queue, "__smp_call_single_queue"))
		return "__smp_call_single_queue is missing";
	st_fhook_bind_orig(st_orig_ttwu_queue_wakelist, &st_cl_hooks[0]);
	return NULL;
}

static const struct st_func_shape st_cl_shapes[] = {
	{ "ttwu_queue_wakelist", "bool (struct task_struct *, int, int)" },
	{ "__smp_call_single_queue", "void (int, struct llist_node *)" },
};

static int st_cl_probe(struct st_feature *f)
{
	f->reason = st_gate_shapes(f->name, st_cl_shapes,
				   ARRAY_SIZE(st_cl_shapes)) ?: st_cl_resolve();
	return f->reason ? -EOPNOTSUPP : 0;
}

/* Real-time and deadline wakeups still take the level under sched_ext. */
static const char *st_cl_status(bool *idle)
{
	switch (st_layout_scx()) {
	case ST_SCX_ALL:
		return "a sched_ext scheduler runs every fair task: their wakeups keep the stock decision";
	case ST_SCX_SOME:
		return "a sched_ext scheduler is loaded: its tasks' wakeups keep the stock decision";
	default:
		return NULL;
	}
}

static bool st_cl_wanted(const struct st_config *cfg)
{
	return cfg->knob[ST_KNOB_CACHE_LEVEL] != ST_LEVEL_LLC;
}

struct st_feature st_cache_level_feature = {
	.name = "cache_level",
	.takes_over = "ttwu_queue_wakelist:ftrace-wrap",
	ST_FEATURE_HOOKS(st_cl_hooks),
	.probe = st_cl_probe,
	.wanted = st_cl_wanted,
	.status = st_cl_status,
	.stock_reason = "cache_share_level=llc",
};
