// SPDX-License-Identifier: GPL-2.0
/*
 * sched_tune: ideas of scheduler patches on a running kernel, with their
 * parameters live under /sys/kernel/sched_tune.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "sched_tune.h"
#include "hook/fhook.h"
#include "kernel/gate.h"
#include "kernel/ksym.h"
#include "kernel/layout.h"

/*
 * Parameters are kept as text and checked in init, against the same
 * rules as the sysfs knobs, so that a bad one gets one line that says why.
 */
#define ST_PARAM_LEN 32
static char st_param_text[ST_NR_KNOBS][ST_PARAM_LEN];
static DECLARE_BITMAP(st_param_given, ST_NR_KNOBS);
/* longer than any knob takes: a cut copy might parse ("000...0005000") */
static DECLARE_BITMAP(st_param_long, ST_NR_KNOBS);

static int st_param_set(const char *val, const struct kernel_param *kp)
{
	int id = st_knob_lookup(kp->name);

	if (id < 0)
		return id;
	/* refused in init, with our line: an error here logs at error level */
	if (strscpy(st_param_text[id], val ? val : "", ST_PARAM_LEN) < 0)
		set_bit(id, st_param_long);
	set_bit(id, st_param_given);
	return 0;
}

static const struct kernel_param_ops st_param_ops = {
	.set = st_param_set,
};

/* _name is an identifier, so using it twice is safe */
#define ST_PARAM(_name, _desc)						\
	module_param_cb(_name, &st_param_ops, NULL, 0);			\
	MODULE_PARM_DESC(_name, _desc)

/* a parameter per knob, in knobs.h's order, its help the description */
#define ST_KNOB(_id, _name, _feature, _min, _max, _def, _stock, _help)	\
	ST_PARAM(_name, _help);
#include "knobs.h"

/*
 * scope=<feature>:<path>[,<feature>:<path>...]: features/<name>/scope at
 * load.  Kept as text, as the knobs are.
 */
#define ST_SCOPE_LEN 512
static char st_scope_text[ST_SCOPE_LEN];
static bool st_scope_long;

/* st_scope_text cut into its paths, which st_scope_parse() points to */
static char st_scope_cut[ST_SCOPE_LEN];

static int st_scope_param_set(const char *val, const struct kernel_param *kp)
{
	st_scope_long = strscpy(st_scope_text, val ? val : "", ST_SCOPE_LEN) < 0;
	return 0;
}

static int st_scope_param_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n", st_scope_text);
}

static const struct kernel_param_ops st_scope_param_ops = {
	.set = st_scope_param_set,
	.get = st_scope_param_get,
};

module_param_cb(scope, &st_scope_param_ops, NULL, 0444);
MODULE_PARM_DESC(scope,
		 "feature:/cgroup/path[,...]: the feature decides only for that cgroup v2 and below (default: every task)");

/* each feature's scope at load, pointing into st_scope_cut */
static int st_scope_parse(const char **scopes)
{
	char *next = st_scope_cut, *entry, *path;
	int i;

	strscpy(st_scope_cut, st_scope_text, ST_SCOPE_LEN);
	if (st_scope_long) {
		pr_warn("invalid parameter scope: longer than %d bytes\n",
			ST_SCOPE_LEN - 1);
		return -EINVAL;
	}
	while ((entry = strsep(&next, ","))) {
		if (!*entry)
			continue;
		path = strchr(entry, ':');
		if (path)
			*path++ = '\0';
		for (i = 0; st_feature_name(i); i++)
			if (!strcmp(st_feature_name(i), entry))
				break;
		if (!path || !st_feature_name(i) || scopes[i]) {
			pr_warn("invalid parameter scope: %s: %s\n", entry,
				!path ? "not feature:path" :
				!st_feature_name(i) ? "no such feature" :
				"a second scope of one feature");
			return -EINVAL;
		}
		scopes[i] = path;
	}
	return 0;
}

static int st_params_parse(u64 *val)
{
	int i, ret;

	for (i = 0; i < ST_NR_KNOBS; i++) {
		const struct st_knob_desc *d = &st_knobs[i];
		const char *text = st_param_text[i];

		val[i] = d->def;
		if (!test_bit(i, st_param_given))
			continue;
		if (test_bit(i, st_param_long)) {
			pr_warn("invalid parameter %s=%s...: longer than the %d bytes any value takes\n",
				d->name, text, ST_PARAM_LEN - 1);
			return -EINVAL;
		}
		ret = st_knob_parse(d, text, strlen(text), &val[i]);
		if (ret) {
			pr_warn("invalid parameter %s=%s: %s\n", d->name, text,
				ret == -ERANGE ? "out of range" : "not a valid value");
			return ret;
		}
	}
	return 0;
}

static int __init sched_tune_init(void)
{
	const char *scopes[ST_NR_FEATURES] = {};
	u64 val[ST_NR_KNOBS];
	int ret;

	ret = st_params_parse(val);
	if (ret)
		return ret;
	ret = st_scope_parse(scopes);
	if (ret)
		return ret;
	ret = st_fhook_check_params();
	if (ret)
		return ret;
	ret = st_ksym_init();
	if (ret)
		return ret;
	st_gate_init();
	/* without BTF every feature refuses, each saying why */
	st_layout_init();
	ret = st_core_init(val, st_param_given, scopes);
	if (ret)
		goto out_layout;
	ret = st_sysfs_init();
	if (ret)
		goto out_core;
	return 0;
out_core:
	st_core_exit();
out_layout:
	st_layout_exit();
	return ret;
}

static void __exit sched_tune_exit(void)
{
	st_sysfs_exit();
	st_core_exit();
	st_layout_exit();
}

module_init(sched_tune_init);
module_exit(sched_tune_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Scheduler patch ideas, tunable live through sysfs");
MODULE_VERSION(ST_VERSION);
