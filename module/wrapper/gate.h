/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The support gate: which kernel series each feature's copy of stock
 * logic was checked against.  A feature runs only on those series.
 */
#ifndef SCHED_TUNE_WRAPPER_GATE_H
#define SCHED_TUNE_WRAPPER_GATE_H

#include <linux/types.h>

/* Kernel series a feature may meet, as major.minor. */
enum st_series {
	ST_SERIES_UNCHECKED,
	ST_SERIES_6_1,
	ST_SERIES_6_12,
	ST_SERIES_7_3,
};

void st_gate_init(void);
/*
 * The series @feature runs on, or ST_SERIES_UNCHECKED with @reason set
 * (a string that lives as long as the module).
 */
enum st_series st_gate_check(const char *feature, const char **reason);

#endif /* SCHED_TUNE_WRAPPER_GATE_H */
