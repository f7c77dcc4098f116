/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' <linux/math64.h>: the 64x64-bit products the module's
 * policy scales by, through a 128-bit intermediate, as the kernel's
 * generic versions compute them.
 */
#ifndef ST_UNIT_LINUX_MATH64_H
#define ST_UNIT_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)((__uint128_t)a * b / c);
}

static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	return (u64)(((__uint128_t)a * b) >> shift);
}

#endif /* ST_UNIT_LINUX_MATH64_H */
