/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHED_TUNE_H
#define SCHED_TUNE_H

#include <linux/bits.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>

#include "policy/knob.h"
#include "policy/ratelimit.h"
#include "kernel/gate.h"
#include "kernel/ksym.h"

struct cgroup;

/*
 * The whole configuration, replaced as one RCU-published copy so that a
 * hook reads either the old or the new one, never a mix.
 */
struct st_config {
	u64 knob[ST_NR_KNOBS];
	struct st_rl_params rl;
	/* the window in jiffies, rounded up: when a stamp surely expired */
	unsigned long rl_window_jiffies;
	/* ST_PLACE_*: the placement features that judge wakeups */
	unsigned int placement;
	/* each feature's scope (scope.h), NULL for every task */
	struct cgroup *scope[ST_NR_FEATURES];
	struct rcu_head rcu;
};

#define ST_PLACE_PREV_BIAS	BIT(0)
#define ST_PLACE_SYNC_SHORT	BIT(1)

extern struct st_config __rcu *st_config;

/**
 * st_config_get() - The published configuration, as a hook reads it.
 *
 * Context: A hook: preemption disabled, which is an RCU read side.
 * Return: the configuration, or NULL while none is published.
 */
static __always_inline const struct st_config *st_config_get(void)
{
	return rcu_dereference_sched(st_config);
}

enum st_feature_state {
	ST_STATE_ACTIVE,
	/* hooks installed, but the kernel's state leaves them nothing to do */
	ST_STATE_IDLE,
	ST_STATE_INACTIVE,
	ST_STATE_UNSUPPORTED,
	ST_NR_STATES
};

struct st_fhook;

struct st_feature {
	const char *name;
	/* "function:mechanism" for each kernel function it takes over */
	const char *takes_over;
	/* installed and removed as one, in array order */
	struct st_fhook *hooks;
	unsigned int nr_hooks;
	/* resolves what the feature needs; sets reason when it cannot */
	int (*probe)(struct st_feature *f);
	/* frees what probe set up, also after a failed probe */
	void (*release)(void);
	/* whether these knob values ask for non-stock behaviour */
	bool (*wanted)(const struct st_config *cfg);
	/* optional: before the hooks go in, and after they are out */
	void (*prepare)(void);
	void (*quiesce)(void);
	/* optional: knob values changed while installed */
	void (*reconfigure)(const struct st_config *old,
			    const struct st_config *cfg);
	/*
	 * optional, while installed: why the hooks have nothing to do
	 * (returns non-NULL and sets *idle) or a note on what they skip
	 */
	const char *(*status)(bool *idle);
	/*
	 * optional: false for a knob of this feature that this kernel
	 * cannot honour although the feature is supported: it then keeps
	 * its stock value, as the knobs of an unsupported feature do
	 */
	bool (*knob_supported)(enum st_knob_id id);
	/* why, when knob_supported refuses a knob */
	const char *knob_reason;
	/* why the feature is inactive while supported and enabled */
	const char *stock_reason;
	const char *reason;
	/*
	 * optional, NULL-terminated: the features that decide inside this
	 * one's hooks (one ftrace hook per function).  They have no hooks
	 * of their own, the hooks go in while any of them wants them, and
	 * they are unsupported whenever this one is.
	 */
	struct st_feature *const *guests;
	/* the feature whose guests list this one; set by st_core_init() */
	struct st_feature *host;
	/* the kernel series the support gate matched */
	enum st_series series;
	/* why a function was refused at install: the feature then refuses */
	char busy_reason[128];
	bool supported;
	bool installed;
};

#define ST_FEATURE_HOOKS(_hooks)					\
	.hooks = (_hooks), .nr_hooks = ARRAY_SIZE(_hooks)

extern struct st_feature st_ratelimit_feature;
extern struct st_feature st_cache_level_feature;
extern struct st_feature st_numa_scan_feature;
extern struct st_feature st_eevdf_feature;
extern struct st_feature st_prev_bias_feature;
extern struct st_feature st_sync_short_feature;

/* core.c, for main.c and sysfs.c: the features, which no feature calls */
int st_core_init(const u64 *initial, const unsigned long *given,
		 const char *const *scopes);
void st_core_exit(void);
int st_knob_store(enum st_knob_id id, u64 val);
int st_scope_store(int i, const char *path);
int st_features_show(char *buf, size_t size);
const char *st_feature_name(int i);
int st_feature_show(int i, const char *what, char *buf, size_t size);

/* config.c: what the hooks read and count */
u64 st_knob_value(enum st_knob_id id);

/* passthrough=1: hooks in, decisions computed, none applied */
static inline bool st_passthrough(const struct st_config *cfg)
{
	return cfg->knob[ST_KNOB_PASSTHROUGH];
}

/* ST_STAT_<id> of each entry of counters.h, in its order */
enum st_stat_id {
#define ST_STAT(id, ...)	ST_STAT_##id,
#include "counters.h"
	ST_NR_STATS
};

struct st_stats {
	u64 count[ST_NR_STATS];
};

DECLARE_PER_CPU(struct st_stats, st_stats);
extern const char *const st_stat_names[ST_NR_STATS];

/* One more of counter @id, on this CPU's count */
static __always_inline void st_stat_inc(enum st_stat_id id)
{
	this_cpu_inc(st_stats.count[id]);
}

u64 st_stat_sum(enum st_stat_id id);
void st_stats_reset(void);

/*
 * The placement features that decide in select_rq.c's select_task_rq_fair
 * wrapper, after the rate limit: prev_bias.c, then sync_short.c (inline,
 * sync_short.h).
 */
int st_prev_bias_select(const struct st_config *cfg, struct task_struct *p,
			int prev_cpu, int new_cpu, int recent, int wake_flags);

/**
 * st_prev_bias_on() - Whether prev_bias judges this wakeup.
 * @cfg: the configuration the wakeup read
 *
 * Its knob or passthrough, and the feature supported, as of the config's
 * publication (core.c publishes a new one when a feature goes
 * unsupported).  One test of the config, as the wakeup path reads it.
 *
 * Return: true if prev_bias judges the wakeup.
 */
static inline bool st_prev_bias_on(const struct st_config *cfg)
{
	return cfg->placement & ST_PLACE_PREV_BIAS;
}

/**
 * st_sync_short_on() - Whether sync_short judges this wakeup.
 * @cfg: the configuration the wakeup read
 *
 * As st_prev_bias_on(), for sync_short.
 *
 * Return: true if sync_short judges the wakeup.
 */
static inline bool st_sync_short_on(const struct st_config *cfg)
{
	return cfg->placement & ST_PLACE_SYNC_SHORT;
}

/* debugfs sched_tune/ratelimit_table (ratelimit.c) */
int st_rl_table_show(char *buf, size_t size);

int st_sysfs_init(void);
void st_sysfs_exit(void);

#endif /* SCHED_TUNE_H */
