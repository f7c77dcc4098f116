// SPDX-License-Identifier: GPL-2.0
/*
 * The support gate.  ratelimit and cache_level carry copies of stock
 * decisions, numa_scan a copy of task_numa_work(); each copy was compared
 * with the stock code of Debian's kernels in gate_checked.h, by series
 * and stable sublevel, and a feature runs only there, else it says
 * unsupported.  allow_unchecked=1 runs a copy on another sublevel or
 * vendor of a checked series, and the feature says so; an unchecked
 * series never runs (gate_range.c: which kernel this is).
 * docs/kernels.md: the support gate.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <linux/version.h>

#include "gate.h"
#include "gate_range.h"
#include "ksym.h"
#include "layout.h"
#include "test_inject.h"

struct st_gate_series_name {
	enum st_series series;
	unsigned int major, minor;
};

/* The series this module has a copy for. */
static const struct st_gate_series_name st_series_names[] = {
	{ ST_SERIES_6_1, 6, 1 },
	{ ST_SERIES_6_12, 6, 12 },
	{ ST_SERIES_7_3, 7, 3 },
};

struct st_gate_feature {
	const char *feature;
	enum st_series series;
	/* runs only because of allow_unchecked */
	bool unchecked;
	/* why it refuses, or why it runs unchecked */
	char verdict[ST_GATE_REASON_LEN];
	/* a prototype that does not match (st_gate_shapes) */
	char reason[320];
};

static struct st_gate_feature st_gate_features[] = {
	{ .feature = "ratelimit" },
	{ .feature = "cache_level" },
	{ .feature = "numa_scan" },
	{ .feature = "eevdf" },
	/* eevdf's slice policy: a gate of its own (eevdf.c) */
	{ .feature = "eevdf_slice" },
	{ .feature = "prev_bias" },
	{ .feature = "sync_short" },
};

/* verdict and the state's own reason, for st_gate_reason() */
static char st_gate_notes[ARRAY_SIZE(st_gate_features)][ST_GATE_REASON_LEN + 160];

/* gate_checked.h's config facts, with the value this build has */
struct st_gate_config {
	const char *feature;
	unsigned int major, minor;
	const char *option;
	bool want, have;
};

#define ST_GATE_RANGE(...)
#define ST_GATE_STRICT(...)
#define ST_GATE_FUNC(...)
#define ST_GATE_SIZE(...)
#define ST_GATE_CONFIG(_feature, _major, _minor, _option, _want)	\
	{ .feature = #_feature, .major = (_major), .minor = (_minor),	\
	  .option = #_option, .want = (_want),				\
	  .have = IS_ENABLED(CONFIG_##_option) },

static const struct st_gate_config st_gate_configs[] = {
#include "gate_checked.h"
};

#undef ST_GATE_RANGE
#undef ST_GATE_CONFIG
#undef ST_GATE_STRICT
#undef ST_GATE_FUNC
#undef ST_GATE_SIZE

static bool st_allow_unchecked;
module_param_named(allow_unchecked, st_allow_unchecked, bool, 0444);
MODULE_PARM_DESC(allow_unchecked,
		 "0|1: run a feature on a kernel of a series it was checked on but outside the checked stable sublevels, not built by Debian, or whose functions differ in size from the checked build; its state then says (unchecked); never numa_scan (default 0)");

static struct st_gate_feature *st_gate_find(const char *feature)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(st_gate_features); i++)
		if (!strcmp(st_gate_features[i].feature, feature))
			return &st_gate_features[i];
	return NULL;
}

static enum st_series st_series_lookup(unsigned int major, unsigned int minor)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(st_series_names); i++)
		if (st_series_names[i].major == major &&
		    st_series_names[i].minor == minor)
			return st_series_names[i].series;
	return ST_SERIES_UNCHECKED;
}

/* Whether @sim, a feature's value, is @prefix followed by @func. */
static bool st_gate_sim_func(const char *sim, const char *prefix,
			     const char *func)
{
	return str_has_prefix(sim, prefix) && !strcmp(sim + strlen(prefix), func);
}

/* A value for st_gate_shapes(), not for the series gate. */
static bool st_gate_sim_btf(const char *sim)
{
	return !strcmp(sim, "shape") || str_has_prefix(sim, "shape:") ||
	       str_has_prefix(sim, "nobtf:");
}

/*
 * On a checked kernel: every config fact of the feature's series holds,
 * or the feature refuses (runs unchecked with allow_unchecked=1).
 * gate_simulate=FEATURE=config:OPTION makes this build's value the
 * other one.
 */
static void st_gate_judge_config(struct st_gate_feature *g,
				 const struct st_gate_kernel *k)
{
	const char *release = init_utsname()->release;
	bool allow = st_allow_unchecked && !st_gate_strict(g->feature);
	char sim[48];
	int i;

	if (!st_inject_value(g->feature, sim, sizeof(sim)))
		sim[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(st_gate_configs); i++) {
		const struct st_gate_config *c = &st_gate_configs[i];
		bool flip = st_gate_sim_func(sim, "config:", c->option);
		bool have = c->have != flip;

		if (strcmp(c->feature, g->feature) || c->major != k->major ||
		    c->minor != k->minor || have == c->want)
			continue;
		snprintf(g->verdict, sizeof(g->verdict),
			 "%skernel %s is built with CONFIG_%s=%s%s, and this feature's %u.%u copy was compared with Debian's =%s only%s",
			 allow ? "unchecked: " : "",
			 release, c->option, have ? "y" : "n",
			 flip ? " (simulated by gate_simulate)" : "",
			 c->major, c->minor, c->want ? "y" : "n",
			 st_gate_post(g->feature, allow));
		if (allow) {
			g->unchecked = true;
			continue;
		}
		g->series = ST_SERIES_UNCHECKED;
		return;
	}
}

/*
 * @func's size as kallsyms has it (%pS prints "name+0x0/size"), 0 when
 * it has no such function.  @arg, the feature's gate_simulate value,
 * may make it 16 bytes larger.
 */
static unsigned long st_gate_measure(const char *func, void *arg)
{
	const char *sim = arg;
	char buf[KSYM_SYMBOL_LEN], *slash;
	unsigned long addr = st_ksym(func), size;

	if (!addr)
		return 0;
	sprint_symbol(buf, addr);
	slash = strrchr(buf, '/');
	if (!slash || kstrtoul(slash + 1, 16, &size))
		return 0;
	if (sim && st_gate_sim_func(sim, "size:", func))
		size += 16;
	return size;
}

/*
 * On a build whose function sizes gate_checked.h records: each function
 * the feature hooks or stands for still has its size, or the feature
 * refuses (runs unchecked with allow_unchecked=1).
 */
static void st_gate_judge_sizes(struct st_gate_feature *g,
				const struct st_gate_kernel *k)
{
	const char *release = init_utsname()->release;
	bool allow = st_allow_unchecked && !st_gate_strict(g->feature);
	struct st_gate_size_verdict sv;
	char sim[48];

	if (!st_inject_value(g->feature, sim, sizeof(sim)))
		sim[0] = '\0';
	if (!st_gate_sizes_differ(g->feature, release, k, st_gate_measure, sim,
				  &sv))
		return;
	st_gate_explain_size(g->verdict, sizeof(g->verdict), g->feature,
			     release, k, &sv, allow,
			     st_gate_sim_func(sim, "size:", sv.func));
	if (allow)
		g->unchecked = true;
	else
		g->series = ST_SERIES_UNCHECKED;
}

static void st_gate_judge_feature(struct st_gate_feature *g,
				  const struct st_gate_kernel *k)
{
	const char *release = init_utsname()->release;
	struct st_gate_kernel seen = *k;
	struct st_gate_verdict v;
	bool simulated = false;
	char sim[48], list[64];
	unsigned int sub;

	g->series = ST_SERIES_UNCHECKED;
	g->unchecked = false;
	if (st_inject_value(g->feature, sim, sizeof(sim)) &&
	    !st_gate_sim_btf(sim) && !str_has_prefix(sim, "config:") &&
	    !str_has_prefix(sim, "size:")) {
		simulated = true;
		if (!strcmp(sim, "vendor")) {
			seen.debian = false;
		} else if (str_has_prefix(sim, "sublevel:") &&
			   !kstrtouint(sim + strlen("sublevel:"), 10, &sub)) {
			seen.sublevel = sub;
		} else {
			st_gate_series_list(g->feature, list, sizeof(list));
			snprintf(g->verdict, sizeof(g->verdict),
				 "kernel %s (simulated by gate_simulate; running %s) is not a series this feature was checked against (%s)%s",
				 sim, release, list, st_allow_unchecked ?
				 "; allow_unchecked=1 covers only a checked series" : "");
			return;
		}
	}

	/* a simulation may only make a kernel the gate admits refuse */
	st_gate_judge(g->feature, k, &v);
	if (simulated && v.why == ST_GATE_CHECKED)
		st_gate_judge(g->feature, &seen, &v);
	else
		simulated = false;

	if (!st_gate_admits(g->feature, &v, st_allow_unchecked)) {
		st_gate_explain(g->verdict, sizeof(g->verdict), g->feature,
				release, simulated ? &seen : k, &v, false,
				st_allow_unchecked, simulated);
		return;
	}
	g->series = st_series_lookup(k->major, k->minor);
	if (g->series == ST_SERIES_UNCHECKED) {
		snprintf(g->verdict, sizeof(g->verdict),
			 "kernel %s: this module has no copy for series %u.%u",
			 release, k->major, k->minor);
		return;
	}
	if (v.why != ST_GATE_CHECKED) {
		g->unchecked = true;
		st_gate_explain(g->verdict, sizeof(g->verdict), g->feature,
				release, simulated ? &seen : k, &v, true,
				st_allow_unchecked, simulated);
		return;
	}
	st_gate_judge_config(g, k);
	if (g->series != ST_SERIES_UNCHECKED && !g->unchecked)
		st_gate_judge_sizes(g, k);
}

/**
 * st_gate_init() - Judge every feature against the running kernel.
 *
 * Once at load; one dmesg line if any feature runs unchecked.
 */
void st_gate_init(void)
{
	struct st_gate_kernel k;
	char names[64] = "";
	int i;

	st_gate_kernel_parse(&k, init_utsname()->release,
			     init_utsname()->version, LINUX_VERSION_SUBLEVEL);
	for (i = 0; i < ARRAY_SIZE(st_gate_features); i++) {
		struct st_gate_feature *g = &st_gate_features[i];

		st_gate_judge_feature(g, &k);
		if (g->unchecked)
			snprintf(names + strlen(names), sizeof(names) - strlen(names),
				 "%s%s", *names ? ", " : "", g->feature);
	}
	/* once per load; each feature's reason says more */
	if (*names)
		pr_warn("allow_unchecked=1: kernel %s is outside the range checked for %s: running unchecked (see features/<name>/reason)\n",
			init_utsname()->release, names);
}

/**
 * st_gate_check() - The series a feature runs on.
 * @feature: the feature's name
 * @reason: set to why not, when it does not run: a string that lives as
 *          long as the module
 *
 * Return: the series, or ST_SERIES_UNCHECKED with @reason set.
 */
enum st_series st_gate_check(const char *feature, const char **reason)
{
	struct st_gate_feature *g = st_gate_find(feature);

	if (!g) {
		*reason = "no kernel series checked for this feature";
		return ST_SERIES_UNCHECKED;
	}
	if (g->series == ST_SERIES_UNCHECKED)
		*reason = g->verdict;
	return g->series;
}

/**
 * st_gate_unchecked() - Whether a feature runs only by allow_unchecked=1.
 * @feature: the feature's name
 *
 * Return: true if @feature runs only because of allow_unchecked=1.
 */
bool st_gate_unchecked(const char *feature)
{
	struct st_gate_feature *g = st_gate_find(feature);

	return g && g->unchecked;
}

/**
 * st_gate_reason() - A feature's reason, with the gate's note.
 * @feature: the feature's name
 * @reason: the reason of the feature's state, may be NULL
 *
 * Context: Callers hold core.c's st_lock: the result lives in the gate
 * until the next call for @feature.
 * Return: for a feature that runs unchecked, why, followed by @reason;
 * otherwise @reason.
 */
const char *st_gate_reason(const char *feature, const char *reason)
{
	struct st_gate_feature *g = st_gate_find(feature);
	char *note;

	if (!g || !g->unchecked)
		return reason;
	if (!reason || !*reason)
		return g->verdict;
	note = st_gate_notes[g - st_gate_features];
	snprintf(note, sizeof(st_gate_notes[0]), "%s; %s", g->verdict, reason);
	return note;
}

/**
 * st_gate_shapes() - Check the prototypes of a feature's kernel functions.
 * @feature: the feature's name
 * @shapes: the functions it hooks or calls, and their prototypes
 * @nr: their number
 *
 * Each prototype is checked in the running kernel's BTF.
 *
 * Return: NULL when all match, else why not: a string that lives as long
 * as the module.
 */
const char *st_gate_shapes(const char *feature,
			   const struct st_func_shape *shapes, int nr)
{
	struct st_gate_feature *g = st_gate_find(feature);
	char sig[128], sim[48], absent[64];
	const char *func, *mark;
	int i, ret;

	if (!g)
		return "no kernel series checked for this feature";
	if (!st_inject_value(feature, sim, sizeof(sim)))
		sim[0] = '\0';

	for (i = 0; i < nr; i++) {
		func = shapes[i].func;
		mark = "";
		/* nobtf: the BTF reader looks for a name no kernel has */
		if (st_gate_sim_func(sim, "nobtf:", func)) {
			snprintf(absent, sizeof(absent), "%s (absent)", func);
			func = absent;
			mark = " (simulated by gate_simulate)";
		}
		ret = st_layout_func_sig(func, sig, sizeof(sig));
		if (ret < 0) {
			snprintf(g->reason, sizeof(g->reason),
				 "no prototype of %s in the kernel's BTF (error %d)%s",
				 shapes[i].func, ret, mark);
			return g->reason;
		}
		if ((!i && !strcmp(sim, "shape")) ||
		    st_gate_sim_func(sim, "shape:", shapes[i].func))
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

/**
 * st_gate_sizes_show() - debugfs sched_tune/gate_sizes.
 * @buf: where the lines go
 * @size: the room in @buf
 *
 * The build ("build <release> <package> recorded|unrecorded"), then
 * "<feature> <function> <size here> <recorded size or ->" for each
 * function gate_checked.h fingerprints.
 *
 * Return: the number of bytes written to @buf.
 */
int st_gate_sizes_show(char *buf, size_t size)
{
	const char *release = init_utsname()->release;
	struct st_gate_kernel k;
	unsigned long rec;
	size_t n;
	int i;

	st_gate_kernel_parse(&k, release, init_utsname()->version,
			     LINUX_VERSION_SUBLEVEL);
	n = scnprintf(buf, size, "build %s %s %s\n", release,
		      *k.package ? k.package : "-",
		      st_gate_recorded(release, &k) ? "recorded" : "unrecorded");
	for (i = 0; i < st_gate_nr_funcs; i++) {
		const struct st_gate_func *f = &st_gate_funcs[i];

		rec = st_gate_recorded_size(release, &k, f->func);
		n += scnprintf(buf + n, size - n, "%s %s %lu ", f->feature,
			       f->func, st_gate_measure(f->func, NULL));
		n += rec ? scnprintf(buf + n, size - n, "%lu\n", rec) :
			   scnprintf(buf + n, size - n, "-\n");
	}
	return n;
}
