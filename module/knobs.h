/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The knobs of sched_tune, one entry each, and no other list of them.
 * As with the kernel's kernel/sched/features.h, a file that needs a list
 * defines what an entry becomes there and includes this header:
 *
 *   policy/knob.h	enum st_knob_id, ST_KNOB_<id> in this order
 *   policy/knob.c	st_knobs[]: name, range or choices, default, stock, feature
 *   main.c		a module parameter each, help its MODULE_PARM_DESC
 *   sysfs.c		a file each in /sys/kernel/sched_tune
 */

/*
 * ST_KNOB(id, name, feature, min, max, def, stock, help)
 *	a decimal number, min..max;
 * ST_KNOB_CHOICE(id, name, feature, choices, def, stock, help)
 *	one of the names of the array @choices (policy/knob.c), read and written
 *	as that name and held as its index.
 *
 * @id: ST_KNOB_<id> in enum st_knob_id.  @name: the file in
 * /sys/kernel/sched_tune and the module parameter.  @feature: the knob's
 * feature, ST_FEAT_<feature>, or NONE.  @def: its value at load.  @stock:
 * the value it reads while its feature cannot honour it (unsupported),
 * or ST_NO_STOCK for a knob whose value stands.  @help: one line, what
 * modinfo shows of the parameter.  Every knob has its entry in
 * Documentation/ABI/testing/sysfs-kernel-sched_tune
 * (selftests/strunner/abi.py checks both ways).
 *
 * A file that defines only ST_KNOB gets the choice knobs through it, as
 * numbers 0..ARRAY_SIZE(choices) - 1.  Both are undefined at the end.
 */

#ifndef ST_KNOB_CHOICE
#define ST_KNOB_CHOICE(id, name, feature, choices, def, stock, help)	\
	ST_KNOB(id, name, feature, 0, ARRAY_SIZE(choices) - 1, def, stock, help)
#endif

ST_KNOB(ENABLED, enabled, NONE,
	0, 1, 1, ST_NO_STOCK,
	"0|1: master switch (default 1)")

ST_KNOB(RL_WINDOW_NS, ratelimit_window_ns, RATELIMIT,
	0, 1000000000, 2000000, 0,
	"0..1000000000, 0 = off (default 2000000)")
ST_KNOB(RL_BURST, ratelimit_burst, RATELIMIT,
	1, 1000, 1, ST_NO_STOCK,
	"1..1000 migrations per window (default 1)")
ST_KNOB_CHOICE(RL_MODE, ratelimit_mode, RATELIMIT,
	       st_rl_mode_names, ST_RL_MODE_FIXED, ST_NO_STOCK,
	       "fixed|adaptive: burst, or a quota halved when used up (default fixed)")
/* SCHED_MIGRATION_QUOTA and _REPLENISH of patch 2/2: 10 and 1 */
ST_KNOB(RL_QUOTA, ratelimit_quota, RATELIMIT,
	1, 1000, 10, ST_NO_STOCK,
	"1..1000 adaptive migrations per window, at most (default 10)")
ST_KNOB(RL_QUOTA_REPLENISH, ratelimit_quota_replenish, RATELIMIT,
	1, 1000, 1, ST_NO_STOCK,
	"1..1000 given back per window not used up (default 1)")

ST_KNOB_CHOICE(CACHE_LEVEL, cache_share_level, CACHE_LEVEL,
	       st_level_names, ST_LEVEL_L2, ST_LEVEL_LLC,
	       "llc|l2|smt|auto|none (default l2)")
ST_KNOB(AUTO_LLC_MAX, cache_share_auto_llc_max, CACHE_LEVEL,
	1, 4096, 8, ST_NO_STOCK,
	"1..4096 CPUs (default 8)")

ST_KNOB(NUMA_THRESHOLD, numa_scan_threshold, NUMA_SCAN,
	0, 100, 50, 0,
	"0..100 percent, 0 = stock (default 50)")
ST_KNOB(NUMA_RENEW, numa_scan_renew, NUMA_SCAN,
	0, 1024, 16, ST_NO_STOCK,
	"0..1024 scan sequences, 0 = never (default 16)")

ST_KNOB(PASSTHROUGH, passthrough, NONE,
	0, 1, 0, ST_NO_STOCK,
	"0|1: hooks in, decisions computed, none applied (default 0)")

ST_KNOB(EEVDF_COUNTERS, eevdf_counters, EEVDF,
	0, 1, 0, 0,
	"0|1: count tick preemptions in stats/ (default 0)")
ST_KNOB_CHOICE(EEVDF_SLICE, eevdf_slice, EEVDF,
	       st_slice_names, ST_SLICE_STOCK, ST_SLICE_STOCK,
	       "stock|fixed|scaled: the running task's EEVDF request (default stock)")
ST_KNOB(EEVDF_SLICE_NS, eevdf_slice_ns, EEVDF,
	ST_EEVDF_SLICE_MIN_NS, ST_EEVDF_SLICE_MAX_NS, 12000000, ST_NO_STOCK,
	"100000..100000000: the fixed slice (default 12000000)")
ST_KNOB(EEVDF_LATENCY_NS, eevdf_latency_ns, EEVDF,
	1000000, 1000000000, 24000000, ST_NO_STOCK,
	"1000000..1000000000: what scaled shares (default 24000000)")

ST_KNOB(PREV_BIAS, prev_bias, PREV_BIAS,
	0, 1, 0, 0,
	"0|1: keep a waking task on its previous CPU, SELECT_BIAS_PREV (default 0)")

ST_KNOB(SYNC_SHORT, sync_short, SYNC_SHORT,
	0, 1, 0, 0,
	"0|1: short sync wakee on its short waker's CPU, SIS_SYNC (default 0)")

#undef ST_KNOB_CHOICE
#undef ST_KNOB
