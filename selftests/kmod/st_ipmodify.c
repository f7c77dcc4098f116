// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: an IPMODIFY ftrace user, as livepatch is, on one kernel
 * function (parameter func=, default select_task_rq_fair).  Its callback
 * changes nothing, so the function still runs as stock.  sched_tune must
 * never be active on a function next to such a user: whichever comes
 * second must be refused by ftrace (-EBUSY), and this module's load then
 * fails with that error.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>

static char *func = "select_task_rq_fair";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "kernel function to register on");

static void notrace st_ipmodify_cb(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *ops,
				   struct ftrace_regs *fregs)
{
}

static struct ftrace_ops st_ipmodify_ops = {
	.func = st_ipmodify_cb,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
};

static int __init st_ipmodify_init(void)
{
	struct kprobe kp = { .symbol_name = func };
	unsigned long addr;
	int ret;

	/* the address of a static function, through a kprobe */
	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);

	ret = ftrace_set_filter_ip(&st_ipmodify_ops, addr, 0, 0);
	if (ret)
		return ret;
	ret = register_ftrace_function(&st_ipmodify_ops);
	if (ret) {
		pr_info("%s: register_ftrace_function: %d\n", func, ret);
		ftrace_free_filter(&st_ipmodify_ops);
		return ret;
	}
	pr_info("%s: IPMODIFY ftrace_ops registered\n", func);
	return 0;
}

static void __exit st_ipmodify_exit(void)
{
	unregister_ftrace_function(&st_ipmodify_ops);
	ftrace_free_filter(&st_ipmodify_ops);
}

module_init(st_ipmodify_init);
module_exit(st_ipmodify_exit);
MODULE_DESCRIPTION("sched_tune selftest: an IPMODIFY ftrace user");
MODULE_LICENSE("GPL");
