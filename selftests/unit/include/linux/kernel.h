/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' <linux/kernel.h>: what the module's shared files take
 * from the kernel's (ARRAY_SIZE(), the limits, snprintf() and
 * scnprintf()), from libc where libc has it.
 */
#ifndef ST_UNIT_LINUX_KERNEL_H
#define ST_UNIT_LINUX_KERNEL_H

#include <stdarg.h>
#include <stdio.h>
#include <linux/compiler.h>
#include <linux/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define U64_MAX		UINT64_MAX
#define S64_MAX		INT64_MAX

/*
 * The kernel's scnprintf(): the bytes written to @buf, less its NUL,
 * never more than @size - 1 (snprintf() would count what did not fit).
 */
static inline __printf(3, 4)
int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int i;

	va_start(args, fmt);
	i = vsnprintf(buf, size, fmt, args);
	va_end(args);
	if (i < 0)
		return 0;
	if ((size_t)i < size)
		return i;
	return size ? size - 1 : 0;
}

#endif /* ST_UNIT_LINUX_KERNEL_H */
