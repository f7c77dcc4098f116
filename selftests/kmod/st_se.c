// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: one task's EEVDF request, read without touching the
 * scheduler.  Write a pid to /sys/module/st_se/parameters/task; reading
 * it gives "PID VRUNTIME DEADLINE SLICE" (ns) of that task's entity.
 *
 * The tests read these here, not from debugfs sched/debug: on Debian's
 * 6.12.118 its print_cfs_rq() runs avg_vruntime(), which writes
 * cfs_rq->avg_vruntime and zero_vruntime, after dropping the rq lock, and
 * concurrent reads leave a cfs_rq with no eligible entity (a NULL
 * dereference in pick_task_fair(); docs/kernels.md).  The fields are
 * read racily: the tests read them of stopped tasks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/rcupdate.h>
#include <linux/version.h>

/* EEVDF (6.6) gave the entity a deadline and a slice */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)

static int st_se_pid;

static int st_se_set(const char *val, const struct kernel_param *kp)
{
	int pid, ret = kstrtoint(val, 10, &pid);

	if (ret)
		return ret;
	if (pid <= 0)
		return -EINVAL;
	st_se_pid = pid;
	return 0;
}

static int st_se_get(char *buf, const struct kernel_param *kp)
{
	struct task_struct *p;
	u64 vruntime, deadline, slice;

	if (!st_se_pid)
		return -ENODATA;
	rcu_read_lock();
	p = pid_task(find_vpid(st_se_pid), PIDTYPE_PID);
	if (p) {
		vruntime = READ_ONCE(p->se.vruntime);
		deadline = READ_ONCE(p->se.deadline);
		slice = READ_ONCE(p->se.slice);
	}
	rcu_read_unlock();
	if (!p)
		return -ESRCH;
	return sysfs_emit(buf, "%d %llu %llu %llu\n", st_se_pid, vruntime,
			  deadline, slice);
}

static const struct kernel_param_ops st_se_ops = {
	.set = st_se_set,
	.get = st_se_get,
};
module_param_cb(task, &st_se_ops, NULL, 0644);
MODULE_PARM_DESC(task, "pid whose entity to read");

static int __init st_se_init(void)
{
	return 0;
}

#else

static int __init st_se_init(void)
{
	pr_info("no EEVDF entity before 6.6\n");
	return -EOPNOTSUPP;
}

#endif

static void __exit st_se_exit(void)
{
}

module_init(st_se_init);
module_exit(st_se_exit);
MODULE_DESCRIPTION("sched_tune selftests: a task's EEVDF request");
MODULE_LICENSE("GPL");
