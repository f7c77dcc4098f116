// SPDX-License-Identifier: GPL-2.0
/*
 * The EEVDF slice's decisions (policy/eevdf.h).
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#include <linux/kernel.h>
#include <linux/math64.h>

#include "policy/eevdf.h"

/**
 * st_eevdf_slice() - The request the running task gets under a slice mode.
 * @mode: an enum st_eevdf_slice_mode
 * @base: the kernel's base_slice_ns
 * @fixed: the request of ST_SLICE_FIXED
 * @latency: what ST_SLICE_SCALED shares
 * @nr: the entities queued on the task's runqueue, the task itself counted
 *
 * Return: the request in ns: @base for stock; @fixed; or for scaled
 * @latency shared by the @nr entities, CFS-style, never below @base and
 * never above the larger of @base and ST_EEVDF_SLICE_MAX_NS.
 */
u64 st_eevdf_slice(unsigned int mode, u64 base, u64 fixed, u64 latency,
		   unsigned int nr)
{
	u64 hi = base > ST_EEVDF_SLICE_MAX_NS ? base : ST_EEVDF_SLICE_MAX_NS;
	u64 slice;

	switch (mode) {
	case ST_SLICE_FIXED:
		return fixed;
	case ST_SLICE_SCALED:
		slice = latency / (nr ? nr : 1);
		if (slice < base)
			return base;
		return slice > hi ? hi : slice;
	case ST_SLICE_STOCK:
	default:
		return base;
	}
}

/**
 * st_eevdf_deadline() - The deadline of a request of another length.
 * @vruntime: the entity's vruntime
 * @deadline: its deadline, just set to @vruntime plus its request of
 *            @old_slice in virtual time (vd = ve + r / w)
 * @old_slice: that request, in ns
 * @new_slice: the new request, in ns
 *
 * The virtual length scales with the request, so the entity's weight is
 * not needed.
 *
 * Return: the deadline of @new_slice; @deadline unchanged when it is not
 * ahead of @vruntime or @old_slice is 0.
 */
u64 st_eevdf_deadline(u64 vruntime, u64 deadline, u64 old_slice,
		      u64 new_slice)
{
	u64 vslice = deadline - vruntime;

	if ((long long)vslice <= 0 || !old_slice)
		return deadline;
	return vruntime + mul_u64_u64_div_u64(vslice, new_slice, old_slice);
}

/**
 * st_eevdf_request_left() - What is left of an entity's request.
 * @r: the request
 *
 * A reweight keeps it (d' - v' = (d - v) * w / w'), running takes the
 * time run from it, a renewal resets it to the slice.
 *
 * Return: (deadline - vruntime) * weight / NICE_0_LOAD, in ns of the
 * entity's own run time, negative once used up.
 */
s64 st_eevdf_request_left(const struct st_ev_request *r)
{
	u64 v = r->deadline - r->vruntime;
	bool neg = (s64)v < 0;
	u64 left = mul_u64_u64_shr(neg ? -v : v, r->weight,
				   ST_NICE_0_LOAD_SHIFT);

	if (left > S64_MAX)
		left = S64_MAX;
	return neg ? -(s64)left : (s64)left;
}

/**
 * st_eevdf_renewed() - Whether a tick renewed an entity's request.
 * @before: the request before the tick
 * @after: the request the tick left
 * @slice: the request a renewal gives, in ns
 *
 * Renewed: update_deadline() found it used up and gave a new one of
 * @slice ns, rather than only running it down or moving its deadline by a
 * reweight (7.3's reweight_eevdf() after the tick, 6.12's reweight_entity()
 * of a group entity).  Without a renewal, what is left after the tick is
 * what was left before less the time run; a renewal leaves a whole
 * request, which is at least that plus the request since it happens only
 * once nothing is left.  Half a request tells the two apart.
 *
 * Return: true if the tick renewed the request.
 */
bool st_eevdf_renewed(const struct st_ev_request *before,
		      const struct st_ev_request *after, u64 slice)
{
	s64 ran = (s64)(after->sum_exec - before->sum_exec);
	s64 gained;

	/* update_curr() calls update_deadline() only for time run */
	if (ran <= 0 || after->deadline == before->deadline)
		return false;
	gained = st_eevdf_request_left(after) - st_eevdf_request_left(before) + ran;
	return gained > (s64)(slice / 2);
}
