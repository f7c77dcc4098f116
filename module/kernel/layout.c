// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's BTF is linked into vmlinux between __start_BTF and
 * __stop_BTF; /sys/kernel/btf/vmlinux shows the same bytes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/printk.h>

#include "btf.h"
#include "ksym.h"
#include "layout.h"

static struct st_btf st_vmlinux_btf;
static bool st_btf_ok;
/* sched_ext's keys: __scx_enabled from 6.16, __scx_ops_enabled before */
static const struct static_key *st_scx_enabled;
static const struct static_key *st_scx_switched_all;
int __percpu *st_sd_llc_id;

/**
 * st_layout_init() - Find the kernel's BTF and the symbols of its layout.
 *
 * Description: sched_ext's keys and st_sd_llc_id are looked up first:
 * they stay NULL where the kernel lacks them.
 *
 * Return: 0; -ENOENT without kernel BTF, or st_btf_init()'s error: the
 * queries then answer -ENOENT.
 */
int st_layout_init(void)
{
	unsigned long start = st_ksym("__start_BTF");
	unsigned long stop = st_ksym("__stop_BTF");
	int ret;

	st_scx_enabled = st_ksym_key("__scx_enabled") ?:
			 st_ksym_key("__scx_ops_enabled");
	st_scx_switched_all = st_ksym_key("__scx_switched_all");
	st_sd_llc_id = (int __percpu *)st_ksym("sd_llc_id");

	if (!start || stop <= start) {
		pr_warn("no kernel BTF found (CONFIG_DEBUG_INFO_BTF?)\n");
		return -ENOENT;
	}
	ret = st_btf_init(&st_vmlinux_btf, (const void *)start, stop - start);
	if (ret) {
		pr_warn("kernel BTF is not readable: %d\n", ret);
		return ret;
	}
	st_btf_ok = true;
	return 0;
}

/**
 * st_layout_exit() - Stop reading the kernel's BTF: the queries answer -ENOENT.
 */
void st_layout_exit(void)
{
	st_btf_ok = false;
}

/**
 * st_layout_member() - A member of a kernel struct or union, from its BTF.
 * @type: the struct's or union's name
 * @member: the member's name
 * @offset: set to its offset in bytes
 * @size: set to its size in bytes, unless NULL
 *
 * Return: 0, -ENOENT without the kernel's BTF, or an error of
 * st_btf_member() (kernel/btf.h).
 */
int st_layout_member(const char *type, const char *member, u32 *offset,
		     u32 *size)
{
	if (!st_btf_ok)
		return -ENOENT;
	return st_btf_member(&st_vmlinux_btf, type, member, offset, size);
}

/**
 * st_layout_enum() - The value of a kernel enumerator, from its BTF.
 * @name: the enumerator's name
 * @val: set to its value
 *
 * Return: 0, -ENOENT without the kernel's BTF, or an error of
 * st_btf_enum_value() (kernel/btf.h).
 */
int st_layout_enum(const char *name, s64 *val)
{
	if (!st_btf_ok)
		return -ENOENT;
	return st_btf_enum_value(&st_vmlinux_btf, name, val);
}

/**
 * st_layout_func_sig() - The prototype of a kernel function, from its BTF.
 * @func: the function's name
 * @buf: where the prototype goes, as C spells it without names
 *       ("bool (struct task_struct *, int, int)"), NUL-terminated when
 *       @len > 0
 * @len: the room in @buf
 *
 * Return: the number of parameters, -ENOENT without the kernel's BTF, or
 * an error of st_btf_func_sig() (kernel/btf.h).
 */
int st_layout_func_sig(const char *func, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (!st_btf_ok)
		return -ENOENT;
	return st_btf_func_sig(&st_vmlinux_btf, func, buf, len);
}

/**
 * st_layout_scx() - Whether a sched_ext scheduler is loaded, and runs all.
 *
 * Return: ST_SCX_OFF, ST_SCX_SOME or ST_SCX_ALL (it runs every task).
 */
enum st_scx_mode st_layout_scx(void)
{
	if (!st_key_on(st_scx_enabled))
		return ST_SCX_OFF;
	return st_key_on(st_scx_switched_all) ? ST_SCX_ALL : ST_SCX_SOME;
}
