/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the running kernel keeps an EEVDF task's entity, for the slice
 * policy of module/eevdf.c (the series facts: eevdf_tree.c).
 */
#ifndef SCHED_TUNE_KERNEL_EEVDF_TREE_H
#define SCHED_TUNE_KERNEL_EEVDF_TREE_H

#include <linux/sched.h>
#include <linux/types.h>

#include "gate.h"

const char *st_evt_probe(enum st_series series);
bool st_evt_group_slices(void);
char *st_evt_cfs_rq(const struct sched_entity *se);
bool st_evt_is_curr(const struct sched_entity *se);
void st_evt_fix_augment(struct sched_entity *se);
u64 st_evt_min_slice(char *cfs_rq);
u64 st_evt_weight(const struct sched_entity *se);
unsigned int st_evt_nr(const struct sched_entity *se);

#endif
