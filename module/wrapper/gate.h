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

/* A kernel function a feature hooks or calls, and its prototype. */
struct st_func_shape {
	const char *func;
	/* as st_btf_func_sig() spells it, e.g. "int (struct task_struct *, int)" */
	const char *sig;
};

/*
 * Checks each function's prototype in the running kernel's BTF: NULL when
 * all match, else why not (a string that lives as long as the module).
 */
const char *st_gate_shapes(const char *feature,
			   const struct st_func_shape *shapes, int nr);

#endif /* SCHED_TUNE_WRAPPER_GATE_H */
