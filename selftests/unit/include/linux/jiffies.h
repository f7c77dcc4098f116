/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' <linux/jiffies.h>: the comparison of two jiffies values
 * that survives their wrap, as the kernel's (less its typecheck()).
 */
#ifndef ST_UNIT_LINUX_JIFFIES_H
#define ST_UNIT_LINUX_JIFFIES_H

#define time_before_eq(a, b)	((long)((b) - (a)) >= 0)

#endif /* ST_UNIT_LINUX_JIFFIES_H */
