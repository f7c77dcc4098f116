/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters of /sys/kernel/sched_tune/stats/, one entry each, and no
 * other list of them.  As knobs.h is, this header is included where a
 * list is needed, after defining what an entry becomes there:
 *
 *   sched_tune.h	enum st_stat_id, ST_STAT_<id> in this order
 *   config.c		st_stat_names[]: the file in stats/ of each
 *
 * ST_STAT(id, name): ST_STAT_<id>, what st_stat_inc() counts, and the
 * file stats/<name>, an unsigned 64-bit decimal summed over CPUs.  Every
 * counter has its entry in Documentation/ABI/testing/sysfs-kernel-sched_tune
 * (selftests/strunner/abi.py checks both ways).  ST_STAT is undefined at
 * the end.
 */

/* ratelimit */
ST_STAT(RL_CHECKED, ratelimit_checked)
ST_STAT(RL_KEPT_PREV_CPU, ratelimit_kept_prev_cpu)
ST_STAT(RL_MIGRATIONS_STAMPED, ratelimit_migrations_stamped)
ST_STAT(RL_QUOTA_HALVED, ratelimit_quota_halved)
ST_STAT(RL_QUOTA_REPLENISHED, ratelimit_quota_replenished)
ST_STAT(RL_STAMPS_LOST, ratelimit_stamps_lost)
ST_STAT(RL_WINDOW_OVER, ratelimit_window_over)
ST_STAT(RL_NOT_AFFINE, ratelimit_not_affine)

/* cache_level */
ST_STAT(TTWU_QUEUED_BY_LEVEL, ttwu_queued_by_level)
ST_STAT(TTWU_DIRECT_BY_LEVEL, ttwu_direct_by_level)
ST_STAT(TTWU_CHECKED, ttwu_checked)

/* numa_scan */
ST_STAT(NUMA_VMA_CHECKED, numa_vma_checked)
ST_STAT(NUMA_VMA_ALLOWED_BY_THRESHOLD, numa_vma_allowed_by_threshold)
ST_STAT(NUMA_VMA_SKIPPED, numa_vma_skipped)

/* eevdf: the tick (EEVDF kernels) */
ST_STAT(CHECK_DEADLINE, check_deadline)
ST_STAT(UPDATE_DEADLINE, update_deadline)
ST_STAT(PREEMPT_DEADLINE, preempt_deadline)
ST_STAT(PREEMPT_DEADLINE_LAZY, preempt_deadline_lazy)
ST_STAT(REWEIGHT_DEADLINE, reweight_deadline)

/* eevdf: the tick (6.1's CFS) */
ST_STAT(TICK_CHECK_PREEMPTS, tick_check_preempts)
ST_STAT(TICK_PREEMPTS, tick_preempts)

/* eevdf: the slice policy */
ST_STAT(EEVDF_SLICES_SET, eevdf_slices_set)
ST_STAT(EEVDF_SLICES_RESTORED, eevdf_slices_restored)
ST_STAT(EEVDF_GROUP_SLICES_RESTORED, eevdf_group_slices_restored)

/* prev_bias */
ST_STAT(PREV_BIAS_CHECKED, prev_bias_checked)
ST_STAT(PREV_BIAS_KEPT, prev_bias_kept)
ST_STAT(PREV_BIAS_KEPT_BUSY, prev_bias_kept_busy)
ST_STAT(PREV_BIAS_TARGET_ROOM, prev_bias_target_room)
ST_STAT(PREV_BIAS_RECENT_ROOM, prev_bias_recent_room)

/* sync_short */
ST_STAT(SYNC_SHORT_CHECKED, sync_short_checked)
ST_STAT(SYNC_SHORT_BOTH_SHORT, sync_short_both_short)
ST_STAT(SYNC_SHORT_PLACED, sync_short_placed)

#undef ST_STAT
