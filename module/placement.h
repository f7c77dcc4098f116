/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What prev_bias and sync_short read of the scheduler to judge a wakeup
 * that stock's select_task_rq_fair() placed (select_idle_sibling() is
 * inlined on every kernel here): runqueue fields, idleness as
 * select_idle_sibling() tests it, UTIL_FITS_CAPACITY's remaining
 * capacity, and the target wake_affine() left.  Resolved by
 * st_placement_probe(); the facts are in policy/prev_bias.h.
 */
#ifndef SCHED_TUNE_PLACEMENT_H
#define SCHED_TUNE_PLACEMENT_H

#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/topology.h>

#include "policy/wake.h"
#include "kernel/ksym.h"
#include "kernel/layout.h"

struct st_feature;

/* Offsets from the kernel's BTF; queued and runnable 0 where absent. */
struct st_place_layout {
	char __percpu *runqueues;
	const int __percpu *llc_size;	/* sd_llc_size */
	unsigned int *sched_features;	/* sysctl_sched_features */
	u32 rq_nr_running;
	u32 rq_capacity;		/* rq.cpu_capacity */
	u32 rq_sd;			/* rq.sd */
	u32 rq_cfs;			/* rq.cfs */
	u32 cfs_load_avg;		/* cfs_rq.avg.load_avg */
	u32 cfs_util_est;		/* cfs_rq.avg.util_est (first u32) */
	u32 cfs_h_load;			/* cfs_rq.h_load */
	u32 cfs_idle;			/* idle_h_nr_running, 7.x: h_nr_idle */
	u32 cfs_queued, cfs_runnable;	/* h_nr_queued, h_nr_runnable (6.12+) */
	/* sched feature bits */
	u8 wa_idle, wa_weight, wa_bias, util_est;
	/* 6.1's struct util_est: a task's ewma follows its enqueued */
	bool util_est_pair;
};

extern struct st_place_layout st_pl;
/* never NULL: the kernel's, or st_key_never */
extern const struct static_key *st_pl_asym_cpucap;
extern const struct static_key *st_pl_cluster;
extern const struct static_key *st_pl_smt;

int st_placement_probe(struct st_feature *f);
ST_KCALL_DECLARE(st_place_idle_cpu, int (int));

/* @cpu's struct rq, whose fields are at st_pl's offsets */
static __always_inline const char *st_rq(int cpu)
{
	return per_cpu_ptr(st_pl.runqueues, cpu);
}

/* The 32-bit field of @cpu's rq at offset @off */
static __always_inline unsigned int st_rq_u32(int cpu, u32 off)
{
	return READ_ONCE(*(const unsigned int *)(st_rq(cpu) + off));
}

/* rq->nr_running of @cpu */
static __always_inline unsigned int st_rq_nr_running(int cpu)
{
	return st_rq_u32(cpu, st_pl.rq_nr_running);
}

/* sched_feat(): whether sched feature @bit (st_pl's) is on */
static __always_inline bool st_sched_feat(u8 bit)
{
	return READ_ONCE(*st_pl.sched_features) & (1U << bit);
}

/**
 * st_place_stand_aside() - Whether prev_bias and sync_short stand aside.
 *
 * Description: They leave every wakeup to stock on CPUs of asymmetric
 * capacity (select_idle_capacity()) and clusters, whose
 * select_idle_sibling() falls back on prev or recent_used_cpu after its
 * scan, an order the result cannot tell apart.
 *
 * Return: true if either kind of CPU is present.
 */
static __always_inline bool st_place_stand_aside(void)
{
	return st_key_on_found(st_pl_asym_cpucap) ||
	       st_key_on_found(st_pl_cluster);
}

/* available_idle_cpu() of kernel/sched/core.c */
static inline bool st_place_available_idle(int cpu)
{
	return st_kcall(st_place_idle_cpu)(cpu) && !vcpu_is_preempted(cpu);
}

bool st_place_choose_idle(int cpu, struct task_struct *p);
bool st_place_fits(struct task_struct *p, int cpu);
int st_place_target(struct task_struct *p, int cpu, int prev, bool sync);

/**
 * st_place_kthread_stack() - Whether a per-CPU kthread's wakee stacks here.
 * @cpu: this CPU, the waker's
 * @prev: the wakee's previous CPU
 *
 * select_idle_sibling()'s stacking of a per-CPU kthread's wakee.
 *
 * Return: is_per_cpu_kthread(current) && in_task() && prev == this CPU &&
 * this_rq()->nr_running <= 1.
 */
static inline bool st_place_kthread_stack(int cpu, int prev)
{
	return (current->flags & PF_KTHREAD) && current->nr_cpus_allowed == 1 &&
	       in_task() && prev == cpu && st_rq_nr_running(cpu) <= 1;
}

/* @cpu is an SMT sibling of @of (or @of itself) */
static inline bool st_place_smt_sibling(int cpu, int of)
{
#ifdef CONFIG_SCHED_SMT
	return cpumask_test_cpu(cpu, cpu_smt_mask(of));
#else
	return false;
#endif
}

#endif /* SCHED_TUNE_PLACEMENT_H */
