/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The EEVDF slice (seed 001, eevdf.c).
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#ifndef SCHED_TUNE_POLICY_EEVDF_H
#define SCHED_TUNE_POLICY_EEVDF_H

#include <linux/types.h>

/* eevdf_slice: whose request the running task's next deadline is */
enum st_eevdf_slice_mode {
	ST_SLICE_STOCK,
	ST_SLICE_FIXED,
	ST_SLICE_SCALED,
	ST_NR_SLICE_MODES
};

/*
 * EEVDF slice policy (eevdf.c).  The bounds of a slice are those
 * sched_setattr() puts on a custom slice (sched_runtime, 6.12): the
 * kernel's own idea of a sane request.
 */
#define ST_EEVDF_SLICE_MIN_NS	100000ULL
#define ST_EEVDF_SLICE_MAX_NS	100000000ULL

u64 st_eevdf_slice(unsigned int mode, u64 base, u64 fixed, u64 latency,
		   unsigned int nr);
u64 st_eevdf_deadline(u64 vruntime, u64 deadline, u64 old_slice,
		      u64 new_slice);

/* NICE_0_LOAD of a 64-bit kernel: se->load.weight of a nice-0 task */
#define ST_NICE_0_LOAD_SHIFT	20

/* An entity's request as a tick leaves it, for st_eevdf_renewed(). */
struct st_ev_request {
	u64 deadline;
	u64 vruntime;
	u64 weight;		/* what calc_delta_fair() divides by */
	u64 sum_exec;		/* se->sum_exec_runtime */
};

s64 st_eevdf_request_left(const struct st_ev_request *r);
bool st_eevdf_renewed(const struct st_ev_request *before,
		      const struct st_ev_request *after, u64 slice);

#endif /* SCHED_TUNE_POLICY_EEVDF_H */
