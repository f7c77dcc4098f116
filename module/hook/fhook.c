// SPDX-License-Identifier: GPL-2.0
/*
 * Function redirection through ftrace: every call of a hooked kernel
 * function goes to a replacement of ours, which calls the original past
 * its fentry site (hook->orig), where no ftrace user sees the call, as
 * BPF trampolines do.  An ftrace direct call into a trampoline of
 * fhook_direct.c sends the calls there.  The fallback, an ftrace_ops
 * callback that moves the saved IP as livepatch does, is used under
 * call-depth tracking, with direct_hooks=0, when every trampoline is
 * taken, or next to another direct user (-EBUSY).  Mechanism and cost:
 * docs/hook-cost.md; tracers, livepatch, unhooking: docs/safety.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/version.h>
#include <asm/cpufeature.h>

#include "fhook.h"
#include "fhook_direct.h"
#include "kernel/ksym.h"
#include "test_inject.h"

#if defined(CONFIG_X86_64) && defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)
#define ST_FHOOK_HAVE_DIRECT 1
#else
#define ST_FHOOK_HAVE_DIRECT 0
#endif

static bool direct_hooks = true;
module_param(direct_hooks, bool, 0444);
MODULE_PARM_DESC(direct_hooks,
		 "0|1: hook through ftrace direct calls where the kernel allows (default 1)");

/*
 * 6.1's bpf_trampoline_update() answers -EAGAIN (an IPMODIFY ops is on
 * the function) by clearing fops->func and registering again, while
 * ftrace_ops_list_func may still walk to that fops: no grace period
 * follows its failed registration.  FTRACE_WARN_ON(!op->func) then
 * kills ftrace for good (make check on 6.1.0-57: a BPF fentry attached
 * next to our callback on select_task_rq_fair).  6.12's retry leaves
 * func alone.  Before 6.12 our hooks are direct calls only, next to
 * which BPF gets a clean EBUSY; none is checked between the two.
 */
static const char *st_fhook_ops_unsafe(void)
{
	if (LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0))
		return "a BPF trampoline attaching next to an ftrace_ops that changes the IP can kill ftrace before 6.12";
	return NULL;
}

/**
 * st_fhook_check_params() - Check the module parameters, at load.
 *
 * Return: 0, or -EINVAL for direct_hooks=0 where the ftrace_ops path is
 * unsafe: it would leave no hook.
 */
int st_fhook_check_params(void)
{
	const char *why = st_fhook_ops_unsafe();

	if (!direct_hooks && why) {
		pr_warn("direct_hooks=0 refused on this kernel: %s\n", why);
		return -EINVAL;
	}
	return 0;
}

static bool st_fhook_call_depth(void)
{
#ifdef X86_FEATURE_CALL_DEPTH
	return boot_cpu_has(X86_FEATURE_CALL_DEPTH);
#else
	return false;
#endif
}

#if ST_FHOOK_HAVE_DIRECT

static DECLARE_BITMAP(st_fhook_slots_used, ST_FHOOK_SLOTS);

/* Why this kernel cannot take direct hooks at all, or NULL. */
static const char *st_fhook_no_direct(void)
{
	if (!direct_hooks)
		return "direct_hooks=0";
	/* the trampolines do no call-depth accounting (retbleed=stuff) */
	if (st_fhook_call_depth())
		return "call depth tracking is on";
	return NULL;
}

static int st_fhook_slot_get(struct st_fhook *hook)
{
	int slot;

	if (hook->slot >= 0)
		return hook->slot;
	slot = find_first_zero_bit(st_fhook_slots_used, ST_FHOOK_SLOTS);
	if (slot >= ST_FHOOK_SLOTS)
		return -ENOSPC;
	set_bit(slot, st_fhook_slots_used);
	hook->slot = slot;
	st_fhook_direct_set(slot, hook->replacement);
	return slot;
}

static void st_fhook_slot_put(struct st_fhook *hook)
{
	if (hook->slot < 0)
		return;
	clear_bit(hook->slot, st_fhook_slots_used);
	hook->slot = -1;
}

static int st_fhook_direct_register(struct st_fhook *hook)
{
	unsigned long tramp = st_fhook_direct_tramp(hook->slot);

	/* both leave the filter set up by st_fhook_resolve() */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	return register_ftrace_direct(&hook->ops, tramp);
#else
	return register_ftrace_direct_multi(&hook->ops, tramp);
#endif
}

static int st_fhook_direct_unregister(struct st_fhook *hook)
{
	unsigned long tramp = st_fhook_direct_tramp(hook->slot);

	/*
	 * ftrace_shutdown() of an ops in module data (FTRACE_OPS_FL_DYNAMIC)
	 * waits with synchronize_rcu_tasks_rude() and synchronize_rcu_tasks()
	 * for every CPU and every preempted task to leave the trampoline.
	 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	return unregister_ftrace_direct(&hook->ops, tramp, false);
#else
	return unregister_ftrace_direct_multi(&hook->ops, tramp);
#endif
}

#else /* !ST_FHOOK_HAVE_DIRECT */

static const char *st_fhook_no_direct(void)
{
	return "no ftrace direct calls in this kernel";
}

static int st_fhook_slot_get(struct st_fhook *hook) { return -EOPNOTSUPP; }
static void st_fhook_slot_put(struct st_fhook *hook) { }
static int st_fhook_direct_register(struct st_fhook *hook) { return -EOPNOTSUPP; }
static int st_fhook_direct_unregister(struct st_fhook *hook) { return -EOPNOTSUPP; }

#endif /* ST_FHOOK_HAVE_DIRECT */

/*
 * The fallback's callback.  It calls nothing (within_module() and the IP
 * setter are inline), so it cannot recurse into a traced function, and it
 * needs no FTRACE_OPS_FL_RECURSION guard (ftrace_ops_assist_func).
 */
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

static void st_fhook_ops_prepare(struct st_fhook *hook)
{
	hook->ops.func = st_fhook_redirect;
	hook->ops.trampoline = 0;
	/*
	 * With DYNAMIC_FTRACE_WITH_ARGS the trampoline may change the IP
	 * without a full pt_regs, as livepatch does.
	 */
	hook->ops.flags = (hook->ops.flags & FTRACE_OPS_FL_INITIALIZED) |
			  FTRACE_OPS_FL_IPMODIFY;
	if (!IS_ENABLED(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS))
		hook->ops.flags |= FTRACE_OPS_FL_SAVE_REGS;
}

ST_KCALL_DEFINE(st_ftrace_location, ftrace_location);

/*
 * Past the fentry call, or 0.  ftrace_location() maps a function's entry
 * to its fentry site (after the ENDBR on IBT kernels); it is not exported.
 * With call-depth tracking the original is called at its entry instead:
 * the kernel patches a static call to an entry into a call of the
 * function's accounting thunk, and a call past fentry would skip it.
 */
static unsigned long st_fhook_orig_addr(unsigned long addr)
{
	static bool bound;
	unsigned long site;

	if (st_fhook_call_depth())
		return addr;
	if (!bound && st_kcall_bind_sym(st_ftrace_location, "ftrace_location"))
		return 0;
	bound = true;
	site = st_kcall(st_ftrace_location)(addr);
	/* an ENDBR at most before it: anything else is not a known layout */
	if (site < addr || site - addr > 4)
		return 0;
	return site + MCOUNT_INSN_SIZE;
}

/**
 * st_fhook_resolve() - Find a hook's function and set up its ftrace filter.
 * @hook: the hook, whose addr and orig are set
 *
 * The replacement calls the original past its fentry site, or at its entry
 * where the kernel tracks call depth (st_fhook_orig_addr()).
 *
 * Return: 0; -ENOENT: no such symbol; -EINVAL or -EBUSY: ftrace refuses
 * it; -EOPNOTSUPP: no fentry site to call the original past.
 */
int st_fhook_resolve(struct st_fhook *hook)
{
	int ret;

	hook->addr = st_ksym(hook->func);
	if (!hook->addr)
		return -ENOENT;
	hook->orig = st_fhook_orig_addr(hook->addr);
	if (!hook->orig) {
		hook->addr = 0;
		return -EOPNOTSUPP;
	}

	/* register_ftrace_direct() wants ops->func unset */
	hook->ops.func = NULL;
	hook->ops.flags = 0;
	ret = ftrace_set_filter_ip(&hook->ops, hook->addr, 0, 0);
	if (ret)
		hook->addr = 0;
	return ret;
}

static int st_fhook_install_direct(struct st_fhook *hook)
{
	const char *why = st_fhook_no_direct();
	int ret;

	if (why) {
		pr_info_once("no direct hooks (%s): ftrace_ops callbacks instead\n",
			     why);
		return -EOPNOTSUPP;
	}
	/* the trampolines send every call to the replacement */
	if (hook->orig == hook->addr)
		return -EOPNOTSUPP;
	ret = st_fhook_slot_get(hook);
	if (ret < 0)
		return ret;
	hook->ops.func = NULL;
	hook->ops.trampoline = 0;
	return st_fhook_direct_register(hook);
}

/* Once per mechanism and hook, so that toggling does not flood dmesg. */
static void st_fhook_announce(struct st_fhook *hook)
{
	if (hook->announced == hook->mech)
		return;
	hook->announced = hook->mech;
	pr_info("%s: hooked through %s\n", hook->func,
		hook->mech == ST_FHOOK_DIRECT ? "an ftrace direct call" :
		"an ftrace_ops callback");
}

static int st_fhook_install_one(struct st_fhook *hook)
{
	int ret;

	if (hook->installed)
		return 0;
	/* its ops may still be registered: never prepared or registered again */
	if (hook->pinned)
		return -EPERM;
	ret = st_fhook_install_direct(hook);
	if (!ret) {
		hook->mech = ST_FHOOK_DIRECT;
		hook->installed = true;
		st_fhook_announce(hook);
		return 0;
	}
	if (st_fhook_ops_unsafe()) {
		pr_info("%s: no direct hook (error %d), and no ftrace_ops callback on this kernel: %s\n",
			hook->func, ret, st_fhook_ops_unsafe());
		return ret == -EOPNOTSUPP ? ret : -EBUSY;
	}
	/* -EBUSY from IPMODIFY users too: the fallback then fails alike */
	if (ret != -EOPNOTSUPP)
		pr_info("%s: no direct hook (error %d), using an ftrace_ops callback\n",
			hook->func, ret);
	st_fhook_ops_prepare(hook);
	ret = register_ftrace_function(&hook->ops);
	if (ret) {
		pr_warn("cannot hook %s: ftrace error %d\n", hook->func, ret);
		hook->ops.func = NULL;
		return ret;
	}
	hook->mech = ST_FHOOK_OPS;
	hook->installed = true;
	st_fhook_announce(hook);
	return 0;
}

/**
 * st_fhook_install() - Install a set of hooks, all or nothing, in array order.
 * @hooks: the hooks, resolved (st_fhook_resolve())
 * @nr: their number
 * @failed: set on failure to the name of the function ftrace refused
 *
 * Each goes in as an ftrace direct call where it can, else as an
 * ftrace_ops callback (fhook.c).
 *
 * Return: 0, or the error of the hook that failed, those before it removed
 * again: -EBUSY when another ftrace user that changes its IP, a livepatch,
 * holds the function; -EPERM for a pinned hook.
 */
int st_fhook_install(struct st_fhook *hooks, int nr, const char **failed)
{
	int i, ret;

	for (i = 0; i < nr; i++) {
		ret = st_fhook_install_one(&hooks[i]);
		if (ret) {
			*failed = hooks[i].func;
			st_fhook_remove(hooks, i);
			return ret;
		}
	}
	return 0;
}

/* kernel.ftrace_enabled, found at the first st_fhook_quiet() */
static int *st_ftrace_enabled;

/**
 * st_fhook_quiet() - Whether ftrace calls none of the hooks.
 *
 * Description: sysctl kernel.ftrace_enabled=0 turns every ftrace call site
 * off, ours included (direct calls take no FTRACE_OPS_FL_PERMANENT): hooks
 * that are in then see nothing, which features/ must say.
 *
 * Return: true while kernel.ftrace_enabled is 0; false where its variable
 * is not found.
 */
bool st_fhook_quiet(void)
{
	if (!st_ftrace_enabled)
		st_ftrace_enabled = (int *)st_ksym("ftrace_enabled");
	return st_ftrace_enabled && !READ_ONCE(*st_ftrace_enabled);
}

/*
 * A hook ftrace would not take off may still send CPUs into our code:
 * the module must then never be unloaded, and the hook never reused.
 */
static void st_fhook_pin(struct st_fhook *hook, int err)
{
	/* at unload it is too late for a reference: st_fhook_exit_wait() */
	if (module_is_live(THIS_MODULE)) {
		__module_get(THIS_MODULE);
		pr_err("cannot unhook %s (ftrace error %d): module pinned, it can no longer be unloaded\n",
		       hook->func, err);
	} else {
		pr_err("cannot unhook %s (ftrace error %d) at unload\n",
		       hook->func, err);
	}
	/* ftrace may still use the ops, its filter and the trampoline */
	hook->pinned = true;
	hook->pin_err = err;
}

static int st_fhook_unregister(struct st_fhook *hook)
{
	if (st_inject_unhook_fail(hook->func))
		return -EBUSY;
	if (hook->mech == ST_FHOOK_DIRECT)
		return st_fhook_direct_unregister(hook);
	return unregister_ftrace_function(&hook->ops);
}

/**
 * st_fhook_pinned() - The first hook of a set that ftrace would not take off.
 * @hooks: the hooks
 * @nr: their number
 *
 * Return: that hook, or NULL.
 */
const struct st_fhook *st_fhook_pinned(const struct st_fhook *hooks, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (hooks[i].pinned)
			return &hooks[i];
	return NULL;
}

/**
 * st_fhook_remove() - Remove the installed hooks of a set, in reverse order.
 * @hooks: the hooks
 * @nr: their number
 *
 * Unregistering waits for the ftrace callbacks and the direct trampolines
 * (RCU-tasks, see st_fhook_direct_unregister); synchronize_rcu() then
 * waits for the replacements, which run with preemption disabled.
 * Replacements that may sleep need more: see the in-flight count of their
 * feature.  A hook ftrace would not take off is pinned, and the module
 * with it (st_fhook_pinned()).
 *
 * Context: Process context: sleeps.
 */
void st_fhook_remove(struct st_fhook *hooks, int nr)
{
	bool removed = false;
	int i, ret;

	for (i = nr - 1; i >= 0; i--) {
		struct st_fhook *hook = &hooks[i];

		if (!hook->installed)
			continue;
		ret = st_fhook_unregister(hook);
		if (ret) {
			/* its mechanism stays: st_fhook_exit_wait() unhooks by it */
			st_fhook_pin(hook, ret);
		} else {
			hook->ops.func = NULL;
			hook->ops.trampoline = 0;
			hook->mech = ST_FHOOK_NONE;
		}
		hook->installed = false;
		removed = true;
	}
	if (removed)
		synchronize_rcu();
}

/**
 * st_fhook_release() - Remove a set's hooks and free their filters.
 * @hooks: the hooks
 * @nr: their number
 *
 * Frees the filters that st_fhook_resolve() set up, and the trampoline
 * slots.  A pinned hook keeps them: ftrace may still use them.
 *
 * Context: Process context: sleeps.
 */
void st_fhook_release(struct st_fhook *hooks, int nr)
{
	int i;

	st_fhook_remove(hooks, nr);
	for (i = 0; i < nr; i++) {
		if (hooks[i].pinned)
			continue;
		if (hooks[i].addr)
			ftrace_free_filter(&hooks[i].ops);
		hooks[i].addr = 0;
		st_fhook_slot_put(&hooks[i]);
	}
}

/**
 * st_fhook_exit_wait() - Wait until ftrace takes every pinned hook off.
 * @sets: the hook sets
 * @nrs: the number of hooks of each set
 * @nr_sets: the number of sets
 *
 * At unload, with every feature released: a hook that ftrace would not
 * take off still sends calls into this module's text and keeps its ops
 * on ftrace's lists, so the module's memory must not go.  Exit cannot
 * fail: it tries again every second, for as long as it takes (forever
 * once ftrace has killed itself), and rmmod waits.
 *
 * Context: Process context: sleeps.
 */
void st_fhook_exit_wait(struct st_fhook *const *sets, const int *nrs, int nr_sets)
{
	bool pinned, said = false;
	int s, i, ret;

	do {
		pinned = false;
		for (s = 0; s < nr_sets; s++) {
			for (i = 0; i < nrs[s]; i++) {
				struct st_fhook *hook = &sets[s][i];

				if (!hook->pinned)
					continue;
				ret = st_fhook_unregister(hook);
				if (ret) {
					pinned = true;
					continue;
				}
				pr_info("%s: unhooked at last\n", hook->func);
				hook->pinned = false;
				hook->ops.func = NULL;
				hook->ops.trampoline = 0;
				hook->mech = ST_FHOOK_NONE;
			}
		}
		if (pinned && !said) {
			pr_crit("unload waits: ftrace would not take a hook off, and freeing the module would leave it calling freed code\n");
			said = true;
		}
		if (pinned)
			msleep(1000);
	} while (pinned);
	if (said)
		synchronize_rcu();
}
