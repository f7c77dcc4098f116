/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernels each feature's copy of stock code was compared with: one
 * ST_GATE_RANGE(feature, major, minor, first, last) per feature and
 * series, first..last the stable sublevels of Debian's builds whose
 * source was read (what each copy stands for: docs/kernels.md).
 * gate_range.c makes the gate's table of it, and make check
 * (selftests/strunner/kernels.py) reads these lines to name Debian
 * kernels newer than any here: keep one entry a line, as below.  A new
 * stable update means: compare the copied code with its source, then
 * widen the range.
 * numa_scan has no 6.1 entry: 6.1 has no per-VMA scan state.
 */
ST_GATE_RANGE(ratelimit, 6, 1, 192, 192)
ST_GATE_RANGE(ratelimit, 6, 12, 95, 118)
ST_GATE_RANGE(ratelimit, 7, 3, 4, 4)
ST_GATE_RANGE(cache_level, 6, 1, 192, 192)
ST_GATE_RANGE(cache_level, 6, 12, 95, 118)
ST_GATE_RANGE(cache_level, 7, 3, 4, 4)
ST_GATE_RANGE(numa_scan, 6, 12, 95, 118)
ST_GATE_RANGE(numa_scan, 7, 3, 4, 4)
ST_GATE_RANGE(eevdf, 6, 1, 192, 192)
ST_GATE_RANGE(eevdf, 6, 12, 95, 118)
ST_GATE_RANGE(eevdf, 7, 3, 4, 4)
ST_GATE_RANGE(eevdf_slice, 6, 12, 95, 118)
ST_GATE_RANGE(eevdf_slice, 7, 3, 4, 4)
ST_GATE_RANGE(prev_bias, 6, 1, 192, 192)
ST_GATE_RANGE(prev_bias, 6, 12, 95, 118)
ST_GATE_RANGE(prev_bias, 7, 3, 4, 4)
ST_GATE_RANGE(sync_short, 6, 1, 192, 192)
ST_GATE_RANGE(sync_short, 6, 12, 95, 118)
ST_GATE_RANGE(sync_short, 7, 3, 4, 4)

/*
 * The config options whose value decides which stock code a copy stands
 * for, as Debian's compared builds have them: ST_GATE_CONFIG(feature,
 * major, minor, OPTION, 0|1).  A kernel of that series built otherwise
 * runs code nobody compared with the copy: the feature refuses it, or
 * with allow_unchecked=1 runs unchecked.  Read from the headers the
 * module is built against (DKMS builds it per kernel), at load.
 *   SCHED_CLASS_EXT  ttwu_queue_cond asks scx_allow_ttwu_queue() (7.3);
 *                    Debian's 6.1 and 6.12 are built without it
 *   SCHED_CACHE      7.3's cache-aware load balancing: not read on the
 *                    wakeup paths copied, but the compared builds had it
 *   NUMA_BALANCING   task_numa_work exists only with it
 *   CPUSETS          7.3's task_numa_work returns early for one-node cpusets
 */
ST_GATE_CONFIG(ratelimit, 7, 3, SCHED_CACHE, 1)
ST_GATE_CONFIG(cache_level, 6, 1, SCHED_CLASS_EXT, 0)
ST_GATE_CONFIG(cache_level, 6, 12, SCHED_CLASS_EXT, 0)
ST_GATE_CONFIG(cache_level, 7, 3, SCHED_CLASS_EXT, 1)
ST_GATE_CONFIG(cache_level, 7, 3, SCHED_CACHE, 1)
ST_GATE_CONFIG(numa_scan, 6, 12, NUMA_BALANCING, 1)
ST_GATE_CONFIG(numa_scan, 7, 3, NUMA_BALANCING, 1)
ST_GATE_CONFIG(numa_scan, 7, 3, CPUSETS, 1)

/*
 * Features allow_unchecked=1 never runs off the kernels they were checked
 * on: ST_GATE_STRICT(feature, why).  numa_scan's copy of task_numa_work
 * allocates and fills vma->numab_state itself, a structure the kernel
 * then frees and reads as its own: on a kernel whose layout or rules
 * nobody compared, that is the kernel's memory at stake, not a decision.
 */
ST_GATE_STRICT(numa_scan, "it allocates vma->numab_state itself")

/*
 * The functions each feature hooks or stands for (its copy, or the
 * inlined code it judges the result of): ST_GATE_FUNC(feature, function).
 * Each one's size as kallsyms has it (what %pS prints after the slash),
 * per build make check builds: ST_GATE_SIZE("release", "Debian package
 * version", function, size), as `uname -r` and /proc/version name the
 * build (guest unit gate_sizes prints the lines of a build not recorded).
 * On a recorded build a function of another size refuses its feature, as
 * an unchecked kernel does; a checked build with no record is judged by
 * its range alone.  A function a build inlines has no line.
 */
ST_GATE_FUNC(ratelimit, select_task_rq_fair)
ST_GATE_FUNC(ratelimit, migrate_task_rq_fair)
ST_GATE_FUNC(cache_level, ttwu_queue_wakelist)
ST_GATE_FUNC(numa_scan, task_numa_work)
ST_GATE_FUNC(eevdf, task_tick_fair)
ST_GATE_FUNC(eevdf_slice, task_tick_fair)
ST_GATE_FUNC(eevdf_slice, update_deadline)
ST_GATE_FUNC(eevdf_slice, place_entity)
ST_GATE_FUNC(eevdf_slice, enqueue_task_fair)
ST_GATE_FUNC(eevdf_slice, dequeue_entities)
ST_GATE_FUNC(prev_bias, select_task_rq_fair)
ST_GATE_FUNC(sync_short, select_task_rq_fair)

/*
 * Measured in each build booted under qemu.  A cloud flavour has its
 * generic twin's sizes, and is a build of its own.
 */

/* 6.1.192 (bookworm, ABI 57; CFS: no update_deadline or dequeue_entities) */
ST_GATE_SIZE("6.1.0-57-amd64", "6.1.192-3", select_task_rq_fair, 6208)
ST_GATE_SIZE("6.1.0-57-amd64", "6.1.192-3", migrate_task_rq_fair, 448)
ST_GATE_SIZE("6.1.0-57-amd64", "6.1.192-3", ttwu_queue_wakelist, 272)
ST_GATE_SIZE("6.1.0-57-amd64", "6.1.192-3", task_numa_work, 928)
ST_GATE_SIZE("6.1.0-57-amd64", "6.1.192-3", task_tick_fair, 896)
ST_GATE_SIZE("6.1.0-57-amd64", "6.1.192-3", place_entity, 272)
ST_GATE_SIZE("6.1.0-57-amd64", "6.1.192-3", enqueue_task_fair, 976)
ST_GATE_SIZE("6.1.0-57-cloud-amd64", "6.1.192-3", select_task_rq_fair, 6208)
ST_GATE_SIZE("6.1.0-57-cloud-amd64", "6.1.192-3", migrate_task_rq_fair, 448)
ST_GATE_SIZE("6.1.0-57-cloud-amd64", "6.1.192-3", ttwu_queue_wakelist, 272)
ST_GATE_SIZE("6.1.0-57-cloud-amd64", "6.1.192-3", task_numa_work, 928)
ST_GATE_SIZE("6.1.0-57-cloud-amd64", "6.1.192-3", task_tick_fair, 896)
ST_GATE_SIZE("6.1.0-57-cloud-amd64", "6.1.192-3", place_entity, 272)
ST_GATE_SIZE("6.1.0-57-cloud-amd64", "6.1.192-3", enqueue_task_fair, 976)

/* 6.12.95 (bookworm-backports, gcc 12) */
ST_GATE_SIZE("6.12.95+deb12-amd64", "6.12.95-1~bpo12+1", select_task_rq_fair, 6096)
ST_GATE_SIZE("6.12.95+deb12-amd64", "6.12.95-1~bpo12+1", migrate_task_rq_fair, 432)
ST_GATE_SIZE("6.12.95+deb12-amd64", "6.12.95-1~bpo12+1", ttwu_queue_wakelist, 256)
ST_GATE_SIZE("6.12.95+deb12-amd64", "6.12.95-1~bpo12+1", task_numa_work, 2336)
ST_GATE_SIZE("6.12.95+deb12-amd64", "6.12.95-1~bpo12+1", task_tick_fair, 752)
ST_GATE_SIZE("6.12.95+deb12-amd64", "6.12.95-1~bpo12+1", update_deadline, 128)
ST_GATE_SIZE("6.12.95+deb12-amd64", "6.12.95-1~bpo12+1", place_entity, 304)
ST_GATE_SIZE("6.12.95+deb12-amd64", "6.12.95-1~bpo12+1", enqueue_task_fair, 2064)
ST_GATE_SIZE("6.12.95+deb12-amd64", "6.12.95-1~bpo12+1", dequeue_entities, 1648)
ST_GATE_SIZE("6.12.95+deb12-cloud-amd64", "6.12.95-1~bpo12+1", select_task_rq_fair, 6096)
ST_GATE_SIZE("6.12.95+deb12-cloud-amd64", "6.12.95-1~bpo12+1", migrate_task_rq_fair, 432)
ST_GATE_SIZE("6.12.95+deb12-cloud-amd64", "6.12.95-1~bpo12+1", ttwu_queue_wakelist, 256)
ST_GATE_SIZE("6.12.95+deb12-cloud-amd64", "6.12.95-1~bpo12+1", task_numa_work, 2336)
ST_GATE_SIZE("6.12.95+deb12-cloud-amd64", "6.12.95-1~bpo12+1", task_tick_fair, 752)
ST_GATE_SIZE("6.12.95+deb12-cloud-amd64", "6.12.95-1~bpo12+1", update_deadline, 128)
ST_GATE_SIZE("6.12.95+deb12-cloud-amd64", "6.12.95-1~bpo12+1", place_entity, 304)
ST_GATE_SIZE("6.12.95+deb12-cloud-amd64", "6.12.95-1~bpo12+1", enqueue_task_fair, 2064)
ST_GATE_SIZE("6.12.95+deb12-cloud-amd64", "6.12.95-1~bpo12+1", dequeue_entities, 1648)

/* 6.12.118 (bookworm-security, trixie's 6.12.118 rebuilt with gcc 12) */
ST_GATE_SIZE("6.12.118+deb12-amd64", "6.12.118-1~deb12u1", select_task_rq_fair, 6096)
ST_GATE_SIZE("6.12.118+deb12-amd64", "6.12.118-1~deb12u1", migrate_task_rq_fair, 432)
ST_GATE_SIZE("6.12.118+deb12-amd64", "6.12.118-1~deb12u1", ttwu_queue_wakelist, 256)
ST_GATE_SIZE("6.12.118+deb12-amd64", "6.12.118-1~deb12u1", task_numa_work, 2336)
ST_GATE_SIZE("6.12.118+deb12-amd64", "6.12.118-1~deb12u1", task_tick_fair, 752)
ST_GATE_SIZE("6.12.118+deb12-amd64", "6.12.118-1~deb12u1", update_deadline, 128)
ST_GATE_SIZE("6.12.118+deb12-amd64", "6.12.118-1~deb12u1", place_entity, 304)
ST_GATE_SIZE("6.12.118+deb12-amd64", "6.12.118-1~deb12u1", enqueue_task_fair, 2064)
ST_GATE_SIZE("6.12.118+deb12-amd64", "6.12.118-1~deb12u1", dequeue_entities, 1648)
ST_GATE_SIZE("6.12.118+deb12-cloud-amd64", "6.12.118-1~deb12u1", select_task_rq_fair, 6096)
ST_GATE_SIZE("6.12.118+deb12-cloud-amd64", "6.12.118-1~deb12u1", migrate_task_rq_fair, 432)
ST_GATE_SIZE("6.12.118+deb12-cloud-amd64", "6.12.118-1~deb12u1", ttwu_queue_wakelist, 256)
ST_GATE_SIZE("6.12.118+deb12-cloud-amd64", "6.12.118-1~deb12u1", task_numa_work, 2336)
ST_GATE_SIZE("6.12.118+deb12-cloud-amd64", "6.12.118-1~deb12u1", task_tick_fair, 752)
ST_GATE_SIZE("6.12.118+deb12-cloud-amd64", "6.12.118-1~deb12u1", update_deadline, 128)
ST_GATE_SIZE("6.12.118+deb12-cloud-amd64", "6.12.118-1~deb12u1", place_entity, 304)
ST_GATE_SIZE("6.12.118+deb12-cloud-amd64", "6.12.118-1~deb12u1", enqueue_task_fair, 2064)
ST_GATE_SIZE("6.12.118+deb12-cloud-amd64", "6.12.118-1~deb12u1", dequeue_entities, 1648)

/* 6.12.118 (trixie-security, gcc 14) */
ST_GATE_SIZE("6.12.118+deb13-amd64", "6.12.118-1", select_task_rq_fair, 6128)
ST_GATE_SIZE("6.12.118+deb13-amd64", "6.12.118-1", migrate_task_rq_fair, 432)
ST_GATE_SIZE("6.12.118+deb13-amd64", "6.12.118-1", ttwu_queue_wakelist, 256)
ST_GATE_SIZE("6.12.118+deb13-amd64", "6.12.118-1", task_numa_work, 2320)
ST_GATE_SIZE("6.12.118+deb13-amd64", "6.12.118-1", task_tick_fair, 736)
ST_GATE_SIZE("6.12.118+deb13-amd64", "6.12.118-1", update_deadline, 128)
ST_GATE_SIZE("6.12.118+deb13-amd64", "6.12.118-1", place_entity, 304)
ST_GATE_SIZE("6.12.118+deb13-amd64", "6.12.118-1", enqueue_task_fair, 2016)
ST_GATE_SIZE("6.12.118+deb13-amd64", "6.12.118-1", dequeue_entities, 1632)
ST_GATE_SIZE("6.12.118+deb13-cloud-amd64", "6.12.118-1", select_task_rq_fair, 6128)
ST_GATE_SIZE("6.12.118+deb13-cloud-amd64", "6.12.118-1", migrate_task_rq_fair, 432)
ST_GATE_SIZE("6.12.118+deb13-cloud-amd64", "6.12.118-1", ttwu_queue_wakelist, 256)
ST_GATE_SIZE("6.12.118+deb13-cloud-amd64", "6.12.118-1", task_numa_work, 2320)
ST_GATE_SIZE("6.12.118+deb13-cloud-amd64", "6.12.118-1", task_tick_fair, 736)
ST_GATE_SIZE("6.12.118+deb13-cloud-amd64", "6.12.118-1", update_deadline, 128)
ST_GATE_SIZE("6.12.118+deb13-cloud-amd64", "6.12.118-1", place_entity, 304)
ST_GATE_SIZE("6.12.118+deb13-cloud-amd64", "6.12.118-1", enqueue_task_fair, 2016)
ST_GATE_SIZE("6.12.118+deb13-cloud-amd64", "6.12.118-1", dequeue_entities, 1632)

/* 7.3.4 (trixie-backports; update_deadline and dequeue_entities inlined) */
ST_GATE_SIZE("7.3.4+deb13-amd64", "7.3.4-1~bpo13+1", select_task_rq_fair, 11312)
ST_GATE_SIZE("7.3.4+deb13-amd64", "7.3.4-1~bpo13+1", migrate_task_rq_fair, 464)
ST_GATE_SIZE("7.3.4+deb13-amd64", "7.3.4-1~bpo13+1", ttwu_queue_wakelist, 432)
ST_GATE_SIZE("7.3.4+deb13-amd64", "7.3.4-1~bpo13+1", task_numa_work, 2464)
ST_GATE_SIZE("7.3.4+deb13-amd64", "7.3.4-1~bpo13+1", task_tick_fair, 1744)
ST_GATE_SIZE("7.3.4+deb13-amd64", "7.3.4-1~bpo13+1", place_entity, 448)
ST_GATE_SIZE("7.3.4+deb13-amd64", "7.3.4-1~bpo13+1", enqueue_task_fair, 3264)
ST_GATE_SIZE("7.3.4+deb13-cloud-amd64", "7.3.4-1~bpo13+1", select_task_rq_fair, 11312)
ST_GATE_SIZE("7.3.4+deb13-cloud-amd64", "7.3.4-1~bpo13+1", migrate_task_rq_fair, 464)
ST_GATE_SIZE("7.3.4+deb13-cloud-amd64", "7.3.4-1~bpo13+1", ttwu_queue_wakelist, 432)
ST_GATE_SIZE("7.3.4+deb13-cloud-amd64", "7.3.4-1~bpo13+1", task_numa_work, 2464)
ST_GATE_SIZE("7.3.4+deb13-cloud-amd64", "7.3.4-1~bpo13+1", task_tick_fair, 1744)
ST_GATE_SIZE("7.3.4+deb13-cloud-amd64", "7.3.4-1~bpo13+1", place_entity, 448)
ST_GATE_SIZE("7.3.4+deb13-cloud-amd64", "7.3.4-1~bpo13+1", enqueue_task_fair, 3264)
