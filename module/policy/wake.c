// SPDX-License-Identifier: GPL-2.0
/*
 * Stock's wake_wide() and wake_affine() (policy/wake.h).
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#include <linux/kernel.h>
#include <linux/math64.h>

#include "policy/wake.h"

/**
 * st_wake_wide() - wake_wide() of kernel/sched/fair.c, on its inputs.
 * @waker_flips: the waker's wakee_flips
 * @wakee_flips: the wakee's
 * @llc_size: sd_llc_size of the waker's CPU
 *
 * Return: true when both flip counts reach @llc_size and the larger is at
 * least @llc_size times the smaller.
 */
bool st_wake_wide(unsigned int waker_flips, unsigned int wakee_flips,
		  int llc_size)
{
	bool waker_more = waker_flips > wakee_flips;
	unsigned int master = waker_more ? waker_flips : wakee_flips;
	unsigned int slave = waker_more ? wakee_flips : waker_flips;

	return !(slave < (unsigned int)llc_size ||
		 master < slave * (unsigned int)llc_size);
}

/**
 * st_wake_affine_idle() - wake_affine_idle() of kernel/sched/fair.c.
 * @in: the facts of the waker's CPU (this) and the wakee's previous one
 *
 * Return: the CPU it chooses, or ST_AFFINE_NONE to let
 * st_wake_affine_weight() decide.
 */
enum st_affine st_wake_affine_idle(const struct st_affine_idle_in *in)
{
	if (in->this_idle && in->share_cache)
		return in->prev_idle ? ST_AFFINE_PREV : ST_AFFINE_THIS;
	if (in->sync && in->this_nr == 1)
		return ST_AFFINE_THIS;
	if (in->prev_idle)
		return ST_AFFINE_PREV;
	return ST_AFFINE_NONE;
}

/**
 * st_wake_affine_weight() - wake_affine_weight() of kernel/sched/fair.c.
 * @in: the loads and capacities of the waker's CPU and the wakee's previous
 *      one
 *
 * s64 and the comparisons as the kernel writes them.
 *
 * Return: true when the waker's CPU wins by load.
 */
bool st_wake_affine_weight(const struct st_affine_weight_in *in)
{
	s64 this_eff_load = in->this_load, prev_eff_load;

	if (in->sync) {
		if (in->current_load > (u64)this_eff_load)
			return true;
		this_eff_load -= in->current_load;
	}
	this_eff_load += in->task_load;
	if (in->bias)
		this_eff_load *= 100;
	this_eff_load *= in->prev_cap;

	prev_eff_load = in->prev_load;
	prev_eff_load -= in->task_load;
	if (in->bias)
		prev_eff_load *= 100 + (in->imbalance_pct - 100) / 2;
	prev_eff_load *= in->this_cap;
	if (in->sync)
		prev_eff_load += 1;
	return this_eff_load < prev_eff_load;
}
