/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' <asm/barrier.h>: smp_rmb() and smp_wmb() as C11 fences,
 * one that orders loads (acquire) and one that orders stores (release),
 * as the kernel's order them between CPUs.
 */
#ifndef ST_UNIT_ASM_BARRIER_H
#define ST_UNIT_ASM_BARRIER_H

#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)	/* loads */
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)	/* stores */

#endif /* ST_UNIT_ASM_BARRIER_H */
