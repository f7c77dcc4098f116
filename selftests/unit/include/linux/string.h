/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' <linux/string.h>: the kernel's string functions the
 * module's shared files call (strcmp(), memcpy() & co.) are libc's.
 */
#ifndef ST_UNIT_LINUX_STRING_H
#define ST_UNIT_LINUX_STRING_H

#include <string.h>

#endif /* ST_UNIT_LINUX_STRING_H */
