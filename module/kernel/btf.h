/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small reader of the kernel's raw BTF, for the layout of types that
 * live in kernel/sched/ and no header shows, and for the prototypes of the
 * functions the module takes over.  Pure: it reads a blob and calls
 * nothing, so the unit tests run it on /sys/kernel/btf/vmlinux and on
 * mutated blobs.
 */
#ifndef SCHED_TUNE_KERNEL_BTF_H
#define SCHED_TUNE_KERNEL_BTF_H

#include <linux/types.h>

struct st_btf {
	const u8 *types;
	u32 types_len;
	const char *strs;
	u32 strs_len;
};

/*
 * The queries: btf.c.
 *
 * Errors, the same for every call:
 *   -EINVAL    malformed BTF (an offset, length, id or name out of range,
 *              a size that does not fit in u32), or what the module cannot
 *              use: a member that is a bit field or lies outside its type
 *   -ENOENT    no such type, member, enumerator or function
 *   -ELOOP     a chain of typedefs, qualifiers, pointers or arrays longer
 *              than 32 hops, or anonymous members / function pointers
 *              nested deeper than 8 (real kernels need a few)
 *   -ENOTUNIQ  functions of that name with different prototypes, structs
 *              or unions of that name with different sizes, or (for a
 *              member) same-size ones that place it differently
 *   -ENOSPC    st_btf_func_sig(): @buf too small
 */
int st_btf_init(struct st_btf *btf, const void *data, size_t size);
int st_btf_check(const struct st_btf *btf);
int st_btf_member(const struct st_btf *btf, const char *type,
		  const char *member, u32 *offset, u32 *size);
int st_btf_enum_value(const struct st_btf *btf, const char *name, s64 *val);
int st_btf_type_size(const struct st_btf *btf, const char *type, u32 *size);
int st_btf_func_sig(const struct st_btf *btf, const char *func, char *buf,
		    size_t len);

#endif /* SCHED_TUNE_KERNEL_BTF_H */
