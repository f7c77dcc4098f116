// SPDX-License-Identifier: GPL-2.0
/*
 * The selftests' fault injection (test_inject.h): built only with
 * ST_TEST=1.  Each parameter acts a failure out through the module's own
 * path for it; none makes a feature run where it would not.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "sched_tune.h"
#include "test_inject.h"

/*
 * gate_simulate: entries that make the module meet a kernel it was not
 * checked on, through its real refusal paths:
 *  feature=major.minor	the gate sees that series for that feature
 *  feature=sublevel:N	that stable sublevel of the running series
 *  feature=vendor	a kernel not built by Debian
 *  feature=config:OPT	this build's CONFIG_OPT the other way
 *  feature=shape	its first function has another prototype in BTF
 *  feature=shape:FUNC	FUNC, one of its functions, has another prototype
 *  feature=nobtf:FUNC	BTF has no prototype of FUNC
 *  feature=size:FUNC	FUNC, a function it is fingerprinted by, is 16
 *			bytes larger than this build's record
 *  nosym:SYM		kallsyms finds no SYM, whoever asks (st_ksym())
 *  nokprobe		the kprobe that finds kallsyms fails: the load fails
 */
static char st_gate_simulate[128];
module_param_string(gate_simulate, st_gate_simulate, sizeof(st_gate_simulate), 0);
MODULE_PARM_DESC(gate_simulate,
		 "testing only: feature=series|sublevel:N|vendor|config:OPTION|shape|shape:FUNC|nobtf:FUNC|size:FUNC, nosym:SYM, nokprobe[,...]: refuses as if the kernel were that series, that stable sublevel, not Debian's build, built with the other value of CONFIG_OPTION, had another prototype or none in BTF, FUNC of another size than recorded, no symbol SYM, or no kprobe on kallsyms");

/**
 * st_inject_value() - gate_simulate's value for a feature.
 * @feature: the feature's name
 * @buf: where the value goes, cut to fit
 * @size: the room in @buf
 *
 * Return: true if gate_simulate has an entry "<feature>=<value>", its value
 * then copied to @buf.
 */
bool st_inject_value(const char *feature, char *buf, size_t size)
{
	size_t flen = strlen(feature);
	const char *p = st_gate_simulate;

	while (*p) {
		const char *end = strchrnul(p, ',');

		if (!strncmp(p, feature, flen) && p[flen] == '=') {
			size_t n = end - (p + flen + 1);

			if (n >= size)
				n = size - 1;
			memcpy(buf, p + flen + 1, n);
			buf[n] = '\0';
			return true;
		}
		p = *end ? end + 1 : end;
	}
	return false;
}

/**
 * st_inject_entry() - Whether gate_simulate holds an entry.
 * @prefix: the entry's start, e.g. "nosym:"
 * @name: the rest of it
 *
 * Return: true if an entry is exactly @prefix followed by @name.
 */
bool st_inject_entry(const char *prefix, const char *name)
{
	size_t plen = strlen(prefix), nlen = strlen(name);
	const char *p = st_gate_simulate;

	while (*p) {
		const char *end = strchrnul(p, ',');

		if ((size_t)(end - p) == plen + nlen && !strncmp(p, prefix, plen) &&
		    !strncmp(p + plen, name, nlen))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

static char test_unhook_fail[32];
module_param_string(test_unhook_fail, test_unhook_fail,
		    sizeof(test_unhook_fail), 0);
MODULE_PARM_DESC(test_unhook_fail,
		 "testing only: FUNC[:N]: act as if ftrace refused to unhook FUNC (the hook stays in and the module pins itself), every time or the first N times");

/**
 * st_inject_unhook_fail() - Whether to act out ftrace refusing an unhook.
 * @func: the hooked function
 *
 * test_unhook_fail=FUNC fails every time, FUNC:N the first N times.
 *
 * Return: true if test_unhook_fail names @func and has a failure left.
 */
bool st_inject_unhook_fail(const char *func)
{
	static unsigned int failed;
	size_t len = strlen(func);
	unsigned int times;

	if (strncmp(test_unhook_fail, func, len))
		return false;
	if (!test_unhook_fail[len])
		return true;
	if (test_unhook_fail[len] != ':' ||
	    kstrtouint(test_unhook_fail + len + 1, 10, &times))
		return false;
	return failed++ < times;
}

/*
 * test_stamp_delay=COMM:USECS: a migration of a task named COMM waits
 * between reading the configuration and stamping, so that a knob write
 * lands inside a stamp of the old configuration (st_rl_forget_live()
 * must wait for it).  It waits until a new configuration is published,
 * and ST_DELAY_AFTER_MS more, or USECS in all: a test polling from a
 * slow guest need not catch it within a fixed time.
 */
DEFINE_STATIC_KEY_FALSE(st_inject_delay_key);
static char st_delay_comm[TASK_COMM_LEN];
static unsigned int st_delay_us;
/* stamps inside the delay now, and delays no publish cut short */
static atomic_t st_delaying = ATOMIC_INIT(0);
static atomic_t st_delays_full = ATOMIC_INIT(0);
/* past a writer's wipe of the table, had it not waited for the stamp */
#define ST_DELAY_AFTER_MS	100

static int st_delay_set(const char *val, const struct kernel_param *kp)
{
	const char *colon = strrchr(val, ':');
	unsigned int us;

	if (!colon || colon == val || colon - val >= TASK_COMM_LEN ||
	    kstrtouint(colon + 1, 10, &us) || us > USEC_PER_SEC)
		return -EINVAL;
	memset(st_delay_comm, 0, sizeof(st_delay_comm));
	memcpy(st_delay_comm, val, colon - val);
	st_delay_us = us;
	return 0;
}

static const struct kernel_param_ops st_delay_ops = {
	.set = st_delay_set,
};
module_param_cb(test_stamp_delay, &st_delay_ops, NULL, 0);
MODULE_PARM_DESC(test_stamp_delay,
		 "testing only: COMM:USECS: a migration of a task named COMM waits with the configuration it read before it stamps, until 100 ms after a new one is published or USECS (at most 1000000)");

/**
 * st_inject_init() - Arm test_stamp_delay, if it was given.
 *
 * At the rate limit's probe, once the module's jump labels are live.
 */
void st_inject_init(void)
{
	if (st_delay_comm[0])
		static_branch_enable(&st_inject_delay_key);
}

/**
 * st_inject_delaying() - How many stamps test_stamp_delay holds now.
 * @full: set to how many of its delays ran their whole USECS, no new
 *	configuration published while they waited (a test that missed the
 *	stamp tells a delay it did not see from one that never ran)
 *
 * Return: their number, for debugfs.
 */
int st_inject_delaying(int *full)
{
	*full = atomic_read(&st_delays_full);
	return atomic_read(&st_delaying);
}

/**
 * st_inject_delay() - test_stamp_delay's wait, before a stamp of @p.
 * @p: the migrating task: only one named as test_stamp_delay says waits
 * @cfg: the configuration the hook read
 *
 * Context: The rate limit's migrate_task_rq_fair hook (st_inject_stamp()):
 * busy-waits, in steps of a millisecond.
 */
noinline void st_inject_delay(struct task_struct *p,
			      const struct st_config *cfg)
{
	unsigned int ms, end = DIV_ROUND_UP(st_delay_us, USEC_PER_MSEC);
	bool changed = false;

	if (strncmp(p->comm, st_delay_comm, TASK_COMM_LEN))
		return;
	atomic_inc(&st_delaying);
	for (ms = 0; ms < end; ms++) {
		if (!changed && rcu_access_pointer(st_config) != cfg) {
			changed = true;
			end = min(end, ms + ST_DELAY_AFTER_MS);
		}
		mdelay(1);
	}
	if (!changed)
		atomic_inc(&st_delays_full);
	atomic_dec(&st_delaying);
}
