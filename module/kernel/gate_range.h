/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The support gate's judgement of a kernel, kept pure (no kernel state)
 * so that the userspace unit tests compile the same file: which kernel
 * this is, whether each feature's copy was compared with its stock code,
 * and the reason a feature shows when it was not.
 */
#ifndef SCHED_TUNE_KERNEL_GATE_RANGE_H
#define SCHED_TUNE_KERNEL_GATE_RANGE_H

#include <linux/types.h>

/* Room for a reason of the gate (st_gate_explain(), st_gate_explain_size()). */
#define ST_GATE_REASON_LEN 384

/* One line of gate_checked.h. */
struct st_gate_range {
	const char *feature;
	unsigned int major, minor;
	unsigned int first, last;	/* stable sublevels checked */
};

extern const struct st_gate_range st_gate_ranges[];
extern const unsigned int st_gate_nr_ranges;

/* The kernel as the gate sees it. */
struct st_gate_kernel {
	unsigned int major, minor;	/* 0.0: a release it cannot read */
	unsigned int sublevel;		/* of the running kernel */
	unsigned int built_sublevel;	/* of the headers the module was built with */
	bool debian;			/* built by Debian, as Debian names it */
	/* the Debian package version its version string names, or "" */
	char package[48];
};

void st_gate_kernel_parse(struct st_gate_kernel *k, const char *release,
			  const char *version, unsigned int built_sublevel);

enum st_gate_why {
	ST_GATE_CHECKED,	/* a Debian build inside the checked range */
	ST_GATE_SERIES,		/* major.minor never checked: never runs */
	ST_GATE_VENDOR,		/* checked series, not a Debian build */
	ST_GATE_OLDER,		/* checked series, sublevel below the range */
	ST_GATE_NEWER,		/* checked series, sublevel above the range */
};

struct st_gate_verdict {
	enum st_gate_why why;
	/* OLDER, NEWER: the headers' sublevel is out, the kernel's is not */
	bool by_headers;
	/* the feature's range for the kernel's series, NULL for SERIES */
	const struct st_gate_range *range;
};

void st_gate_judge(const char *feature, const struct st_gate_kernel *k,
		   struct st_gate_verdict *v);

bool st_gate_admits(const char *feature, const struct st_gate_verdict *v,
		    bool allow_unchecked);
const char *st_gate_strict(const char *feature);
void st_gate_series_list(const char *feature, char *buf, size_t size);
void st_gate_explain(char *buf, size_t size, const char *feature,
		     const char *release, const struct st_gate_kernel *k,
		     const struct st_gate_verdict *v, bool admitted,
		     bool allow_unchecked, bool simulated);
const char *st_gate_post(const char *feature, bool admitted);

/* Function fingerprints (gate_checked.h, ST_GATE_FUNC and ST_GATE_SIZE). */
struct st_gate_func {
	const char *feature, *func;
};

struct st_gate_size {
	const char *release, *package, *func;
	unsigned long size;
};

extern const struct st_gate_func st_gate_funcs[];
extern const unsigned int st_gate_nr_funcs;
extern const struct st_gate_size st_gate_sizes[];
extern const unsigned int st_gate_nr_sizes;

bool st_gate_recorded(const char *release, const struct st_gate_kernel *k);
unsigned long st_gate_recorded_size(const char *release,
				    const struct st_gate_kernel *k,
				    const char *func);

/* A function whose size is not the one recorded. */
struct st_gate_size_verdict {
	const char *func;
	unsigned long recorded, here;
};

bool st_gate_sizes_differ(const char *feature, const char *release,
			  const struct st_gate_kernel *k,
			  unsigned long (*measure)(const char *func, void *arg),
			  void *arg, struct st_gate_size_verdict *sv);

void st_gate_explain_size(char *buf, size_t size, const char *feature,
			  const char *release, const struct st_gate_kernel *k,
			  const struct st_gate_size_verdict *sv, bool admitted,
			  bool simulated);

#endif /* SCHED_TUNE_KERNEL_GATE_RANGE_H */
