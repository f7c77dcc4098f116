/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small reader of the kernel's raw BTF, for the layout of types that
 * live in kernel/sched/ and no header shows.  Pure: it reads a blob and
 * calls nothing, so the unit tests run it on /sys/kernel/btf/vmlinux.
 */
#ifndef SCHED_TUNE_WRAPPER_BTF_H
#define SCHED_TUNE_WRAPPER_BTF_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
/* the userspace unit tests build this file too */
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
#endif

struct st_btf {
	const u8 *types;
	u32 types_len;
	const char *strs;
	u32 strs_len;
};

int st_btf_init(struct st_btf *btf, const void *data, size_t size);
int st_btf_member(const struct st_btf *btf, const char *type,
		  const char *member, u32 *offset, u32 *size);
int st_btf_enum_value(const struct st_btf *btf, const char *name, s64 *val);
int st_btf_type_size(const struct st_btf *btf, const char *type, u32 *size);

#endif /* SCHED_TUNE_WRAPPER_BTF_H */
