// SPDX-License-Identifier: GPL-2.0
/*
 * Feature scopes (scope.h): the cgroup a path names, the test of a task
 * against it, and its path as features/<name>/scope shows it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "scope.h"

DEFINE_STATIC_KEY_FALSE(st_scope_key);

/**
 * st_scope_has() - Whether a task is in a scope's cgroup or below it.
 * @cgrp: the scope's cgroup, which the configuration holds
 * @p: the task
 *
 * Out of line: only a feature with a scope pays for it.  A removed
 * cgroup holds no task, so its feature decides for none.
 *
 * Return: true if @p's cgroup on the default hierarchy is @cgrp or one
 * of its descendants.
 */
bool st_scope_has(struct cgroup *cgrp, struct task_struct *p)
{
	bool in;

	rcu_read_lock();
	in = task_under_cgroup_hierarchy(p, cgrp);
	rcu_read_unlock();
	return in;
}

/**
 * st_scope_get() - The cgroup a scope's path names.
 * @path: "/", every task; or a cgroup's path on the default (v2)
 *	hierarchy, from the root of the writer's cgroup namespace
 *
 * Context: Process context; may sleep.
 * Return: NULL for "/", and for any spelling of the root ("//"); the
 * cgroup, with a reference; or ERR_PTR(-EINVAL) for a path not starting
 * with '/', ERR_PTR(-ENOENT) where no cgroup has it, ERR_PTR(-ENOTDIR)
 * for a cgroup's file.
 */
struct cgroup *st_scope_get(const char *path)
{
	struct cgroup *cgrp;

	if (path[0] != '/')
		return ERR_PTR(-EINVAL);
	if (!strcmp(path, "/"))
		return NULL;
	cgrp = cgroup_get_from_path(path);
	if (!IS_ERR(cgrp) && !cgroup_parent(cgrp)) {
		cgroup_put(cgrp);
		return NULL;
	}
	return cgrp;
}

/**
 * st_scope_put() - Drop a scope's reference.
 * @cgrp: what st_scope_get() returned, NULL included
 */
void st_scope_put(struct cgroup *cgrp)
{
	if (cgrp)
		cgroup_put(cgrp);
}

/**
 * st_scope_show() - A scope as features/<name>/scope reads, a line.
 * @cgrp: the scope's cgroup, NULL for every task
 * @buf: where the line goes
 * @size: the room in @buf
 *
 * Return: the number of bytes written to @buf: "/", or the cgroup's path,
 * followed by " (removed)" once the cgroup is gone.
 */
int st_scope_show(struct cgroup *cgrp, char *buf, size_t size)
{
	int len;

	if (!cgrp)
		return scnprintf(buf, size, "/\n");
	len = cgroup_path(cgrp, buf, size);
	if (len < 0 || len >= size)
		return scnprintf(buf, size, "(a path too long to show)\n");
	return len + scnprintf(buf + len, size - len, "%s\n",
			       cgrp->self.flags & CSS_ONLINE ? "" : " (removed)");
}

/**
 * st_scope_key_sync() - The hooks' scope test on exactly while needed.
 * @cfg: the configuration published last
 *
 * Turned on before a configuration with a scope is published, off after
 * one without: a hook never decides for a task outside a scope.
 *
 * Context: Process context, under core.c's lock.
 */
void st_scope_key_sync(const struct st_config *cfg)
{
	int i;

	for (i = 0; i < ST_NR_FEATURES; i++)
		if (cfg->scope[i])
			return;
	static_branch_disable(&st_scope_key);
}
