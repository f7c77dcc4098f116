/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything about the running kernel's private layout: offsets and
 * enumerators read from its own BTF, and the few facts that BTF cannot
 * carry (#defines), each tied to the kernel versions it was checked on.
 */
#ifndef SCHED_TUNE_KERNEL_LAYOUT_H
#define SCHED_TUNE_KERNEL_LAYOUT_H

#include <linux/percpu.h>
#include <linux/types.h>
#include <linux/version.h>

int st_layout_init(void);
void st_layout_exit(void);
int st_layout_member(const char *type, const char *member, u32 *offset,
		     u32 *size);
int st_layout_enum(const char *name, s64 *val);
int st_layout_func_sig(const char *func, char *buf, size_t len);

/*
 * The kernel's per-CPU sd_llc_id, what its cpus_share_cache() compares
 * (NULL if missing), found by st_layout_init().
 */
extern int __percpu *st_sd_llc_id;

/* sd_llc_id of @cpu */
static __always_inline int st_llc_id(int cpu)
{
	return *per_cpu_ptr(st_sd_llc_id, cpu);
}

/* The LLC id of the CPU we run on (preemption off) */
static __always_inline int st_llc_id_here(void)
{
	return this_cpu_read(*st_sd_llc_id);
}

/**
 * st_cpus_share_cache() - cpus_share_cache() of kernel/sched/core.c.
 * @this_cpu: a CPU
 * @that_cpu: another, or the same
 *
 * Inline for the wakeup paths: the same in Debian's 6.1.192, 6.12.118 and
 * 7.3.4.  Only where st_sd_llc_id was found.
 *
 * Return: true if the two CPUs share an LLC, as the scheduler's domains
 * have it.
 */
static __always_inline bool st_cpus_share_cache(int this_cpu, int that_cpu)
{
	return this_cpu == that_cpu ||
	       st_llc_id(this_cpu) == st_llc_id(that_cpu);
}

/* Whether a sched_ext scheduler is loaded, and whether it runs every task. */
enum st_scx_mode {
	ST_SCX_OFF,
	ST_SCX_SOME,
	ST_SCX_ALL,
};

enum st_scx_mode st_layout_scx(void);

/*
 * Wake flags are #defines in kernel/sched/sched.h, absent from BTF.
 * WF_TTWU is asserted there to equal SD_BALANCE_WAKE, an enumerator, so
 * it is read from BTF.  WF_CURRENT_CPU (v6.5, commit ab83f455f04d) is not
 * derivable: 0x40 from 6.5 on, checked against the kernel/sched/sched.h of
 * 6.12.95, 6.12.118 and 7.3.4 (Debian's sources; 7.2 too).  (An
 * out-of-tree module must test LINUX_VERSION_CODE; checkpatch's advice
 * is for code merged into one version.)
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define ST_WF_CURRENT_CPU	0x40
#else
#define ST_WF_CURRENT_CPU	0
#endif

/*
 * WF_MIGRATED: 0x20 since v5.11 (commit 3aef1551e942 gave the low bits to
 * WF_EXEC/WF_FORK/WF_TTWU); checked against the kernel/sched/sched.h of
 * 6.1.192, 6.12.95, 6.12.118 and 7.3.4.  0 = unknown here: the cache
 * level refuses.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0)
#define ST_WF_SYNC		0x10
#define ST_WF_MIGRATED		0x20
#else
#define ST_WF_SYNC		0x01
#define ST_WF_MIGRATED		0
#endif

/*
 * numa_scan.c carries copies of task_numa_work() that need the per-VMA
 * scan state of 6.7+ (numab_state with pids_active, start/prev_scan_seq)
 * to build; which copy runs, if any, is the support gate's call (gate.c).
 */
#if defined(CONFIG_NUMA_BALANCING) && \
	LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define ST_HAVE_VMA_NUMAB_STATE 1
#endif

/*
 * EEVDF (v6.6, commit 147f3efaa241) put deadline and slice in the public
 * struct sched_entity: eevdf.c reads them on 6.12 and 7.3, and counts
 * CFS's tick on 6.1, whose entity has neither.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define ST_HAVE_EEVDF 1
#endif

/*
 * Delayed dequeue (v6.12, commit 152e11f6df29): wake_affine_idle() leaves
 * a runqueue's delayed tasks out of its count, h_nr_queued less
 * h_nr_runnable (checked in 6.12.95 and 7.3.4).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define ST_DELAYED_DEQUEUE	1
#else
#define ST_DELAYED_DEQUEUE	0
#endif

/*
 * select_idle_sibling()'s choose_idle_cpu() (7.x; checked in 7.3.4): a
 * runqueue of SCHED_IDLE tasks only counts as idle for a wakee that is
 * not SCHED_IDLE itself.  6.1 and 6.12 take it for any wakee.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
#define ST_SCHED_IDLE_RQ_NOT_FOR_IDLE	1
#else
#define ST_SCHED_IDLE_RQ_NOT_FOR_IDLE	0
#endif

#endif /* SCHED_TUNE_KERNEL_LAYOUT_H */
