/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' <linux/compiler.h>: READ_ONCE() and WRITE_ONCE() as
 * relaxed C11 atomics, one access the compiler neither tears, merges nor
 * drops, and no ordering (asm/barrier.h's fences give that), so that
 * test_rl_slot's threads race the module's slot protocol as the kernel
 * runs it; __always_inline and __printf() as the kernel spells them.
 */
#ifndef ST_UNIT_LINUX_COMPILER_H
#define ST_UNIT_LINUX_COMPILER_H

/* glibc's __always_inline is the kernel's */
#include <sys/cdefs.h>

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)

#define __printf(a, b)		__attribute__((__format__(printf, a, b)))

#endif /* ST_UNIT_LINUX_COMPILER_H */
