// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration and features: every knob change builds a new
 * configuration, publishes it, then installs or removes hooks so that
 * exactly the features whose knobs ask for non-stock behaviour are hooked.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sched_tune.h"
#include "scope.h"
#include "hook/fhook.h"

static DEFINE_MUTEX(st_lock);

static struct st_feature *const st_features[ST_NR_FEATURES] = {
	[ST_FEAT_RATELIMIT] = &st_ratelimit_feature,
	[ST_FEAT_CACHE_LEVEL] = &st_cache_level_feature,
	[ST_FEAT_NUMA_SCAN] = &st_numa_scan_feature,
	[ST_FEAT_EEVDF] = &st_eevdf_feature,
	[ST_FEAT_PREV_BIAS] = &st_prev_bias_feature,
	[ST_FEAT_SYNC_SHORT] = &st_sync_short_feature,
};

static struct st_feature *st_knob_feature(enum st_knob_id id)
{
	enum st_feature_id f = st_knobs[id].feature;

	return f == ST_FEAT_NONE ? NULL : st_features[f];
}

/*
 * A knob of an unsupported feature, or one its supported feature cannot
 * honour on this kernel (st_feature.knob_supported).
 */
static bool st_knob_unsupported(enum st_knob_id id)
{
	struct st_feature *f = st_knob_feature(id);

	return f && (!f->supported ||
		     (f->knob_supported && !f->knob_supported(id)));
}

/* Knobs of unsupported features read their stock value. */
static void st_config_stock_unsupported(struct st_config *cfg)
{
	int i;

	for (i = 0; i < ST_NR_KNOBS; i++)
		if (st_knob_unsupported(i) && st_knobs[i].has_stock)
			cfg->knob[i] = st_knobs[i].stock;
}

static unsigned int st_config_placement(const struct st_config *cfg)
{
	bool all = st_passthrough(cfg);
	unsigned int placement = 0;

	if ((all || cfg->knob[ST_KNOB_PREV_BIAS]) &&
	    st_prev_bias_feature.supported)
		placement |= ST_PLACE_PREV_BIAS;
	if ((all || cfg->knob[ST_KNOB_SYNC_SHORT]) &&
	    st_sync_short_feature.supported)
		placement |= ST_PLACE_SYNC_SHORT;
	return placement;
}

static void st_config_derive(struct st_config *cfg)
{
	st_rl_params_init(&cfg->rl, cfg->knob[ST_KNOB_RL_WINDOW_NS],
			  cfg->knob[ST_KNOB_RL_BURST]);
	st_rl_params_adaptive(&cfg->rl,
			      cfg->knob[ST_KNOB_RL_MODE] == ST_RL_MODE_ADAPTIVE,
			      cfg->knob[ST_KNOB_RL_QUOTA],
			      cfg->knob[ST_KNOB_RL_QUOTA_REPLENISH]);
	cfg->rl_window_jiffies = nsecs_to_jiffies64(cfg->rl.window) + 1;
	cfg->placement = st_config_placement(cfg);
}

/*
 * passthrough installs every supported feature, whatever its knobs; a
 * host's hooks go in for the features it hosts too.
 */
static bool st_feature_wanted(const struct st_feature *f,
			      const struct st_config *cfg)
{
	int i;

	if (!cfg->knob[ST_KNOB_ENABLED] || !f->supported || !f->wanted)
		return false;
	if (f->host && !f->host->supported)
		return false;
	if (st_passthrough(cfg) || f->wanted(cfg))
		return true;
	for (i = 0; i < ST_NR_FEATURES; i++) {
		const struct st_feature *g = st_features[i];

		if (g->host == f && g->supported && g->wanted(cfg))
			return true;
	}
	return false;
}

static void st_feature_release(struct st_feature *f)
{
	st_fhook_release(f->hooks, f->nr_hooks);
	if (f->release)
		f->release();
}

/*
 * A feature whose host went unsupported goes with it, saying why.  Its
 * state goes with the host's: at once when the host's was released
 * (@release), after the host's hooks are gone when the host is pinned.
 */
static void st_feature_orphan(struct st_feature *host, bool release)
{
	int i;

	for (i = 0; i < ST_NR_FEATURES; i++) {
		struct st_feature *g = st_features[i];

		if (g->host != host || !g->supported)
			continue;
		snprintf(g->busy_reason, sizeof(g->busy_reason),
			 "decides in %s's hook, which is unsupported from now on",
			 host->name);
		g->reason = g->busy_reason;
		g->supported = false;
		g->installed = false;
		pr_info("feature %s unsupported from now on: %s\n", g->name,
			g->reason);
		if (release)
			st_feature_release(g);
	}
}

/*
 * A function another ftrace user already redirects (a livepatch: ftrace
 * refuses a second IPMODIFY user with -EBUSY) cannot be taken over: the
 * feature becomes unsupported, saying by whom, and the others go on.
 */
static void st_feature_refuse(struct st_feature *f, const char *func)
{
	snprintf(f->busy_reason, sizeof(f->busy_reason),
		 "%s is already redirected by another ftrace user (a livepatch?)",
		 func);
	f->reason = f->busy_reason;
	f->supported = false;
	st_feature_release(f);
	pr_info("feature %s unsupported from now on: %s\n", f->name, f->reason);
	st_feature_orphan(f, true);
}

/*
 * A hook ftrace would not take off pinned the module (fhook.c): the
 * feature stays off for good, and its hooks are never registered again.
 * Nothing of it is released: the hook may still run and read its state.
 */
static bool st_feature_pinned(struct st_feature *f)
{
	const struct st_fhook *hook = st_fhook_pinned(f->hooks, f->nr_hooks);

	if (!hook)
		return false;
	snprintf(f->busy_reason, sizeof(f->busy_reason),
		 "ftrace would not unhook %s (error %d): the module is pinned and the feature off until reboot",
		 hook->func, hook->pin_err);
	f->reason = f->busy_reason;
	f->supported = false;
	pr_info("feature %s unsupported from now on: %s\n", f->name, f->reason);
	st_feature_orphan(f, false);
	return true;
}

static int st_feature_install(struct st_feature *f)
{
	const char *failed = NULL;
	int ret;

	if (f->prepare)
		f->prepare();
	ret = st_fhook_install(f->hooks, f->nr_hooks, &failed);
	if (ret) {
		/* hooks that went in before the failure had callers too */
		if (f->quiesce)
			f->quiesce();
		if (st_feature_pinned(f))
			return -EBUSY;
		if (ret == -EBUSY)
			st_feature_refuse(f, failed);
		return ret;
	}
	f->installed = true;
	return 0;
}

static void st_feature_remove(struct st_feature *f)
{
	if (!f->installed)
		return;
	st_fhook_remove(f->hooks, f->nr_hooks);
	if (f->quiesce)
		f->quiesce();
	f->installed = false;
	st_feature_pinned(f);
}

/* Brings the installed hooks in line with @cfg. */
static int st_sync_features(const struct st_config *old,
			    const struct st_config *cfg)
{
	int i, ret;

	for (i = 0; i < ST_NR_FEATURES; i++) {
		struct st_feature *f = st_features[i];
		bool want = st_feature_wanted(f, cfg);

		if (want && !f->installed) {
			ret = st_feature_install(f);
			if (ret)
				return ret;
		} else if (!want && f->installed) {
			st_feature_remove(f);
		} else if (want && f->reconfigure && old) {
			f->reconfigure(old, cfg);
		}
	}
	return 0;
}

static void st_remove_all(void)
{
	int i;

	for (i = 0; i < ST_NR_FEATURES; i++)
		st_feature_remove(st_features[i]);
}

/* Takes ownership of @cfg, also on failure. */
static int st_publish(struct st_config *cfg)
{
	struct st_config *old;
	int ret;

	lockdep_assert_held(&st_lock);
	old = rcu_dereference_protected(st_config, lockdep_is_held(&st_lock));
	rcu_assign_pointer(st_config, cfg);
	ret = st_sync_features(old, cfg);
	if (ret) {
		rcu_assign_pointer(st_config, old);
		if (!old || st_sync_features(cfg, old))
			st_remove_all();
		synchronize_rcu();
		kfree(cfg);
		return ret;
	}
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/*
 * A feature pinned by the change just published keeps a hook that still
 * runs: its knobs go back to stock, so that hook decides as stock does,
 * and the placement features it hosted judge no more wakeups.
 */
static void st_publish_stock_unsupported(void)
{
	struct st_config *cur, *cfg;

	cur = rcu_dereference_protected(st_config, lockdep_is_held(&st_lock));
	cfg = kmemdup(cur, sizeof(*cur), GFP_KERNEL);
	if (!cfg)
		return;
	st_config_stock_unsupported(cfg);
	st_config_derive(cfg);
	if (!memcmp(cfg->knob, cur->knob, sizeof(cfg->knob)) &&
	    cfg->placement == cur->placement) {
		kfree(cfg);
		return;
	}
	st_publish(cfg);
}

/**
 * st_knob_store() - Set a knob: publish a new configuration with it.
 * @id: the knob
 * @val: its new value, in the knob's range (st_knob_parse())
 *
 * The hooks are then brought in line with the new configuration.  A
 * feature that ftrace refuses, or that a hook pins, goes unsupported on
 * the way, and its knobs go back to stock.
 *
 * Context: Process context: takes st_lock and may sleep.
 * Return: 0, also when @val is the knob's value already; -EOPNOTSUPP for
 * a knob of an unsupported feature, or of one ftrace has just refused;
 * -ENOMEM; or the error of installing a hook, the configuration then
 * left as it was.
 */
int st_knob_store(enum st_knob_id id, u64 val)
{
	const struct st_knob_desc *d = &st_knobs[id];
	struct st_feature *f = st_knob_feature(id);
	struct st_config *cur, *cfg;
	int ret = 0;

	mutex_lock(&st_lock);
	cur = rcu_dereference_protected(st_config, lockdep_is_held(&st_lock));
	if (cur->knob[id] == val)
		goto out;
	if (st_knob_unsupported(id)) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	cfg = kmemdup(cur, sizeof(*cur), GFP_KERNEL);
	if (!cfg) {
		ret = -ENOMEM;
		goto out;
	}
	cfg->knob[id] = val;
	st_config_derive(cfg);
	ret = st_publish(cfg);
	/*
	 * A feature refused by ftrace has just become unsupported: a write
	 * to its own knob fails as for any unsupported feature; any other
	 * write applies to the features that remain.
	 */
	if (ret == -EBUSY && f && !f->supported) {
		ret = -EOPNOTSUPP;
	} else if (ret == -EBUSY) {
		cfg = kmemdup(cur, sizeof(*cur), GFP_KERNEL);
		ret = -ENOMEM;
		if (cfg) {
			cfg->knob[id] = val;
			st_config_stock_unsupported(cfg);
			st_config_derive(cfg);
			ret = st_publish(cfg);
		}
	}
	if (ret && ret != -EOPNOTSUPP)
		pr_warn("%s=%llu not applied: error %d\n", d->name, val, ret);
	if (!ret)
		st_publish_stock_unsupported();
out:
	mutex_unlock(&st_lock);
	return ret;
}

/**
 * st_scope_store() - Set a feature's scope: publish a configuration with it.
 * @i: the feature, an enum st_feature_id below ST_NR_FEATURES
 * @path: "/" (every task) or a cgroup v2 path (st_scope_get())
 *
 * The scope's cgroup is held while a configuration names it: the one it
 * replaces is released once no hook can read it.
 *
 * Context: Process context: takes st_lock and may sleep.
 * Return: 0, also when @path names the scope's cgroup already; an error
 * of st_scope_get(); -EOPNOTSUPP for a cgroup to an unsupported feature;
 * -ENOMEM.
 */
int st_scope_store(int i, const char *path)
{
	struct cgroup *cgrp = st_scope_get(path), *old;
	struct st_config *cur, *cfg;
	int ret = 0;

	if (IS_ERR(cgrp))
		return PTR_ERR(cgrp);
	mutex_lock(&st_lock);
	cur = rcu_dereference_protected(st_config, lockdep_is_held(&st_lock));
	/* "/" stays possible: a feature refused since keeps no cgroup */
	if (cgrp && !st_features[i]->supported) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (cur->scope[i] == cgrp)
		goto out;
	cfg = kmemdup(cur, sizeof(*cur), GFP_KERNEL);
	if (!cfg) {
		ret = -ENOMEM;
		goto out;
	}
	old = cfg->scope[i];
	cfg->scope[i] = cgrp;
	if (cgrp)
		static_branch_enable(&st_scope_key);
	/* no hook changes: a scope leaves what each feature wants as it was */
	ret = st_publish(cfg);
	cur = rcu_dereference_protected(st_config, lockdep_is_held(&st_lock));
	st_scope_key_sync(cur);
	if (ret)
		goto out;
	mutex_unlock(&st_lock);
	/* no hook reads a configuration that names @old any more */
	synchronize_rcu();
	st_scope_put(old);
	return 0;
out:
	mutex_unlock(&st_lock);
	st_scope_put(cgrp);
	return ret;
}

static const char *const st_state_names[ST_NR_STATES] = {
	[ST_STATE_ACTIVE] = "active",
	[ST_STATE_IDLE] = "idle",
	[ST_STATE_INACTIVE] = "inactive",
	[ST_STATE_UNSUPPORTED] = "unsupported",
};

/* Under st_lock. */
static enum st_feature_state st_feature_status(const struct st_feature *f,
					       const struct st_config *cfg,
					       const char **reason)
{
	enum st_feature_state state;
	bool idle = false;

	*reason = NULL;
	if (!f->supported) {
		*reason = f->reason;
		return ST_STATE_UNSUPPORTED;
	}
	if (f->installed && st_fhook_quiet()) {
		*reason = "kernel.ftrace_enabled=0: ftrace calls none of the hooks";
		state = ST_STATE_IDLE;
	} else if (f->installed) {
		if (f->status)
			*reason = f->status(&idle);
		state = idle ? ST_STATE_IDLE : ST_STATE_ACTIVE;
	} else {
		if (!f->wanted)
			*reason = "not implemented yet";
		else if (!cfg->knob[ST_KNOB_ENABLED])
			*reason = "enabled=0";
		else
			*reason = f->stock_reason;
		state = ST_STATE_INACTIVE;
	}
	/* a copy run by allow_unchecked says so, whatever its state */
	*reason = st_gate_reason(f->name, *reason);
	return state;
}

/* "active", or "active (unchecked)" for a copy run by allow_unchecked */
static const char *st_state_mark(const struct st_feature *f,
				 enum st_feature_state state)
{
	return state != ST_STATE_UNSUPPORTED && st_gate_unchecked(f->name) ?
	       " (unchecked)" : "";
}

/**
 * st_feature_name() - The name of a feature, as features/<name>/ shows it.
 * @i: the feature, an enum st_feature_id
 *
 * Return: the name, or NULL for @i past the last feature.
 */
const char *st_feature_name(int i)
{
	return i < ST_NR_FEATURES ? st_features[i]->name : NULL;
}

/**
 * st_feature_show() - One value of features/<name>/, a line.
 * @i: the feature, an enum st_feature_id below ST_NR_FEATURES
 * @what: "state", "reason" or "scope"; anything else shows "functions"
 * @buf: where the line goes
 * @size: the room in @buf
 *
 * Context: Takes st_lock.
 * Return: the number of bytes written to @buf.
 */
int st_feature_show(int i, const char *what, char *buf, size_t size)
{
	const struct st_feature *f = st_features[i];
	const struct st_config *cfg;
	enum st_feature_state state;
	const char *reason;
	int n;

	mutex_lock(&st_lock);
	cfg = rcu_dereference_protected(st_config, lockdep_is_held(&st_lock));
	state = st_feature_status(f, cfg, &reason);
	if (!strcmp(what, "state"))
		n = scnprintf(buf, size, "%s%s\n", st_state_names[state],
			      st_state_mark(f, state));
	else if (!strcmp(what, "reason"))
		n = scnprintf(buf, size, "%s\n", reason ? reason : "");
	else if (!strcmp(what, "scope"))
		n = st_scope_show(cfg->scope[i], buf, size);
	else
		n = scnprintf(buf, size, "%s\n", f->takes_over);
	mutex_unlock(&st_lock);
	return n;
}

/**
 * st_features_show() - The summary in debugfs: one line per feature.
 * @buf: where the lines go
 * @size: the room in @buf
 *
 * Context: Takes st_lock.
 * Return: the number of bytes written to @buf.
 */
int st_features_show(char *buf, size_t size)
{
	const struct st_config *cfg;
	size_t n = 0;
	int i;

	mutex_lock(&st_lock);
	cfg = rcu_dereference_protected(st_config, lockdep_is_held(&st_lock));
	for (i = 0; i < ST_NR_FEATURES; i++) {
		const struct st_feature *f = st_features[i];
		const char *reason;
		enum st_feature_state state = st_feature_status(f, cfg, &reason);

		n += scnprintf(buf + n, size - n, "%s %s%s %s", f->name,
			       st_state_names[state], st_state_mark(f, state),
			       f->takes_over);
		if (reason)
			n += scnprintf(buf + n, size - n, " reason: %s", reason);
		n += scnprintf(buf + n, size - n, "\n");
	}
	mutex_unlock(&st_lock);
	return n;
}

/**
 * st_core_init() - Judge every feature, then publish the first configuration.
 * @initial: every knob's value, indexed by enum st_knob_id
 * @given: a bitmap of the knobs set as module parameters
 * @scopes: each feature's scope, a path (st_scope_get()) or NULL
 *
 * A feature this kernel cannot support keeps its stock values; asking for
 * more as a parameter, or a scope, fails the load.
 *
 * Return: 0; -EOPNOTSUPP for a parameter this kernel cannot honour; an
 * error of st_scope_get(); -ENOMEM; or the error of installing a hook.
 * On failure every feature's state is released.
 */
int st_core_init(const u64 *initial, const unsigned long *given,
		 const char *const *scopes)
{
	struct cgroup *scope[ST_NR_FEATURES] = {};
	struct st_config *cfg;
	struct st_feature *const *g;
	int i, ret;

	/* a host comes before its guests in st_features[], and probes first */
	for (i = 0; i < ST_NR_FEATURES; i++)
		for (g = st_features[i]->guests; g && *g; g++)
			(*g)->host = st_features[i];
	for (i = 0; i < ST_NR_FEATURES; i++) {
		struct st_feature *f = st_features[i];

		f->series = st_gate_check(f->name, &f->reason);
		f->supported = f->series != ST_SERIES_UNCHECKED && !f->probe(f);
		if (!f->supported) {
			st_feature_release(f);
			pr_info("feature %s unsupported on this kernel: %s\n",
				f->name, f->reason);
		}
	}
	for (i = 0; i < ST_NR_FEATURES; i++) {
		struct st_feature *f = st_features[i];

		if (!scopes[i] || !strcmp(scopes[i], "/"))
			continue;
		if (!f->supported) {
			pr_warn("parameter scope: feature %s unsupported on this kernel: %s\n",
				f->name, f->reason);
			ret = -EOPNOTSUPP;
			goto release;
		}
		scope[i] = st_scope_get(scopes[i]);
		if (IS_ERR(scope[i])) {
			ret = PTR_ERR(scope[i]);
			scope[i] = NULL;
			pr_warn("parameter scope: %s:%s: %s\n", f->name,
				scopes[i], ret == -EINVAL ?
				"not a path from the cgroup root" :
				ret == -ENOTDIR ? "a cgroup's file, not a cgroup" :
				"no such cgroup (v2)");
			goto release;
		}
		static_branch_enable(&st_scope_key);
	}

	/* again while ftrace refuses a feature (st_feature_refuse) */
	do {
		cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
		if (!cfg) {
			ret = -ENOMEM;
			goto release;
		}
		for (i = 0; i < ST_NR_KNOBS; i++) {
			const struct st_knob_desc *d = &st_knobs[i];
			struct st_feature *f = st_knob_feature(i);

			cfg->knob[i] = initial[i];
			if (f && f->supported && st_knob_unsupported(i) &&
			    test_bit(i, given) &&
			    !(d->has_stock && initial[i] == d->stock)) {
				pr_warn("parameter %s: feature %s cannot honour it on this kernel: %s\n",
					d->name, f->name, f->knob_reason);
				kfree(cfg);
				ret = -EOPNOTSUPP;
				goto release;
			}
			if (f && !f->supported && test_bit(i, given) &&
			    !(d->has_stock && initial[i] == d->stock)) {
				pr_warn("parameter %s: feature %s unsupported on this kernel: %s\n",
					d->name, f->name, f->reason);
				kfree(cfg);
				ret = -EOPNOTSUPP;
				goto release;
			}
		}
		st_config_stock_unsupported(cfg);
		st_config_derive(cfg);
		memcpy(cfg->scope, scope, sizeof(scope));

		mutex_lock(&st_lock);
		ret = st_publish(cfg);
		mutex_unlock(&st_lock);
	} while (ret == -EBUSY);
	if (!ret)
		return 0;
	RCU_INIT_POINTER(st_config, NULL);
release:
	static_branch_disable(&st_scope_key);
	for (i = 0; i < ST_NR_FEATURES; i++) {
		st_scope_put(scope[i]);
		if (st_features[i]->supported)
			st_feature_release(st_features[i]);
	}
	return ret;
}

/**
 * st_core_exit() - Remove every hook, then free the features' state.
 *
 * Description: A hook ftrace would not take off keeps its feature's state,
 * and its host's, until ftrace lets it go: st_fhook_exit_wait() waits for
 * that, as long as it takes.
 *
 * Context: Process context: takes st_lock and sleeps.
 */
void st_core_exit(void)
{
	struct st_config *cfg;
	int i;

	struct st_fhook *sets[ST_NR_FEATURES];
	int nrs[ST_NR_FEATURES];
	bool pinned[ST_NR_FEATURES], host_pinned[ST_NR_FEATURES];

	mutex_lock(&st_lock);
	st_remove_all();
	for (i = 0; i < ST_NR_FEATURES; i++) {
		struct st_feature *f = st_features[i];

		sets[i] = f->hooks;
		nrs[i] = f->nr_hooks;
		pinned[i] = st_fhook_pinned(f->hooks, f->nr_hooks);
		host_pinned[i] = f->host &&
				 st_fhook_pinned(f->host->hooks, f->host->nr_hooks);
		if (f->supported && !pinned[i] && !host_pinned[i])
			st_feature_release(f);
	}
	mutex_unlock(&st_lock);
	/* a pinned hook's feature state stays until ftrace lets it go */
	st_fhook_exit_wait(sets, nrs, ST_NR_FEATURES);
	mutex_lock(&st_lock);
	for (i = 0; i < ST_NR_FEATURES; i++)
		if (pinned[i] || host_pinned[i])
			st_feature_release(st_features[i]);
	cfg = rcu_dereference_protected(st_config, lockdep_is_held(&st_lock));
	RCU_INIT_POINTER(st_config, NULL);
	static_branch_disable(&st_scope_key);
	mutex_unlock(&st_lock);
	synchronize_rcu();
	for (i = 0; i < ST_NR_FEATURES; i++)
		st_scope_put(cfg->scope[i]);
	kfree(cfg);
}
