// SPDX-License-Identifier: GPL-2.0
/*
 * The support gate.  ratelimit and cache_level carry copies of stock
 * decisions (want_affine/record_wakee/wake_wide; ttwu_queue_cond and the
 * wakelist queue path), numa_scan a copy of task_numa_work().  Each copy
 * was compared with the stock code of the series listed here, and a
 * feature runs only on those: on any other kernel it says unsupported
 * rather than overriding whatever stock has changed since.
 *
 * Checked against Debian's sources:
 *   6.1   6.1.192 (bookworm-security)
 *   6.12  6.12.95 (bookworm-backports), 6.12.117 (bookworm-security),
 *         6.12.118 (trixie-security): none of the copied code differs
 *   7.3   7.3.4 (trixie-backports): select_task_rq_fair, record_wakee,
 *         wake_wide as in 6.12; ttwu_queue_cond asks
 *         scx_allow_ttwu_queue(); task_numa_work has the cpuset return
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/utsname.h>

#include "gate.h"
#include "layout.h"

struct st_gate_series_name {
	enum st_series series;
	const char *name;
};

static const struct st_gate_series_name st_series_names[] = {
	{ ST_SERIES_6_1, "6.1" },
	{ ST_SERIES_6_12, "6.12" },
	{ ST_SERIES_7_3, "7.3" },
};

struct st_gate_feature {
	const char *feature;
	const char *checked;	/* for the reason, as users read it */
	enum st_series series[3];
	char reason[160];
};

static struct st_gate_feature st_gate_features[] = {
	{ "ratelimit", "6.1, 6.12, 7.3",
	  { ST_SERIES_6_1, ST_SERIES_6_12, ST_SERIES_7_3 } },
	{ "cache_level", "6.1, 6.12, 7.3",
	  { ST_SERIES_6_1, ST_SERIES_6_12, ST_SERIES_7_3 } },
	/* 6.1 has no per-VMA scan state (vma_numab_state came in 6.4) */
	{ "numa_scan", "6.12, 7.3", { ST_SERIES_6_12, ST_SERIES_7_3 } },
};

/*
 * For the selftests: "feature=major.minor[,...]" makes the gate see that
 * series for that feature, and "feature=shape" a kernel whose first
 * function has another prototype, to show how the module refuses a kernel
 * it was not checked on.  It can only make a feature refuse, never pick
 * another copy than the running kernel's.
 */
static char st_gate_simulate[128];
module_param_string(gate_simulate, st_gate_simulate, sizeof(st_gate_simulate), 0);
MODULE_PARM_DESC(gate_simulate,
		 "testing only: feature=series|shape[,...] refuses the feature as if the kernel were that series, or had another prototype");

static char st_release_series[16];

/* "6.12.95+deb12-amd64" -> "6.12" */
static void st_series_of(const char *release, char *buf, size_t size)
{
	unsigned int major, minor;

	if (sscanf(release, "%u.%u", &major, &minor) == 2)
		snprintf(buf, size, "%u.%u", major, minor);
	else
		strscpy(buf, "unknown", size);
}

static enum st_series st_series_lookup(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(st_series_names); i++)
		if (!strcmp(st_series_names[i].name, name))
			return st_series_names[i].series;
	return ST_SERIES_UNCHECKED;
}

/* The series gate_simulate names for @feature, copied to @buf, or false. */
static bool st_gate_simulated(const char *feature, char *buf, size_t size)
{
	size_t flen = strlen(feature);
	const char *p = st_gate_simulate;

	while (*p) {
		const char *end = strchrnul(p, ',');

		if (!strncmp(p, feature, flen) && p[flen] == '=') {
			size_t n = end - (p + flen + 1);

			if (n >= size)
				n = size - 1;
			memcpy(buf, p + flen + 1, n);
			buf[n] = '\0';
			return true;
		}
		p = *end ? end + 1 : end;
	}
	return false;
}

void st_gate_init(void)
{
	st_series_of(init_utsname()->release, st_release_series,
		     sizeof(st_release_series));
}

enum st_series st_gate_check(const char *feature, const char **reason)
{
	struct st_gate_feature *g = NULL;
	enum st_series series;
	char sim[16];
	int i, j;

	for (i = 0; i < ARRAY_SIZE(st_gate_features); i++)
		if (!strcmp(st_gate_features[i].feature, feature))
			g = &st_gate_features[i];
	if (!g) {
		*reason = "no kernel series checked for this feature";
		return ST_SERIES_UNCHECKED;
	}

	if (st_gate_simulated(feature, sim, sizeof(sim)) && strcmp(sim, "shape")) {
		snprintf(g->reason, sizeof(g->reason),
			 "kernel %s (simulated by gate_simulate; running %s) is not a series this feature was checked against (%s)",
			 sim, init_utsname()->release, g->checked);
		*reason = g->reason;
		return ST_SERIES_UNCHECKED;
	}

	series = st_series_lookup(st_release_series);
	for (j = 0; j < ARRAY_SIZE(g->series); j++)
		if (series != ST_SERIES_UNCHECKED && g->series[j] == series)
			return series;

	snprintf(g->reason, sizeof(g->reason),
		 "kernel %s (series %s) is not a series this feature was checked against (%s)",
		 init_utsname()->release, st_release_series, g->checked);
	*reason = g->reason;
	return ST_SERIES_UNCHECKED;
}

const char *st_gate_shapes(const char *feature,
			   const struct st_func_shape *shapes, int nr)
{
	struct st_gate_feature *g = NULL;
	char sig[128], sim[16];
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(st_gate_features); i++)
		if (!strcmp(st_gate_features[i].feature, feature))
			g = &st_gate_features[i];
	if (!g)
		return "no kernel series checked for this feature";

	for (i = 0; i < nr; i++) {
		ret = st_layout_func_sig(shapes[i].func, sig, sizeof(sig));
		if (ret < 0) {
			snprintf(g->reason, sizeof(g->reason),
				 "no prototype of %s in the kernel's BTF (error %d)",
				 shapes[i].func, ret);
			return g->reason;
		}
		if (!i && st_gate_simulated(feature, sim, sizeof(sim)) &&
		    !strcmp(sim, "shape"))
			snprintf(sig + strlen(sig), sizeof(sig) - strlen(sig),
				 " (simulated by gate_simulate)");
		if (strcmp(sig, shapes[i].sig)) {
			snprintf(g->reason, sizeof(g->reason),
				 "%s is \"%s\" here, the copy expects \"%s\"",
				 shapes[i].func, sig, shapes[i].sig);
			return g->reason;
		}
	}
	return NULL;
}
