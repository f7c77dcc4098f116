// SPDX-License-Identifier: GPL-2.0
/*
 * prev_bias's decisions (policy/prev_bias.h).
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#include <linux/kernel.h>
#include <linux/math64.h>

#include "policy/prev_bias.h"

/**
 * st_util_fits_capacity() - fits_capacity(), 20% of a CPU's capacity free.
 * @cpu_util_est: the runnable utilization on the CPU, its cfs_rq's util_est
 * @task_util: the waking task's
 * @capacity: the CPU's capacity
 *
 * The test of UTIL_FITS_CAPACITY's task_fits_remaining_cpu_capacity():
 * util * 1280 < capacity * 1024.
 *
 * Return: whether @cpu_util_est plus @task_util fits @capacity.
 */
bool st_util_fits_capacity(u64 cpu_util_est, u64 task_util, u64 capacity)
{
	return (cpu_util_est + task_util) * 1280 < capacity * 1024;
}

static bool st_pb_known(const struct st_prev_bias_in *in, enum st_pb_fact f)
{
	return in->known & (1U << f);
}

/**
 * st_prev_bias_decide() - prev_bias's verdict, or the fact it needs next.
 * @in: the wakeup's facts, those learnt so far marked in @in->known
 *
 * The patch's steps (policy/prev_bias.h) against S.  Where stock kept P, only step
 * 4 can differ: were T the waker's CPU, stock returned P for being idle,
 * which step 1 keeps; so when P has no room, T is P.
 *
 * Return: an enum st_prev_bias_verdict (>= 0), or -1 - the enum st_pb_fact
 * it needs next.
 */
int st_prev_bias_decide(const struct st_prev_bias_in *in)
{
	if (in->new_is_prev) {
		if (!in->recent_ok)
			return ST_PB_STOCK;
		if (!st_pb_known(in, ST_PB_F_PREV_ROOM))
			return -1 - ST_PB_F_PREV_ROOM;
		if (in->prev_room || in->kthread_stack)
			return ST_PB_STOCK;
		if (!st_pb_known(in, ST_PB_F_RECENT_ROOM))
			return -1 - ST_PB_F_RECENT_ROOM;
		return in->recent_room ? ST_PB_RECENT_ROOM : ST_PB_STOCK;
	}
	if (in->share_prev) {
		if (!st_pb_known(in, ST_PB_F_PREV_ROOM))
			return -1 - ST_PB_F_PREV_ROOM;
		if (in->prev_room)
			return ST_PB_KEEP_ROOM;
	}
	if (!st_pb_known(in, ST_PB_F_TARGET))
		return -1 - ST_PB_F_TARGET;
	if (in->target_apart) {
		/* stock returned T: it stands, unless T has no room */
		if (in->new_is_target && !in->share_prev &&
		    (!in->recent_ok || in->recent_is_target))
			return ST_PB_STOCK;
		if (!st_pb_known(in, ST_PB_F_TARGET_ROOM))
			return -1 - ST_PB_F_TARGET_ROOM;
		if (in->target_room)
			return in->new_is_target ? ST_PB_STOCK :
						   ST_PB_TARGET_ROOM;
	}
	/* step 3 returns P, which stock returned too: S is not P here */
	if (in->kthread_stack)
		return ST_PB_STOCK;
	if (in->recent_ok && !in->recent_is_target) {
		if (!st_pb_known(in, ST_PB_F_RECENT_ROOM))
			return -1 - ST_PB_F_RECENT_ROOM;
		if (in->recent_room)
			return in->recent_is_new ? ST_PB_STOCK :
						   ST_PB_RECENT_ROOM;
	}
	if (!in->share_prev)
		return ST_PB_STOCK;
	/* a busy S is the target stock settled for: no idle CPU found */
	if (!st_pb_known(in, ST_PB_F_NEW_IDLE))
		return -1 - ST_PB_F_NEW_IDLE;
	return in->new_idle ? ST_PB_STOCK : ST_PB_KEEP_BUSY;
}
