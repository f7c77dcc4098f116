// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of module/policy.c, compiled from the module's own source:
 * knob parsing and ranges, formatting, the rate-limit decision.
 */
#include <string.h>

#include "ktap.h"
#include "../../module/policy.c"

static int parse(int id, const char *s, u64 *v)
{
	return st_knob_parse(&st_knobs[id], s, strlen(s), v);
}

struct parse_case {
	int knob;
	const char *in;
	int ret;
	u64 val;
};

static const struct parse_case cases[] = {
	{ ST_KNOB_ENABLED, "0", 0, 0 },
	{ ST_KNOB_ENABLED, "1\n", 0, 1 },
	{ ST_KNOB_ENABLED, "2", -ERANGE },
	{ ST_KNOB_ENABLED, "", -EINVAL },
	{ ST_KNOB_ENABLED, "\n", -EINVAL },
	{ ST_KNOB_ENABLED, "1\n\n", -EINVAL },
	{ ST_KNOB_ENABLED, " 1", -EINVAL },
	{ ST_KNOB_ENABLED, "yes", -EINVAL },
	{ ST_KNOB_RL_WINDOW_NS, "0", 0, 0 },
	{ ST_KNOB_RL_WINDOW_NS, "1000000000", 0, 1000000000 },
	{ ST_KNOB_RL_WINDOW_NS, "1000000001", -ERANGE },
	{ ST_KNOB_RL_WINDOW_NS, "-1", -EINVAL },
	{ ST_KNOB_RL_WINDOW_NS, "+5", -EINVAL },
	{ ST_KNOB_RL_WINDOW_NS, "0x10", -EINVAL },
	{ ST_KNOB_RL_WINDOW_NS, "2e6", -EINVAL },
	{ ST_KNOB_RL_WINDOW_NS, "18446744073709551615", -ERANGE },
	{ ST_KNOB_RL_WINDOW_NS, "18446744073709551616", -ERANGE },
	{ ST_KNOB_RL_WINDOW_NS, "99999999999999999999999", -ERANGE },
	{ ST_KNOB_RL_WINDOW_NS, "99999999999999999999999x", -EINVAL },
	{ ST_KNOB_RL_BURST, "0", -ERANGE },
	{ ST_KNOB_RL_BURST, "1", 0, 1 },
	{ ST_KNOB_RL_BURST, "1000", 0, 1000 },
	{ ST_KNOB_RL_BURST, "1001", -ERANGE },
	{ ST_KNOB_CACHE_LEVEL, "llc", 0, ST_LEVEL_LLC },
	{ ST_KNOB_CACHE_LEVEL, "l2\n", 0, ST_LEVEL_L2 },
	{ ST_KNOB_CACHE_LEVEL, "smt", 0, ST_LEVEL_SMT },
	{ ST_KNOB_CACHE_LEVEL, "auto", 0, ST_LEVEL_AUTO },
	{ ST_KNOB_CACHE_LEVEL, "none\n", 0, ST_LEVEL_NONE },
	{ ST_KNOB_CACHE_LEVEL, "None", -EINVAL },
	{ ST_KNOB_CACHE_LEVEL, "none ", -EINVAL },
	{ ST_KNOB_CACHE_LEVEL, "nonex", -EINVAL },
	{ ST_KNOB_CACHE_LEVEL, "L2", -EINVAL },
	{ ST_KNOB_CACHE_LEVEL, "l2 ", -EINVAL },
	{ ST_KNOB_CACHE_LEVEL, "1", -EINVAL },
	{ ST_KNOB_CACHE_LEVEL, "l", -EINVAL },
	{ ST_KNOB_CACHE_LEVEL, "llcx", -EINVAL },
	{ ST_KNOB_AUTO_LLC_MAX, "0", -ERANGE },
	{ ST_KNOB_AUTO_LLC_MAX, "4096", 0, 4096 },
	{ ST_KNOB_AUTO_LLC_MAX, "4097", -ERANGE },
	{ ST_KNOB_NUMA_THRESHOLD, "100", 0, 100 },
	{ ST_KNOB_NUMA_THRESHOLD, "101", -ERANGE },
	{ ST_KNOB_NUMA_RENEW, "0", 0, 0 },
	{ ST_KNOB_NUMA_RENEW, "1025", -ERANGE },
};

/* A TAP description must stay on one line. */
static const char *visible(const char *in)
{
	static char out[64];
	size_t n = 0;

	for (; *in && n < sizeof(out) - 3; in++) {
		if (*in == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
		} else {
			out[n++] = *in;
		}
	}
	out[n] = 0;
	return out;
}

static void test_parse(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct parse_case *c = &cases[i];
		u64 v = 12345;
		int ret = parse(c->knob, c->in, &v);

		ktap_check(ret == c->ret && (ret ? v == 12345 : v == c->val),
			   "parse %s \"%s\" -> %d (got %d, %llu)",
			   st_knobs[c->knob].name, visible(c->in), c->ret, ret,
			   (unsigned long long)v);
	}
}

static void test_parse_len(void)
{
	u64 v;

	/* sysfs hands over a length, not a string: bytes past it are ignored */
	ktap_check(st_knob_parse(&st_knobs[ST_KNOB_RL_BURST], "12junk", 2,
				 &v) == 0 && v == 12,
		   "parse honours the length it is given");
}

static void test_defaults(void)
{
	int i;

	for (i = 0; i < ST_NR_KNOBS; i++) {
		const struct st_knob_desc *d = &st_knobs[i];

		ktap_check(d->def >= d->min && d->def <= d->max &&
			   (!d->has_stock ||
			    (d->stock >= d->min && d->stock <= d->max)) &&
			   st_knob_lookup(d->name) == i,
			   "knob %s: default and stock in range, found by name",
			   d->name);
	}
	ktap_check(st_knob_lookup("nope") == -EINVAL, "unknown knob name");
}

static void test_format(void)
{
	char buf[64];

	st_knob_format(&st_knobs[ST_KNOB_CACHE_LEVEL], ST_LEVEL_L2, buf,
		       sizeof(buf));
	ktap_check(!strcmp(buf, "llc [l2] smt auto none\n"), "format level: %s",
		   visible(buf));
	st_knob_format(&st_knobs[ST_KNOB_CACHE_LEVEL], ST_LEVEL_LLC, buf,
		       sizeof(buf));
	ktap_check(!strcmp(buf, "[llc] l2 smt auto none\n"), "format llc");
	st_knob_format(&st_knobs[ST_KNOB_CACHE_LEVEL], ST_LEVEL_NONE, buf,
		       sizeof(buf));
	ktap_check(!strcmp(buf, "llc l2 smt auto [none]\n"), "format none");
	st_knob_format(&st_knobs[ST_KNOB_RL_WINDOW_NS], 2000000, buf,
		       sizeof(buf));
	ktap_check(!strcmp(buf, "2000000\n"), "format number");
}

#define MS 1000000ULL

static void test_ratelimit(void)
{
	struct st_rl_params rp;
	u64 tat, t = 1000 * MS;
	int i, allowed;

	/* burst 1 is the seed: held until window after the last migration */
	st_rl_params_init(&rp, 2 * MS, 1);
	ktap_check(!st_rl_limited(&rp, 0, t), "never migrated: not limited");
	tat = st_rl_stamp(&rp, 0, t);
	ktap_check(st_rl_limited(&rp, tat, t), "just migrated: limited");
	ktap_check(st_rl_limited(&rp, tat, t + 2 * MS - 1),
		   "limited until the window ends");
	ktap_check(!st_rl_limited(&rp, tat, t + 2 * MS),
		   "free once the window ended");
	tat = st_rl_stamp(&rp, tat, t + MS);
	ktap_check(st_rl_limited(&rp, tat, t + 2 * MS) &&
		   !st_rl_limited(&rp, tat, t + 3 * MS),
		   "a later migration restarts the window (as the seed)");

	/* burst 3: three quick migrations, then held */
	st_rl_params_init(&rp, 3 * MS, 3);
	tat = 0;
	allowed = 0;
	for (i = 0; i < 10; i++) {
		if (st_rl_limited(&rp, tat, t))
			break;
		allowed++;
		tat = st_rl_stamp(&rp, tat, t);
	}
	ktap_check(allowed == 3, "burst 3 allows 3 back-to-back (got %d)",
		   allowed);
	ktap_check(!st_rl_limited(&rp, tat, t + MS),
		   "one interval later one more is allowed");

	/* stamps that nobody vetoes never hold a task beyond a window */
	st_rl_params_init(&rp, 2 * MS, 2);
	tat = 0;
	for (i = 0; i < 100; i++)
		tat = st_rl_stamp(&rp, tat, t);
	ktap_check(tat == t + 2 * MS && !st_rl_limited(&rp, tat, t + 2 * MS),
		   "stamps are capped at one window ahead");

	st_rl_params_init(&rp, 0, 1);
	ktap_check(!st_rl_limited(&rp, ~0ULL, t), "window 0 never limits");
}

static void test_wake_wide(void)
{
	struct st_wakee_flips w = { .flips = 9, .decay = true,
				    .new_wakee = true };

	ktap_check(st_flips_after_record(&w) == 5, "decay halves, then +1");
	w.decay = false;
	w.new_wakee = false;
	ktap_check(st_flips_after_record(&w) == 9, "same wakee: unchanged");
	ktap_check(!st_wake_wide(100, 3, 4), "few wakee flips: affine");
	ktap_check(st_wake_wide(100, 10, 4), "1:many waker: wide");
	ktap_check(!st_wake_wide(30, 10, 4), "master < slave * llc: affine");
	ktap_check(st_wake_wide(10, 100, 4) == st_wake_wide(100, 10, 4),
		   "symmetric in waker and wakee");
}

int main(void)
{
	ktap_header(ARRAY_SIZE(cases) + 1 + ST_NR_KNOBS + 1 + 4 + 9 + 6);
	test_parse();
	test_parse_len();
	test_defaults();
	test_format();
	test_ratelimit();
	test_wake_wide();
	return ktap_finish();
}
