// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/sched_tune: the knobs (knobs.h), features/<name>/ and
 * stats/ (counters.h), as Documentation/ABI/testing/sysfs-kernel-sched_tune
 * says; a one-line-per-feature summary in debugfs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kobject.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "sched_tune.h"

static struct kobject *st_kobj;

static ssize_t st_knob_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	int id = st_knob_lookup(attr->attr.name);

	if (id < 0)
		return id;
	return st_knob_format(&st_knobs[id], st_knob_value(id), buf,
			      PAGE_SIZE);
}

static ssize_t st_knob_write(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	int id = st_knob_lookup(attr->attr.name);
	u64 val;
	int ret;

	if (id < 0)
		return id;
	ret = st_knob_parse(&st_knobs[id], buf, count, &val);
	if (!ret)
		ret = st_knob_store(id, val);
	return ret ? ret : count;
}

/* a file per knob, in knobs.h's order */
static struct kobj_attribute st_knob_attrs[ST_NR_KNOBS] = {
#define ST_KNOB(_id, _name, ...)					\
	[ST_KNOB_##_id] = __ATTR(_name, 0644, st_knob_show, st_knob_write),
#include "knobs.h"
};

static struct attribute *st_attrs[] = {
#define ST_KNOB(_id, ...)	(&st_knob_attrs[ST_KNOB_##_id].attr),
#include "knobs.h"
	NULL
};

static const struct attribute_group st_group = {
	.attrs = st_attrs,
};

static ssize_t st_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	int id;

	for (id = 0; id < ST_NR_STATS; id++)
		if (!strcmp(st_stat_names[id], attr->attr.name))
			return sysfs_emit(buf, "%llu\n", st_stat_sum(id));
	return -EINVAL;
}

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	static const struct st_knob_desc one = { .min = 1, .max = 1 };
	u64 val;
	int ret = st_knob_parse(&one, buf, count, &val);

	if (ret)
		return ret;
	st_stats_reset();
	return count;
}

static struct kobj_attribute st_stat_attrs[ST_NR_STATS];
static struct kobj_attribute st_attr_reset = __ATTR_WO(reset);
static struct attribute *st_stats_attrs[ST_NR_STATS + 2];

static const struct attribute_group st_stats_group = {
	.name = "stats",
	.attrs = st_stats_attrs,
};

/* features/<name>/{state,reason,functions,scope}: one value per file */
static struct kobject *st_features_kobj;
static struct kobject *st_feature_kobjs[ST_NR_FEATURES];

static int st_feature_of(struct kobject *kobj)
{
	int i;

	for (i = 0; i < ST_NR_FEATURES; i++)
		if (st_feature_kobjs[i] == kobj)
			return i;
	return -ENOENT;
}

static ssize_t st_feature_attr_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	int i = st_feature_of(kobj);

	return i < 0 ? i : st_feature_show(i, attr->attr.name, buf, PAGE_SIZE);
}

static ssize_t st_feature_scope_store(struct kobject *kobj,
				      struct kobj_attribute *attr,
				      const char *buf, size_t count)
{
	int i = st_feature_of(kobj), ret;
	size_t len;
	char *path;

	if (i < 0)
		return i;
	/* the knobs' grammar: one value, and at most one newline after it */
	len = count && buf[count - 1] == '\n' ? count - 1 : count;
	if (!len || memchr(buf, '\0', len))
		return -EINVAL;
	path = kstrndup(buf, len, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	ret = st_scope_store(i, path);
	kfree(path);
	return ret ? ret : count;
}

static struct kobj_attribute st_feature_state_attr =
	__ATTR(state, 0444, st_feature_attr_show, NULL);
static struct kobj_attribute st_feature_reason_attr =
	__ATTR(reason, 0444, st_feature_attr_show, NULL);
static struct kobj_attribute st_feature_functions_attr =
	__ATTR(functions, 0444, st_feature_attr_show, NULL);
static struct kobj_attribute st_feature_scope_attr =
	__ATTR(scope, 0644, st_feature_attr_show, st_feature_scope_store);

static struct attribute *st_feature_attrs[] = {
	&st_feature_state_attr.attr,
	&st_feature_reason_attr.attr,
	&st_feature_functions_attr.attr,
	&st_feature_scope_attr.attr,
	NULL
};

static const struct attribute_group st_feature_group = {
	.attrs = st_feature_attrs,
};

static void st_features_exit(void)
{
	int i;

	for (i = 0; i < ST_NR_FEATURES; i++) {
		kobject_put(st_feature_kobjs[i]);
		st_feature_kobjs[i] = NULL;
	}
	kobject_put(st_features_kobj);
	st_features_kobj = NULL;
}

static int st_features_init(void)
{
	int i, ret;

	st_features_kobj = kobject_create_and_add("features", st_kobj);
	if (!st_features_kobj)
		return -ENOMEM;
	for (i = 0; i < ST_NR_FEATURES; i++) {
		st_feature_kobjs[i] = kobject_create_and_add(st_feature_name(i),
							     st_features_kobj);
		if (!st_feature_kobjs[i])
			return -ENOMEM;
		ret = sysfs_create_group(st_feature_kobjs[i], &st_feature_group);
		if (ret)
			return ret;
	}
	return 0;
}

/* Debugfs: the features summary, gate_sizes and ratelimit_table. */
static struct dentry *st_debugfs_dir;

/* A debugfs file written by a text function: its inode's private data. */
static int st_debugfs_text_show(struct seq_file *m, void *v)
{
	int (*show)(char *buf, size_t size) = m->private;
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);

	if (!buf)
		return -ENOMEM;
	show(buf, PAGE_SIZE);
	seq_puts(m, buf);
	kfree(buf);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(st_debugfs_text);

/**
 * st_sysfs_init() - Create /sys/kernel/sched_tune and the debugfs files.
 *
 * Description: debugfs is optional: no error when it is absent.
 *
 * Return: 0, or the error of creating a sysfs directory or file, nothing
 * of sysfs then left behind.
 */
int st_sysfs_init(void)
{
	int i, ret;

	for (i = 0; i < ST_NR_STATS; i++) {
		sysfs_attr_init(&st_stat_attrs[i].attr);
		st_stat_attrs[i].attr.name = st_stat_names[i];
		st_stat_attrs[i].attr.mode = 0444;
		st_stat_attrs[i].show = st_stat_show;
		st_stats_attrs[i] = &st_stat_attrs[i].attr;
	}
	st_stats_attrs[ST_NR_STATS] = &st_attr_reset.attr;

	st_kobj = kobject_create_and_add("sched_tune", kernel_kobj);
	if (!st_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(st_kobj, &st_group);
	if (!ret)
		ret = sysfs_create_group(st_kobj, &st_stats_group);
	if (!ret)
		ret = st_features_init();
	if (ret) {
		st_features_exit();
		kobject_put(st_kobj);
		st_kobj = NULL;
		return ret;
	}
	/* debugfs is optional: no error when it is absent */
	st_debugfs_dir = debugfs_create_dir("sched_tune", NULL);
	debugfs_create_file("features", 0444, st_debugfs_dir,
			    st_features_show, &st_debugfs_text_fops);
	debugfs_create_file("gate_sizes", 0444, st_debugfs_dir,
			    st_gate_sizes_show, &st_debugfs_text_fops);
	debugfs_create_file("ratelimit_table", 0444, st_debugfs_dir,
			    st_rl_table_show, &st_debugfs_text_fops);
	return 0;
}

/**
 * st_sysfs_exit() - Remove what st_sysfs_init() created.
 */
void st_sysfs_exit(void)
{
	debugfs_remove_recursive(st_debugfs_dir);
	st_debugfs_dir = NULL;
	st_features_exit();
	kobject_put(st_kobj);
	st_kobj = NULL;
}
