// SPDX-License-Identifier: GPL-2.0
/*
 * The support gate's judgement of a kernel (gate_range.h), shared by the
 * module and the unit tests.  The kernel's sublevel is the Debian package
 * its version string names ("Debian 6.12.95-1~bpo12+1"): 6.1's release,
 * "6.1.0-57-amd64", names the ABI, which uploads keep, so one module
 * loads into several sublevels.  The headers' sublevel must be in the
 * range too.  A version string that names no Debian package is another
 * vendor's build, whose release gives the sublevel.  docs/kernels.md.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "gate_range.h"

#define ST_GATE_RANGE(_feature, _major, _minor, _first, _last)		\
	{ .feature = #_feature, .major = (_major), .minor = (_minor),	\
	  .first = (_first), .last = (_last) },
/* gate.c reads these: their values come from the kernel's config */
#define ST_GATE_CONFIG(...)
#define ST_GATE_STRICT(...)
#define ST_GATE_FUNC(...)
#define ST_GATE_SIZE(...)

const struct st_gate_range st_gate_ranges[] = {
#include "gate_checked.h"
};

#undef ST_GATE_RANGE
#undef ST_GATE_STRICT
#define ST_GATE_RANGE(...)
/* the end of a strict feature's refusal, its why after the prefix */
#define ST_GATE_STRICT_PRE "; allow_unchecked=1 does not cover this feature: "
#define ST_GATE_STRICT(_feature, _why) { #_feature, ST_GATE_STRICT_PRE _why },

static const struct {
	const char *feature, *post;
} st_gate_stricts[] = {
#include "gate_checked.h"
};

#undef ST_GATE_STRICT
#undef ST_GATE_FUNC
#define ST_GATE_STRICT(...)
#define ST_GATE_FUNC(_feature, _func) { .feature = #_feature, .func = #_func },

const struct st_gate_func st_gate_funcs[] = {
#include "gate_checked.h"
};

#undef ST_GATE_FUNC
#undef ST_GATE_SIZE
#define ST_GATE_FUNC(...)
#define ST_GATE_SIZE(_release, _package, _func, _size)			\
	{ .release = (_release), .package = (_package), .func = #_func,	\
	  .size = (_size) },

const struct st_gate_size st_gate_sizes[] = {
#include "gate_checked.h"
	/* a build with no record at all: the table may be empty */
	{ NULL }
};

#undef ST_GATE_RANGE
#undef ST_GATE_CONFIG
#undef ST_GATE_STRICT
#undef ST_GATE_FUNC
#undef ST_GATE_SIZE

const unsigned int st_gate_nr_ranges = ARRAY_SIZE(st_gate_ranges);
const unsigned int st_gate_nr_funcs = ARRAY_SIZE(st_gate_funcs);
const unsigned int st_gate_nr_sizes = ARRAY_SIZE(st_gate_sizes) - 1;

/* A decimal number at *@p, which moves past it; false if none. */
static bool st_gate_uint(const char **p, unsigned int *val)
{
	const char *s = *p;
	unsigned int v = 0;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v < 100000 ? v * 10 + (*s - '0') : v;	/* no overflow */
	*val = v;
	*p = s;
	return true;
}

/* "major.minor.sublevel" at *@p, which moves past it. */
static bool st_gate_version(const char **p, unsigned int *major,
			    unsigned int *minor, unsigned int *sublevel)
{
	return st_gate_uint(p, major) && *(*p)++ == '.' &&
	       st_gate_uint(p, minor) && *(*p)++ == '.' &&
	       st_gate_uint(p, sublevel);
}

/**
 * st_gate_kernel_parse() - The kernel as the gate sees it.
 * @k: filled in
 * @release: the running kernel's release string (utsname)
 * @version: its version string (utsname)
 * @built_sublevel: the headers' LINUX_VERSION_SUBLEVEL
 *
 * A release the gate cannot read leaves @k at 0.0.  @k->debian needs both
 * the Debian package version in @version and a release of Debian's forms.
 */
void st_gate_kernel_parse(struct st_gate_kernel *k, const char *release,
			  const char *version, unsigned int built_sublevel)
{
	unsigned int vmajor = 0, vminor = 0, vsub = 0, abi;
	const char *p = release, *deb;
	bool named = false, shaped = false;

	memset(k, 0, sizeof(*k));
	k->built_sublevel = built_sublevel;
	if (!st_gate_uint(&p, &k->major) || *p++ != '.' ||
	    !st_gate_uint(&p, &k->minor)) {
		k->major = 0;
		k->minor = 0;
		return;
	}
	if (*p == '.') {
		p++;
		if (!st_gate_uint(&p, &k->sublevel))
			return;
	}

	/* Debian's package version, "Debian 6.12.95-1~bpo12+1" */
	deb = strstr(version, " Debian ");
	if (deb) {
		const char *q = deb + strlen(" Debian ");

		const char *pkg = q;
		size_t n;

		named = st_gate_version(&q, &vmajor, &vminor, &vsub) &&
			*q == '-' && vmajor == k->major && vminor == k->minor;
		if (named) {
			n = strcspn(pkg, " ");
			if (n >= sizeof(k->package))
				n = sizeof(k->package) - 1;
			memcpy(k->package, pkg, n);
			k->package[n] = '\0';
		}
	}
	/*
	 * and a release string of Debian's forms: "6.12.95+deb12-amd64"
	 * (older backports "6.12.9+bpo-amd64") for the package named, or
	 * 6.1's ABI name "6.1.0-57-amd64"
	 */
	if (!strncmp(p, "+deb", 4) || !strncmp(p, "+bpo", 4)) {
		shaped = k->sublevel == vsub;
	} else if (!k->sublevel && *p == '-') {
		p++;
		shaped = st_gate_uint(&p, &abi) && *p == '-';
	}
	k->debian = named && shaped;
	if (named)
		k->sublevel = vsub;
}

/**
 * st_gate_judge() - Whether a feature's copy was compared with this kernel.
 * @feature: the feature's name
 * @k: the kernel (st_gate_kernel_parse())
 * @v: set to the verdict: why, and the feature's range for the series
 *
 * Both the running kernel's sublevel and the headers' must be in the
 * range checked.
 */
void st_gate_judge(const char *feature, const struct st_gate_kernel *k,
		   struct st_gate_verdict *v)
{
	const struct st_gate_range *r = NULL;
	unsigned int i;

	for (i = 0; i < st_gate_nr_ranges; i++)
		if (!strcmp(st_gate_ranges[i].feature, feature) &&
		    st_gate_ranges[i].major == k->major &&
		    st_gate_ranges[i].minor == k->minor)
			r = &st_gate_ranges[i];
	v->range = r;
	v->by_headers = false;
	if (!r)
		v->why = ST_GATE_SERIES;
	else if (!k->debian)
		v->why = ST_GATE_VENDOR;
	else if (k->sublevel < r->first)
		v->why = ST_GATE_OLDER;
	else if (k->sublevel > r->last)
		v->why = ST_GATE_NEWER;
	else if (k->built_sublevel < r->first)
		v->why = ST_GATE_OLDER;
	else if (k->built_sublevel > r->last)
		v->why = ST_GATE_NEWER;
	else
		v->why = ST_GATE_CHECKED;
	/* the kernel's own sublevel is in: the headers' is out */
	if (r && k->debian && v->why != ST_GATE_CHECKED &&
	    k->sublevel >= r->first && k->sublevel <= r->last)
		v->by_headers = true;
}

/**
 * st_gate_strict() - Why allow_unchecked=1 never runs a feature unchecked.
 * @feature: the feature's name
 *
 * A strict feature (gate_checked.h, ST_GATE_STRICT) never runs off the
 * kernels it was checked on.
 *
 * Return: why, for a strict feature, or NULL.
 */
const char *st_gate_strict(const char *feature)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(st_gate_stricts); i++)
		if (!strcmp(st_gate_stricts[i].feature, feature))
			return st_gate_stricts[i].post + strlen(ST_GATE_STRICT_PRE);
	return NULL;
}

/**
 * st_gate_admits() - Whether a feature's copy runs.
 * @feature: the feature's name
 * @v: st_gate_judge()'s verdict
 * @allow_unchecked: the module parameter
 *
 * Return: true on a checked kernel, or with @allow_unchecked on a checked
 * series for a feature that is not strict; never on a series nobody
 * compared it with.
 */
bool st_gate_admits(const char *feature, const struct st_gate_verdict *v,
		    bool allow_unchecked)
{
	return v->why == ST_GATE_CHECKED ||
	       (allow_unchecked && v->why != ST_GATE_SERIES &&
		!st_gate_strict(feature));
}

/**
 * st_gate_post() - The end of a reason: what allow_unchecked=1 does.
 * @feature: the feature's name
 * @admitted: whether the copy runs anyway
 *
 * Return: "; running it anyway (allow_unchecked=1)", ": load with
 * allow_unchecked=1 to run it anyway" or, for a strict feature,
 * "; allow_unchecked=1 does not cover this feature: <why>".
 */
const char *st_gate_post(const char *feature, bool admitted)
{
	unsigned int i;

	if (admitted)
		return "; running it anyway (allow_unchecked=1)";
	for (i = 0; i < ARRAY_SIZE(st_gate_stricts); i++)
		if (!strcmp(st_gate_stricts[i].feature, feature))
			return st_gate_stricts[i].post;
	return ": load with allow_unchecked=1 to run it anyway";
}

/**
 * st_gate_series_list() - The series checked for a feature, e.g. "6.12, 7.3".
 * @feature: the feature's name
 * @buf: where the list goes, "" for none
 * @size: the room in @buf
 */
void st_gate_series_list(const char *feature, char *buf, size_t size)
{
	size_t n = 0;
	unsigned int i;
	int ret;

	buf[0] = '\0';
	for (i = 0; i < st_gate_nr_ranges && n < size; i++) {
		if (strcmp(st_gate_ranges[i].feature, feature))
			continue;
		ret = snprintf(buf + n, size - n, "%s%u.%u", n ? ", " : "",
			       st_gate_ranges[i].major, st_gate_ranges[i].minor);
		if (ret < 0)
			break;
		n += ret;
	}
}

/**
 * st_gate_explain() - The reason for a verdict other than CHECKED.
 * @buf: where the reason goes, "" for CHECKED
 * @size: the room in @buf; ST_GATE_REASON_LEN holds any reason
 * @feature: the feature's name
 * @release: the running kernel's release string
 * @k: the kernel
 * @v: st_gate_judge()'s verdict
 * @admitted: whether the copy runs anyway (st_gate_admits())
 * @allow_unchecked: the module parameter, which a refused series is told
 *                   does not cover it
 * @simulated: marks the sublevel or vendor that gate_simulate made up
 *
 * Why the feature refuses (@admitted false), or why it runs unchecked.
 */
void st_gate_explain(char *buf, size_t size, const char *feature,
		     const char *release, const struct st_gate_kernel *k,
		     const struct st_gate_verdict *v, bool admitted,
		     bool allow_unchecked, bool simulated)
{
	const struct st_gate_range *r = v->range;
	const char *pre = admitted ? "unchecked: " : "";
	const char *post = st_gate_post(feature, admitted);
	const char *sim = simulated ? " (simulated by gate_simulate)" : "";
	const char *dir = v->why == ST_GATE_OLDER ? "older" : "newer";
	char range[48], series[16], list[64];

	if (v->why == ST_GATE_CHECKED) {
		buf[0] = '\0';
		return;
	}
	if (v->why == ST_GATE_SERIES) {
		if (k->major)
			snprintf(series, sizeof(series), "%u.%u", k->major, k->minor);
		else
			snprintf(series, sizeof(series), "unknown");
		st_gate_series_list(feature, list, sizeof(list));
		snprintf(buf, size,
			 "kernel %s (series %s) is not a series this feature was checked against (%s)%s",
			 release, series, list,
			 allow_unchecked ? "; allow_unchecked=1 covers only a checked series" : "");
		return;
	}

	if (r->first == r->last)
		snprintf(range, sizeof(range), "%u.%u.%u", r->major, r->minor,
			 r->first);
	else
		snprintf(range, sizeof(range), "%u.%u.%u..%u.%u.%u", r->major,
			 r->minor, r->first, r->major, r->minor, r->last);

	if (v->why == ST_GATE_VENDOR)
		snprintf(buf, size,
			 "%skernel %s%s is not a Debian build, and this feature's copy was compared with Debian's %s only%s",
			 pre, release, sim, range, post);
	else if (v->by_headers)
		snprintf(buf, size,
			 "%skernel %s: the module was built against %u.%u.%u headers, %s than the %s this feature's copy was compared with%s",
			 pre, release, k->major, k->minor, k->built_sublevel,
			 dir, range, post);
	else
		snprintf(buf, size,
			 "%skernel %s is %u.%u.%u%s, %s than the %s this feature's copy was compared with%s",
			 pre, release, k->major, k->minor, k->sublevel, sim,
			 dir, range, post);
}

/* The build's line for @func, or NULL. */
static const struct st_gate_size *st_gate_size_line(const char *release,
						    const struct st_gate_kernel *k,
						    const char *func)
{
	unsigned int i;

	for (i = 0; i < st_gate_nr_sizes; i++) {
		const struct st_gate_size *s = &st_gate_sizes[i];

		if (!strcmp(s->release, release) &&
		    !strcmp(s->package, k->package) &&
		    (!func || !strcmp(s->func, func)))
			return s;
	}
	return NULL;
}

/**
 * st_gate_recorded() - Whether gate_checked.h records this build's sizes.
 * @release: the running kernel's release string
 * @k: the kernel
 *
 * Return: true for a Debian build with a size line of its release and
 * package.
 */
bool st_gate_recorded(const char *release, const struct st_gate_kernel *k)
{
	return k->debian && st_gate_size_line(release, k, NULL);
}

/**
 * st_gate_recorded_size() - A function's size recorded for this build.
 * @release: the running kernel's release string
 * @k: the kernel
 * @func: the function
 *
 * Return: the size in bytes, or 0 when none is recorded.
 */
unsigned long st_gate_recorded_size(const char *release,
				    const struct st_gate_kernel *k,
				    const char *func)
{
	const struct st_gate_size *s;

	if (!k->debian)
		return 0;
	s = st_gate_size_line(release, k, func);
	return s ? s->size : 0;
}

/**
 * st_gate_sizes_differ() - Whether a feature's function has another size here.
 * @feature: the feature's name
 * @release: the running kernel's release string
 * @k: the kernel
 * @measure: a function's size in the running kernel, 0 when kallsyms
 *           lacks it (left to the feature's own probe, which names it)
 * @arg: passed to @measure
 * @sv: set to the first function that differs
 *
 * Only a recorded build (st_gate_recorded()) is judged.
 *
 * Return: true if a function of @feature has another size than recorded.
 */
bool st_gate_sizes_differ(const char *feature, const char *release,
			  const struct st_gate_kernel *k,
			  unsigned long (*measure)(const char *func, void *arg),
			  void *arg, struct st_gate_size_verdict *sv)
{
	unsigned long recorded, here;
	unsigned int i;

	if (!st_gate_recorded(release, k))
		return false;
	for (i = 0; i < st_gate_nr_funcs; i++) {
		const char *func = st_gate_funcs[i].func;

		if (strcmp(st_gate_funcs[i].feature, feature))
			continue;
		/* a function this build does not have is not recorded */
		recorded = st_gate_recorded_size(release, k, func);
		if (!recorded)
			continue;
		here = measure(func, arg);
		if (!here || here == recorded)
			continue;
		sv->func = func;
		sv->recorded = recorded;
		sv->here = here;
		return true;
	}
	return false;
}

/**
 * st_gate_explain_size() - The reason for a size that differs.
 * @buf: where the reason goes
 * @size: the room in @buf; ST_GATE_REASON_LEN holds any reason
 * @feature: the feature's name
 * @release: the running kernel's release string
 * @k: the kernel
 * @sv: st_gate_sizes_differ()'s
 * @admitted: the copy runs unchecked; else it is refused
 * @simulated: the size is one gate_simulate made up
 */
void st_gate_explain_size(char *buf, size_t size, const char *feature,
			  const char *release, const struct st_gate_kernel *k,
			  const struct st_gate_size_verdict *sv, bool admitted,
			  bool simulated)
{
	snprintf(buf, size,
		 "%skernel %s: %s is %lu bytes here%s, %lu in Debian's %s build this feature's copy was compared with (a rebuilt or patched kernel?)%s",
		 admitted ? "unchecked: " : "", release, sv->func, sv->here,
		 simulated ? " (simulated by gate_simulate)" : "", sv->recorded,
		 k->package, st_gate_post(feature, admitted));
}
