// SPDX-License-Identifier: GPL-2.0
/*
 * Test livepatch of the selftests: takes over ttwu_queue_wakelist(), the
 * function sched_tune's cache_level feature hooks, so the bench can check
 * how the two coexist.
 *
 * The replacement returns false: "not queued, wake the task directly",
 * which is what the original itself returns whenever the TTWU_QUEUE sched
 * feature is off or ttwu_queue_cond() says no (6.1, 6.12 and 7.3 alike).
 * Both callers handle false as the ordinary path: ttwu_queue() takes the
 * target runqueue's lock and activates the task, and try_to_wake_up()
 * waits for p->on_cpu to clear before doing the same.  So every wakeup
 * stays correct; only the IPI offload is gone while the patch is on.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/sched.h>

static bool st_lp_ttwu_queue_wakelist(struct task_struct *p, int cpu,
				      int wake_flags)
{
	return false;
}

static struct klp_func st_lp_funcs[] = {
	{
		.old_name = "ttwu_queue_wakelist",
		.new_func = st_lp_ttwu_queue_wakelist,
	},
	{ }
};

static struct klp_object st_lp_objs[] = {
	{
		/* name NULL: vmlinux */
		.funcs = st_lp_funcs,
	},
	{ }
};

static struct klp_patch st_lp_patch = {
	.mod = THIS_MODULE,
	.objs = st_lp_objs,
};

static int __init st_lp_init(void)
{
	return klp_enable_patch(&st_lp_patch);
}

static void __exit st_lp_exit(void)
{
}

module_init(st_lp_init);
module_exit(st_lp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("sched_tune selftests: livepatch of ttwu_queue_wakelist (always direct wakeups)");
MODULE_INFO(livepatch, "Y");
