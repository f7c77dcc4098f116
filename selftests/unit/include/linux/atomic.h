/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' <linux/atomic.h>: cmpxchg_acquire() as a C11 strong
 * compare-exchange, acquire on success and relaxed on failure, returning
 * the value found.  Of u32 only, the one width the module's shared files
 * exchange (struct st_rl_slot's seq); another is a compile error here.
 */
#ifndef ST_UNIT_LINUX_ATOMIC_H
#define ST_UNIT_LINUX_ATOMIC_H

#include <linux/types.h>

static inline u32 cmpxchg_acquire(u32 *ptr, u32 old, u32 new)
{
	__atomic_compare_exchange_n(ptr, &old, new, false, __ATOMIC_ACQUIRE,
				    __ATOMIC_RELAXED);
	return old;
}

#endif /* ST_UNIT_LINUX_ATOMIC_H */
