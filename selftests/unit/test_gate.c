// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of module/kernel/gate_range.c, compiled from the module's
 * own source and its table (gate_checked.h): which kernel a release and
 * version string name, and the gate's verdict and reason for each
 * feature: in range, above, below, another vendor, an unchecked series,
 * with allow_unchecked off and on.
 */
#include <string.h>

#include "ktap.h"
#include "../../module/kernel/gate_range.c"

#define V612 "#1 SMP PREEMPT_DYNAMIC Debian 6.12.95-1~bpo12+1 (2026-07-05)"
#define V61 "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-1 (2026-10-30)"
#define V73 "#1 SMP PREEMPT_DYNAMIC Debian 7.3.4-1~bpo13+1 (2026-11-15)"

struct parse_case {
	const char *what, *release, *version;
	unsigned int built;
	unsigned int major, minor, sublevel;
	bool debian;
	/* the Debian package version named, "" for none */
	const char *package;
};

static const struct parse_case parses[] = {
	{ "6.12 of bookworm-backports", "6.12.95+deb12-amd64", V612, 95, 6, 12, 95, true,
	  "6.12.95-1~bpo12+1" },
	{ "6.12 of trixie-security", "6.12.118+deb13-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.12.118-1 (2026-11-20)", 118, 6, 12, 118, true,
	  "6.12.118-1" },
	{ "6.1's ABI name: the sublevel from the version string", "6.1.0-57-amd64", V61, 192,
	  6, 1, 192, true, "6.1.192-1" },
	{ "6.1 cloud flavour", "6.1.0-57-cloud-amd64", V61, 192, 6, 1, 192, true, "6.1.192-1" },
	{ "7.3 of trixie-backports", "7.3.4+deb13-amd64", V73, 4, 7, 3, 4, true,
	  "7.3.4-1~bpo13+1" },
	{ "older backports name +bpo", "6.12.9+bpo-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.12.9-1~bpo12+1 (2025-01-20)", 9, 6, 12, 9, true,
	  "6.12.9-1~bpo12+1" },
	{ "another vendor: sublevel from the release", "6.12.95-custom",
	  "#1 SMP PREEMPT_DYNAMIC Tue Jul  1 10:00:00 UTC 2026", 95, 6, 12, 95, false, "" },
	{ "Ubuntu-like 6.1.0-57-generic", "6.1.0-57-generic", "#57-Ubuntu SMP PREEMPT_DYNAMIC",
	  0, 6, 1, 0, false, "" },
	{ "a +deb release whose version string names no Debian package", "6.12.95+deb12-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Wed Jul  2 2026", 95, 6, 12, 95, false, "" },
	{ "a version string naming another series", "6.12.95+deb12-amd64", V61, 95, 6, 12, 95,
	  false, "" },
	{ "a +deb release and a Debian package of another sublevel", "6.12.95+deb12-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.12.96-1 (2026-07-09)", 95, 6, 12, 96, false,
	  "6.12.96-1" },
	{ "'Debian 6.12.95' with no package revision", "6.12.95+deb12-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.12.95 (custom)", 95, 6, 12, 95, false, "" },
	{ "Debian's package named, release of no Debian form", "6.12.95-foo", V612, 95,
	  6, 12, 95, false, "6.12.95-1~bpo12+1" },
	{ "a release it cannot read", "linux", V612, 95, 0, 0, 0, false, "" },
};

static struct st_gate_kernel kern(const char *release, const char *version,
				  unsigned int built)
{
	struct st_gate_kernel k;

	st_gate_kernel_parse(&k, release, version, built);
	return k;
}

struct judge_case {
	const char *what, *feature, *release, *version;
	unsigned int built;
	enum st_gate_why why;
	bool by_headers;
	/* without and with allow_unchecked */
	bool runs, runs_allowed;
	/* in the refusal's reason */
	const char *says, *says2;
};

static const struct judge_case judges[] = {
	{ "6.12.95, bottom of the range", "ratelimit", "6.12.95+deb12-amd64", V612, 95,
	  ST_GATE_CHECKED, false, true, true, NULL, NULL },
	{ "6.12.117, inside", "cache_level", "6.12.117+deb12-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1~deb12u1 (2026-11-01)", 117,
	  ST_GATE_CHECKED, false, true, true, NULL, NULL },
	{ "6.12.118, top of the range", "numa_scan", "6.12.118+deb13-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.12.118-1 (2026-11-20)", 118,
	  ST_GATE_CHECKED, false, true, true, NULL, NULL },
	{ "6.12.119, above", "ratelimit", "6.12.119+deb13-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.12.119-1 (2026-12-10)", 119,
	  ST_GATE_NEWER, false, false, true,
	  "kernel 6.12.119+deb13-amd64 is 6.12.119, newer than the 6.12.95..6.12.118 this feature's copy was compared with",
	  ": load with allow_unchecked=1 to run it anyway" },
	{ "6.12.94, below", "cache_level", "6.12.94+deb12-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.12.94-1~bpo12+1 (2026-06-20)", 94,
	  ST_GATE_OLDER, false, false, true, "is 6.12.94, older than the 6.12.95..6.12.118", NULL },
	{ "6.1.192, the one checked", "ratelimit", "6.1.0-57-amd64", V61, 192,
	  ST_GATE_CHECKED, false, true, true, NULL, NULL },
	{ "6.1.193 under the same ABI name", "ratelimit", "6.1.0-57-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.1.193-1 (2026-12-01)", 192,
	  ST_GATE_NEWER, false, false, true,
	  "kernel 6.1.0-57-amd64 is 6.1.193, newer than the 6.1.192 this",
	  NULL },
	{ "6.1.191, below", "cache_level", "6.1.0-56-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.1.191-1 (2026-10-01)", 191,
	  ST_GATE_OLDER, false, false, true, "is 6.1.191, older than the 6.1.192 this", NULL },
	{ "6.1.192 running, module built against 6.1.193's headers", "ratelimit",
	  "6.1.0-57-amd64", V61, 193, ST_GATE_NEWER, true, false, true,
	  "kernel 6.1.0-57-amd64: the module was built against 6.1.193 headers, newer than the 6.1.192",
	  NULL },
	{ "7.3.4, the one checked", "numa_scan", "7.3.4+deb13-amd64", V73, 4,
	  ST_GATE_CHECKED, false, true, true, NULL, NULL },
	{ "7.3.5, above", "cache_level", "7.3.5+deb13-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 7.3.5-1~bpo13+1 (2026-12-01)", 5,
	  ST_GATE_NEWER, false, false, true, "is 7.3.5, newer than the 7.3.4 this", NULL },
	{ "another vendor's 6.12.95", "ratelimit", "6.12.95-custom", "#1 SMP PREEMPT_DYNAMIC", 95,
	  ST_GATE_VENDOR, false, false, true,
	  "kernel 6.12.95-custom is not a Debian build, and this feature's copy was compared with Debian's 6.12.95..6.12.118 only",
	  "allow_unchecked=1" },
	{ "an unchecked series, 6.13", "ratelimit", "6.13.2+deb13-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.13.2-1 (2026-02-01)", 2,
	  ST_GATE_SERIES, false, false, false,
	  "kernel 6.13.2+deb13-amd64 (series 6.13) is not a series this feature was checked against (6.1, 6.12, 7.3)",
	  NULL },
	{ "numa_scan on 6.1: no 6.1 copy", "numa_scan", "6.1.0-57-amd64", V61, 192,
	  ST_GATE_SERIES, false, false, false,
	  "kernel 6.1.0-57-amd64 (series 6.1) is not a series this feature was checked against (6.12, 7.3)",
	  NULL },
	{ "6.12.119, above: numa_scan never runs unchecked", "numa_scan", "6.12.119+deb13-amd64",
	  "#1 SMP PREEMPT_DYNAMIC Debian 6.12.119-1 (2026-12-10)", 119,
	  ST_GATE_NEWER, false, false, false,
	  "is 6.12.119, newer than the 6.12.95..6.12.118 this feature's copy was compared with; allow_unchecked=1 does not cover this feature: it allocates vma->numab_state itself",
	  NULL },
	{ "another vendor's 6.12.95: numa_scan never runs unchecked", "numa_scan",
	  "6.12.95-custom", "#1 SMP PREEMPT_DYNAMIC", 95, ST_GATE_VENDOR, false, false, false,
	  "is not a Debian build",
	  "; allow_unchecked=1 does not cover this feature: it allocates vma->numab_state itself"
	},
	{ "a feature not in the table", "nosuch", "6.12.95+deb12-amd64", V612, 95,
	  ST_GATE_SERIES, false, false, false, "checked against ()", NULL },
	{ "a release it cannot read", "ratelimit", "linux", V612, 95,
	  ST_GATE_SERIES, false, false, false, "kernel linux (series unknown)", NULL },
};

static const char *const why_names[] = {
	[ST_GATE_CHECKED] = "checked", [ST_GATE_SERIES] = "unchecked series",
	[ST_GATE_VENDOR] = "other vendor", [ST_GATE_OLDER] = "older",
	[ST_GATE_NEWER] = "newer",
};

static bool has(const char *s, const char *what)
{
	return !what || strstr(s, what);
}

static const struct st_gate_range *range_of(const char *feature,
					    unsigned int major,
					    unsigned int minor)
{
	unsigned int i;

	for (i = 0; i < st_gate_nr_ranges; i++)
		if (!strcmp(st_gate_ranges[i].feature, feature) &&
		    st_gate_ranges[i].major == major &&
		    st_gate_ranges[i].minor == minor)
			return &st_gate_ranges[i];
	return NULL;
}

static bool range_is(const char *feature, unsigned int major, unsigned int minor,
		     unsigned int first, unsigned int last)
{
	const struct st_gate_range *r = range_of(feature, major, minor);

	return r && r->first == first && r->last == last;
}

/* A kernel's function sizes for st_gate_sizes_differ(): the record's. */
struct fake_sizes {
	const char *release;
	const struct st_gate_kernel *k;
	const char *bump;	/* this one 16 bytes larger */
	bool absent;		/* and this one absent instead */
};

static unsigned long fake_measure(const char *func, void *arg)
{
	const struct fake_sizes *f = arg;
	unsigned long size = st_gate_recorded_size(f->release, f->k, func);

	if (f->bump && !strcmp(func, f->bump))
		return f->absent ? 0 : size + 16;
	return size ? size : 100;
}

/* the first feature fingerprinted by @func */
static const char *feature_of(const char *func)
{
	unsigned int i;

	for (i = 0; i < st_gate_nr_funcs; i++)
		if (!strcmp(st_gate_funcs[i].func, func))
			return st_gate_funcs[i].feature;
	return NULL;
}

/*
 * The fingerprints (gate_checked.h, ST_GATE_SIZE), on the first build
 * recorded: its own sizes pass, one function 16 bytes larger refuses the
 * features it fingerprints and no other, an absent one is left to the
 * probe, another package or vendor of the same release is not recorded.
 */
static void test_sizes(void)
{
	const struct st_gate_size *rec = st_gate_nr_sizes ? &st_gate_sizes[0] : NULL;
	struct st_gate_size_verdict sv;
	struct fake_sizes fs = { 0 };
	struct st_gate_kernel k = { .debian = true };
	char buf[ST_GATE_REASON_LEN + 64], want[ST_GATE_REASON_LEN + 64];
	unsigned int i, j;
	bool ok, found;

	ok = st_gate_nr_sizes > 0;
	for (i = 0; i < st_gate_nr_sizes; i++) {
		found = false;
		for (j = 0; j < st_gate_nr_funcs; j++)
			found |= !strcmp(st_gate_funcs[j].func, st_gate_sizes[i].func);
		ok &= found && st_gate_sizes[i].size > 0;
	}
	ktap_check(ok, "sizes: %u recorded, each of a function ST_GATE_FUNC names, none 0",
		   st_gate_nr_sizes);
	if (!rec) {
		for (i = 0; i < 7; i++)
			ktap_skip("sizes", "no build recorded in gate_checked.h");
		return;
	}
	snprintf(k.package, sizeof(k.package), "%s", rec->package);
	fs.release = rec->release;
	fs.k = &k;
	ok = st_gate_recorded(rec->release, &k);
	for (i = 0; i < st_gate_nr_funcs; i++)
		ok &= !st_gate_sizes_differ(st_gate_funcs[i].feature, rec->release, &k,
					    fake_measure, &fs, &sv);
	ktap_check(ok, "sizes: %s (%s) recorded, its own sizes pass every feature",
		   rec->release, rec->package);

	fs.bump = rec->func;
	ok = st_gate_sizes_differ(feature_of(rec->func), rec->release, &k, fake_measure,
				  &fs, &sv) &&
	     !strcmp(sv.func, rec->func) && sv.recorded == rec->size &&
	     sv.here == rec->size + 16;
	for (i = 0; i < st_gate_nr_funcs; i++) {
		bool uses = false;

		for (j = 0; j < st_gate_nr_funcs; j++)
			uses |= !strcmp(st_gate_funcs[j].feature, st_gate_funcs[i].feature) &&
				!strcmp(st_gate_funcs[j].func, rec->func) &&
				st_gate_recorded_size(rec->release, &k, rec->func);
		ok &= st_gate_sizes_differ(st_gate_funcs[i].feature, rec->release, &k,
					   fake_measure, &fs, &sv) == uses;
	}
	ktap_check(ok, "sizes: %s 16 bytes larger refuses the features it fingerprints, no other",
		   rec->func);

	st_gate_sizes_differ(feature_of(rec->func), rec->release, &k, fake_measure, &fs, &sv);
	st_gate_explain_size(buf, sizeof(buf), "ratelimit", rec->release, &k, &sv, false, false);
	snprintf(want, sizeof(want),
		 "kernel %s: %s is %lu bytes here, %lu in Debian's %s build this feature's copy was compared with (a rebuilt or patched kernel?): load with allow_unchecked=1 to run it anyway",
		 rec->release, rec->func, rec->size + 16, rec->size, rec->package);
	if (!ktap_check(!strcmp(buf, want),
			"sizes: the reason names the function, both sizes, the build"))
		ktap_diag("got '%s'", buf);
	st_gate_explain_size(buf, sizeof(buf), "numa_scan", rec->release, &k, &sv, false, true);
	ok = strstr(buf, "bytes here (simulated by gate_simulate), ") &&
	     strstr(buf,
		    "; allow_unchecked=1 does not cover this feature: it allocates vma->numab_state itself");
	st_gate_explain_size(buf, sizeof(buf), "ratelimit", rec->release, &k, &sv, true, false);
	ok &= !strncmp(buf, "unchecked: kernel ", 18) &&
	      strstr(buf, "; running it anyway (allow_unchecked=1)");
	ktap_check(ok,
		   "sizes: numa_scan's says allow_unchecked does not cover it; one run unchecked says so");

	/* the longest: a cloud release, a security package, numa_scan's end */
	snprintf(k.package, sizeof(k.package), "6.12.118-1~deb12u1");
	sv.func = "select_task_rq_fair";
	sv.recorded = 11312;
	sv.here = 11328;
	st_gate_explain_size(buf, sizeof(buf), "numa_scan", "6.12.118+deb12-cloud-amd64", &k, &sv,
			     false, true);
	ktap_check(strlen(buf) + 1 < ST_GATE_REASON_LEN &&
		   strstr(buf, "it allocates vma->numab_state itself"),
		   "sizes: the longest reason fits the gate's %d bytes whole (%zu)",
		   ST_GATE_REASON_LEN, strlen(buf));
	snprintf(k.package, sizeof(k.package), "%s", rec->package);

	fs.absent = true;
	ktap_check(!st_gate_sizes_differ(feature_of(rec->func), rec->release, &k, fake_measure,
					 &fs, &sv),
		   "sizes: a function kallsyms lacks is left to the feature's probe");
	fs.absent = false;
	snprintf(k.package, sizeof(k.package), "%s+local1", rec->package);
	ok = !st_gate_recorded(rec->release, &k) &&
	     !st_gate_sizes_differ(feature_of(rec->func), rec->release, &k, fake_measure, &fs, &sv);
	snprintf(k.package, sizeof(k.package), "%s", rec->package);
	k.debian = false;
	ok &= !st_gate_recorded(rec->release, &k) &&
	      !st_gate_recorded_size(rec->release, &k, rec->func);
	ktap_check(ok, "sizes: another package version, or not Debian's build: not recorded");
}

int main(void)
{
	const int nparse = ARRAY_SIZE(parses);
	const int njudge = ARRAY_SIZE(judges);
	struct st_gate_verdict v;
	struct st_gate_kernel k;
	char buf[256], small[16];
	bool ok;
	unsigned int i;
	int j;

	ktap_header(nparse + 3 * njudge + 12 + 8);

	for (j = 0; j < nparse; j++) {
		const struct parse_case *c = &parses[j];

		k = kern(c->release, c->version, c->built);
		ok = k.major == c->major && k.minor == c->minor &&
		     (!c->major || k.sublevel == c->sublevel) &&
		     k.debian == c->debian && k.built_sublevel == c->built &&
		     (!c->major || !strcmp(k.package, c->package));
		if (!ktap_check(ok, "parse: %s (%s)", c->what, c->release))
			ktap_diag("got %u.%u.%u debian %d built %u package '%s'", k.major,
				  k.minor, k.sublevel, k.debian, k.built_sublevel, k.package);
	}

	for (j = 0; j < njudge; j++) {
		const struct judge_case *c = &judges[j];

		k = kern(c->release, c->version, c->built);
		st_gate_judge(c->feature, &k, &v);
		if (!ktap_check(v.why == c->why && v.by_headers == c->by_headers,
				"judge: %s %s: %s%s", c->feature, c->what, why_names[c->why],
				c->by_headers ? " (by the headers)" : ""))
			ktap_diag("got %s, by_headers %d", why_names[v.why], v.by_headers);
		ktap_check(st_gate_admits(c->feature, &v, false) == c->runs &&
			   st_gate_admits(c->feature, &v, true) == c->runs_allowed,
			   "judge: %s %s: runs %s, with allow_unchecked %s", c->feature, c->what,
			   c->runs ? "yes" : "no", c->runs_allowed ? "yes" : "no");
		st_gate_explain(buf, sizeof(buf), c->feature, c->release, &k, &v, false,
				false, false);
		ok = c->why == ST_GATE_CHECKED ? !buf[0] : has(buf, c->says) && has(buf, c->says2);
		if (!ktap_check(ok, "reason: %s %s", c->feature, c->what))
			ktap_diag("got '%s'", buf);
	}

	/* what a feature run with allow_unchecked=1 says */
	k = kern("6.12.119+deb13-amd64", "#1 SMP PREEMPT_DYNAMIC Debian 6.12.119-1 (2026)", 119);
	st_gate_judge("ratelimit", &k, &v);
	st_gate_explain(buf, sizeof(buf), "ratelimit", "6.12.119+deb13-amd64", &k, &v, true,
			true, false);
	ok = !strcmp(buf,
		     "unchecked: kernel 6.12.119+deb13-amd64 is 6.12.119, newer than the 6.12.95..6.12.118 this feature's copy was compared with; running it anyway (allow_unchecked=1)");
	ktap_check(ok,
		   "reason: allow_unchecked=1 on 6.12.119: unchecked, the range, running anyway");
	if (!ok)
		ktap_diag("got '%s'", buf);

	/* gate_simulate's sublevel, as gate.c passes it */
	k = kern("6.12.95+deb12-amd64", V612, 95);
	k.sublevel = 999;
	st_gate_judge("ratelimit", &k, &v);
	st_gate_explain(buf, sizeof(buf), "ratelimit", "6.12.95+deb12-amd64", &k, &v, false,
			false, true);
	ok = v.why == ST_GATE_NEWER &&
	     !strcmp(buf,
		     "kernel 6.12.95+deb12-amd64 is 6.12.999 (simulated by gate_simulate), newer than the 6.12.95..6.12.118 this feature's copy was compared with: load with allow_unchecked=1 to run it anyway");
	if (!ktap_check(ok, "reason: a simulated sublevel 999 says so"))
		ktap_diag("got '%s'", buf);

	k = kern("6.12.95+deb12-amd64", V612, 95);
	k.debian = false;
	st_gate_judge("cache_level", &k, &v);
	st_gate_explain(buf, sizeof(buf), "cache_level", "6.12.95+deb12-amd64", &k, &v, true,
			true, true);
	ok = v.why == ST_GATE_VENDOR &&
	     !strcmp(buf,
		     "unchecked: kernel 6.12.95+deb12-amd64 (simulated by gate_simulate) is not a Debian build, and this feature's copy was compared with Debian's 6.12.95..6.12.118 only; running it anyway (allow_unchecked=1)");
	if (!ktap_check(ok, "reason: a simulated vendor, run with allow_unchecked=1"))
		ktap_diag("got '%s'", buf);

	k = kern("6.13.2+deb13-amd64", "#1 SMP PREEMPT_DYNAMIC Debian 6.13.2-1 (2026)", 2);
	st_gate_judge("ratelimit", &k, &v);
	st_gate_explain(buf, sizeof(buf), "ratelimit", "6.13.2+deb13-amd64", &k, &v, false,
			true, false);
	ktap_check(has(buf, "(6.1, 6.12, 7.3); allow_unchecked=1 covers only a checked series"),
		   "reason: allow_unchecked=1 on an unchecked series says it does not cover it");

	/* a short buffer: truncated, terminated, nothing written past it */
	memset(small, 'x', sizeof(small));
	st_gate_explain(small, sizeof(small), "ratelimit", "6.13.2+deb13-amd64", &k, &v, false,
			false, false);
	ktap_check(strlen(small) == sizeof(small) - 1, "reason: truncated to a short buffer");
	memset(small, 'x', sizeof(small));
	st_gate_series_list("ratelimit", small, 6);
	ktap_check(!strcmp(small, "6.1, ") && small[6] == 'x',
		   "series list: truncated to a short buffer ('%s')", small);

	/* the table itself, as issue 14 recorded it */
	ok = true;
	for (i = 0; i < st_gate_nr_ranges; i++)
		ok &= st_gate_ranges[i].first <= st_gate_ranges[i].last;
	ktap_check(ok, "table: first <= last in every range");
	ktap_check(range_is("ratelimit", 6, 1, 192, 192) && range_is("cache_level", 6, 1, 192, 192),
		   "table: 6.1 checked at 6.1.192");
	ktap_check(range_is("ratelimit", 6, 12, 95, 118) &&
		   range_is("cache_level", 6, 12, 95, 118) &&
		   range_is("numa_scan", 6, 12, 95, 118),
		   "table: 6.12 checked from 6.12.95 to 6.12.118");
	ktap_check(range_is("ratelimit", 7, 3, 4, 4) && range_is("cache_level", 7, 3, 4, 4) &&
		   range_is("numa_scan", 7, 3, 4, 4), "table: 7.3 checked at 7.3.4");
	ktap_check(!range_of("numa_scan", 6, 1), "table: numa_scan has no 6.1 copy");
	st_gate_series_list("numa_scan", buf, sizeof(buf));
	ktap_check(!strcmp(buf, "6.12, 7.3"), "series list: numa_scan '%s'", buf);

	test_sizes();
	return ktap_finish();
}
