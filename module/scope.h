/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A feature's scope (features/<name>/scope, module parameter scope): a
 * cgroup v2 path.  A feature with a scope decides only for the tasks of
 * that cgroup and its descendants; every other task gets stock's
 * decision.  The configuration names the cgroup (core.c holds the
 * reference); the hooks test it only while some feature has a scope.
 */
#ifndef SCHED_TUNE_SCOPE_H
#define SCHED_TUNE_SCOPE_H

#include <linux/jump_label.h>
#include <linux/types.h>

#include "sched_tune.h"

struct cgroup;
struct task_struct;

/* on while any feature has a scope */
DECLARE_STATIC_KEY_FALSE(st_scope_key);

bool st_scope_has(struct cgroup *cgrp, struct task_struct *p);

/**
 * st_in_scope() - Whether a feature decides for a task.
 * @cfg: the configuration the hook read
 * @feat: the feature
 * @p: the task it would decide for
 *
 * Context: A hook: preemption disabled.
 * Return: true if @feat has no scope, or @p is in its cgroup or below.
 */
static __always_inline bool st_in_scope(const struct st_config *cfg,
					enum st_feature_id feat,
					struct task_struct *p)
{
	if (!static_branch_unlikely(&st_scope_key) || !cfg->scope[feat])
		return true;
	return st_scope_has(cfg->scope[feat], p);
}

struct cgroup *st_scope_get(const char *path);
void st_scope_put(struct cgroup *cgrp);
int st_scope_show(struct cgroup *cgrp, char *buf, size_t size);
void st_scope_key_sync(const struct st_config *cfg);

#endif /* SCHED_TUNE_SCOPE_H */
