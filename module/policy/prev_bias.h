/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prev_bias (prev_bias.c).
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#ifndef SCHED_TUNE_POLICY_PREV_BIAS_H
#define SCHED_TUNE_POLICY_PREV_BIAS_H

#include <linux/types.h>

bool st_util_fits_capacity(u64 cpu_util_est, u64 task_util, u64 capacity);

/*
 * prev_bias: SELECT_BIAS_PREV with UTIL_FITS_CAPACITY (v2), judged on the
 * CPU S that stock's select_task_rq_fair() chose, since
 * select_idle_sibling(p, prev, target) is inlined.  P is prev, T the
 * target wake_affine() left, R p->recent_used_cpu as stock found it.
 * "Room": idle as select_idle_sibling() tests it, or the task fits what
 * the CPU's runnable tasks leave of its capacity.  The patch, in order:
 *  1. P sharing T's cache (or T itself) with room: P;
 *  2. T with room: T;
 *  3. a per-CPU kthread waking the task on P, its own CPU, alone: P;
 *  4. R (not P nor T, sharing T's cache, allowed) with room: R;
 *  5. stock's scan (an idle SMT sibling of P, or an idle CPU);
 *  6. nothing idle, P sharing T's cache and not T: P; else T.
 * Facts that cost a call are learnt on demand: st_prev_bias_decide()
 * returns the verdict, or asks for the next fact it needs.
 */
enum st_pb_fact {
	ST_PB_F_PREV_ROOM,	/* prev_room */
	ST_PB_F_TARGET,		/* target_apart, new_is_target, recent_is_target */
	ST_PB_F_TARGET_ROOM,	/* target_room */
	ST_PB_F_RECENT_ROOM,	/* recent_room */
	ST_PB_F_NEW_IDLE,	/* new_idle */
	ST_PB_NR_FACTS
};

struct st_prev_bias_in {
	/* known up front */
	bool new_is_prev;	/* S == P */
	bool share_prev;	/* P in S's LLC, which is T's */
	bool kthread_stack;	/* step 3's conditions */
	bool recent_ok;		/* R != P, in S's LLC, in p->cpus_ptr */
	bool recent_is_new;	/* R == S */
	/* learnt: BIT(fact) in known */
	unsigned int known;
	bool prev_room;
	bool target_apart;	/* T != P: wake_affine() chose the waker's CPU */
	bool new_is_target;	/* S == T */
	bool recent_is_target;	/* R == T */
	bool target_room;
	bool recent_room;
	bool new_idle;		/* S idle: stock's scan found it */
};

enum st_prev_bias_verdict {
	ST_PB_STOCK,		/* stock's choice stands */
	ST_PB_KEEP_ROOM,	/* 1: P */
	ST_PB_TARGET_ROOM,	/* 2: T */
	ST_PB_RECENT_ROOM,	/* 4: R */
	ST_PB_KEEP_BUSY,	/* 6: P */
	ST_PB_NR_VERDICTS
};

int st_prev_bias_decide(const struct st_prev_bias_in *in);

/**
 * st_prev_bias_stock_kept() - Whether prev_bias leaves stock's prev alone.
 * @prev: the wakee's previous CPU
 * @new: stock's choice
 * @recent: the task's recent_used_cpu
 * @recent_llc: whether @recent shares @new's LLC
 *
 * st_prev_bias_decide()'s first test, without a call.  Inline, the
 * compiler reads @recent_llc only where it matters.
 *
 * Return: true when stock kept prev, and the task's recent_used_cpu is
 * prev or outside prev's LLC: no step of the patch moves it.
 */
static __always_inline bool st_prev_bias_stock_kept(int prev, int new,
						    int recent,
						    bool recent_llc)
{
	return new == prev && (recent == prev || !recent_llc);
}

#endif /* SCHED_TUNE_POLICY_PREV_BIAS_H */
