// SPDX-License-Identifier: GPL-2.0
/*
 * Function redirection through ftrace.
 *
 * The ftrace callback sends a call of the hooked function to our
 * replacement unless the call comes from this module, which is how the
 * replacement reaches the original.  That test relies on the replacement
 * calling the original with a real call: a tail call (jmp) would make
 * the original's caller look like a foreign one, redirect again and spin
 * forever with interrupts off.  Kbuild therefore builds this module with
 * -fno-optimize-sibling-calls, and the selftests check the object code.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>

#include "fhook.h"
#include "ksym.h"

static void notrace st_fhook_redirect(unsigned long ip,
				      unsigned long parent_ip,
				      struct ftrace_ops *ops,
				      struct ftrace_regs *fregs)
{
	struct st_fhook *hook = container_of(ops, struct st_fhook, ops);

	if (within_module(parent_ip, THIS_MODULE))
		return;
#ifdef ftrace_regs_set_instruction_pointer
	ftrace_regs_set_instruction_pointer(fregs,
					    (unsigned long)hook->replacement);
#else
	ftrace_instruction_pointer_set(fregs,
				       (unsigned long)hook->replacement);
#endif
}

/* -ENOENT: no such symbol; -EINVAL or -EBUSY: ftrace refuses it. */
int st_fhook_resolve(struct st_fhook *hook)
{
	int ret;

	hook->addr = st_ksym(hook->func);
	if (!hook->addr)
		return -ENOENT;

	hook->ops.func = st_fhook_redirect;
	hook->ops.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_RECURSION |
			  FTRACE_OPS_FL_IPMODIFY;
	ret = ftrace_set_filter_ip(&hook->ops, hook->addr, 0, 0);
	if (ret)
		hook->addr = 0;
	return ret;
}

static int st_fhook_install_one(struct st_fhook *hook)
{
	int ret;

	if (hook->installed)
		return 0;
	ret = register_ftrace_function(&hook->ops);
	if (ret) {
		pr_warn("cannot hook %s: ftrace error %d\n", hook->func, ret);
		return ret;
	}
	hook->installed = true;
	return 0;
}

/* All or nothing, in array order. */
int st_fhook_install(struct st_fhook *hooks, int nr)
{
	int i, ret;

	for (i = 0; i < nr; i++) {
		ret = st_fhook_install_one(&hooks[i]);
		if (ret) {
			st_fhook_remove(hooks, i);
			return ret;
		}
	}
	return 0;
}

/*
 * In reverse order.  unregister_ftrace_function() waits for the callbacks
 * (RCU-tasks); synchronize_rcu() then waits for the replacements, which
 * run with preemption disabled.  Replacements that may sleep need more:
 * see the in-flight count of their feature.
 */
void st_fhook_remove(struct st_fhook *hooks, int nr)
{
	bool removed = false;
	int i;

	for (i = nr - 1; i >= 0; i--) {
		if (!hooks[i].installed)
			continue;
		WARN_ON(unregister_ftrace_function(&hooks[i].ops));
		hooks[i].installed = false;
		removed = true;
	}
	if (removed)
		synchronize_rcu();
}

/* Frees the filters that st_fhook_resolve() set up. */
void st_fhook_release(struct st_fhook *hooks, int nr)
{
	int i;

	st_fhook_remove(hooks, nr);
	for (i = 0; i < nr; i++) {
		if (hooks[i].addr)
			ftrace_free_filter(&hooks[i].ops);
		hooks[i].addr = 0;
	}
}
