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

void st_layout_exit(void)
{
	st_btf_ok = false;
}

int st_layout_member(const char *type, const char *member, u32 *offset,
		     u32 *size)
{
	if (!st_btf_ok)
		return -ENOENT;
	return st_btf_member(&st_vmlinux_btf, type, member, offset, size);
}

int st_layout_enum(const char *name, s64 *val)
{
	if (!st_btf_ok)
		return -ENOENT;
	return st_btf_enum_value(&st_vmlinux_btf, name, val);
}

int st_layout_func_sig(const char *func, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (!st_btf_ok)
		return -ENOENT;
	return st_btf_func_sig(&st_vmlinux_btf, func, buf, len);
}

enum st_scx_mode st_layout_scx(void)
{
	if (!st_key_on(st_scx_enabled))
		return ST_SCX_OFF;
	return st_key_on(st_scx_switched_all) ? ST_SCX_ALL : ST_SCX_SOME;
}
