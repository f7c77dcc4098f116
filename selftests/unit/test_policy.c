// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of module/policy/knob.c, ratelimit.c and wake.c, compiled
 * from the module's own source: knob parsing and ranges, formatting, the
 * rate-limit decision.
 */
#include <string.h>

#include "ktap.h"
#include "policy/knob.c"
#include "policy/ratelimit.c"
#include "policy/wake.c"

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
	{ ST_KNOB_RL_MODE, "fixed", 0, ST_RL_MODE_FIXED },
	{ ST_KNOB_RL_MODE, "adaptive\n", 0, ST_RL_MODE_ADAPTIVE },
	{ ST_KNOB_RL_MODE, "Adaptive", -EINVAL },
	{ ST_KNOB_RL_MODE, "1", -EINVAL },
	{ ST_KNOB_RL_QUOTA, "0", -ERANGE },
	{ ST_KNOB_RL_QUOTA, "1000", 0, 1000 },
	{ ST_KNOB_RL_QUOTA, "1001", -ERANGE },
	{ ST_KNOB_RL_QUOTA_REPLENISH, "0", -ERANGE },
	{ ST_KNOB_RL_QUOTA_REPLENISH, "1", 0, 1 },
	{ ST_KNOB_RL_QUOTA_REPLENISH, "1001", -ERANGE },
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

/* @n migrations at @t, each must return @want; false if one did not. */
static bool migrate_n(struct st_rl_quota *q, const struct st_rl_params *rp,
		      int n, u64 t, enum st_rl_stamped want)
{
	bool ok = true;

	while (n--)
		ok &= st_rl_quota_migrate(q, rp, t, t) == want;
	return ok;
}

/*
 * Patch 2/2 step by step: quota 10 per 2 ms, halved when used up (10, 5,
 * 2, 1), one back per window below quota; and its quirk at 1.
 */
static void test_ratelimit_adaptive(void)
{
	struct st_rl_params rp;
	struct st_rl_quota q;
	u64 t = 1000 * MS;
	bool ok;

	st_rl_params_init(&rp, 2 * MS, 1);
	st_rl_params_adaptive(&rp, true, st_knobs[ST_KNOB_RL_QUOTA].def,
			      st_knobs[ST_KNOB_RL_QUOTA_REPLENISH].def);
	ktap_check(rp.quota == 10 && rp.replenish == 1 &&
		   st_knobs[ST_KNOB_RL_MODE].def == ST_RL_MODE_FIXED,
		   "adaptive: defaults are the patch's 10 and 1, mode fixed");

	st_rl_quota_init(&q, &rp);
	ktap_check(!st_rl_quota_limited(&rp, &q, t),
		   "adaptive: a new task is not limited");
	/* the first migration opens a window: the full quota stays full */
	ok = migrate_n(&q, &rp, 1, t, ST_RL_STAMPED);
	ktap_check(ok && q.tat == t + 2 * MS && q.used == 1 && q.quota == 10,
		   "adaptive: first migration opens a 2 ms window, used 1 of 10");
	ok = migrate_n(&q, &rp, 8, t + MS, ST_RL_STAMPED);
	ktap_check(ok && q.used == 9 && !st_rl_quota_limited(&rp, &q, t + MS),
		   "adaptive: 9 of 10 used: still free to migrate");
	ok = migrate_n(&q, &rp, 1, t + MS, ST_RL_STAMPED);
	ktap_check(ok && q.used == 10 && st_rl_quota_limited(&rp, &q, t + MS) &&
		   st_rl_quota_limited(&rp, &q, t + 2 * MS) &&
		   !st_rl_quota_limited(&rp, &q, t + 2 * MS + 1),
		   "adaptive: 10 of 10 used: limited to the window's end, free after (now > next_migration_time)");
	/* migrations the limit cannot veto still count */
	ok = migrate_n(&q, &rp, 5, t + MS, ST_RL_STAMPED);
	ktap_check(ok && q.used == 15 && q.tat == t + 2 * MS,
		   "adaptive: load-balancing migrations in the window count, the window stays");

	t += 2 * MS;
	ok = migrate_n(&q, &rp, 1, t, ST_RL_HALVED);
	ktap_check(ok && q.quota == 5 && q.used == 1 && q.tat == t + 2 * MS,
		   "adaptive: window used up -> next opens with quota 5");
	ok = migrate_n(&q, &rp, 4, t, ST_RL_STAMPED);
	ktap_check(ok && st_rl_quota_limited(&rp, &q, t + 1),
		   "adaptive: 5 of 5 used: limited");
	t += 3 * MS;
	ok = migrate_n(&q, &rp, 1, t, ST_RL_HALVED) &&
	     migrate_n(&q, &rp, 1, t, ST_RL_STAMPED);
	ktap_check(ok && q.quota == 2 && st_rl_quota_limited(&rp, &q, t),
		   "adaptive: used up again -> quota 2 (5 >> 1), used at once");
	t += 3 * MS;
	ok = migrate_n(&q, &rp, 1, t, ST_RL_HALVED);
	ktap_check(ok && q.quota == 1 && st_rl_quota_limited(&rp, &q, t),
		   "adaptive: used up again -> quota 1, the opening migration uses it");
	t += 3 * MS;
	ok = migrate_n(&q, &rp, 1, t, ST_RL_STAMPED);
	ktap_check(ok && q.quota == 1,
		   "adaptive: at 1 a used-up window halves no further (down to 1)");
	/*
	 * The patch's quirk: the migration that opens a window counts in it,
	 * so at quota 1 every window is used up and nothing comes back.
	 */
	for (ok = true; t < 1100 * MS; t += 3 * MS)
		ok &= migrate_n(&q, &rp, 1, t, ST_RL_STAMPED) && q.quota == 1;
	ktap_check(ok,
		   "adaptive: at quota 1, one migration per window never recovers (as in the patch)");

	/* recovery: from 2, a window with one migration gives one back */
	q.quota = 2;
	q.used = 1;
	ok = true;
	for (int want = 3; want <= 10; want++) {
		t += 3 * MS;
		ok &= migrate_n(&q, &rp, 1, t, ST_RL_REPLENISHED) &&
		      q.quota == want && !st_rl_quota_limited(&rp, &q, t);
	}
	ktap_check(ok,
		   "adaptive: from 2, each window with one migration gives one back: 3, 4, ..., 10");
	t += 3 * MS;
	ok = migrate_n(&q, &rp, 1, t, ST_RL_STAMPED);
	ktap_check(ok && q.quota == 10, "adaptive: never above the quota knob");
	/* idle windows give nothing: only the window that ended counts */
	q.quota = 5;
	q.used = 1;
	t += 1000 * MS;
	ok = migrate_n(&q, &rp, 1, t, ST_RL_REPLENISHED);
	ktap_check(ok && q.quota == 6,
		   "adaptive: a second without migrations gives one back, not 500");

	st_rl_params_adaptive(&rp, true, 4, 3);
	q.quota = 1;
	q.used = 0;
	ok = migrate_n(&q, &rp, 1, t + 1000 * MS, ST_RL_REPLENISHED);
	ktap_check(ok && q.quota == 4,
		   "adaptive: replenish 3 with quota 4: 1 -> 4, capped");
	q.quota = 10;
	q.used = 0;
	ok = migrate_n(&q, &rp, 1, t + 2000 * MS, ST_RL_STAMPED);
	ktap_check(ok && q.quota == 4,
		   "adaptive: a quota above a lowered knob starts from the knob");
	q.used = ST_RL_USED_MAX;
	ok = migrate_n(&q, &rp, 1, t + 2000 * MS, ST_RL_STAMPED);
	ktap_check(ok && q.used == ST_RL_USED_MAX,
		   "adaptive: the count saturates at %u", ST_RL_USED_MAX);
	st_rl_params_init(&rp, 0, 1);
	ktap_check(!st_rl_quota_limited(&rp, &q, t),
		   "adaptive: window 0 never limits");

	/*
	 * An unstable sched clock: the old CPU's clock decides whether the
	 * window is over, and the window's end moves to the new CPU's.
	 */
	st_rl_params_init(&rp, 2 * MS, 1);
	st_rl_params_adaptive(&rp, true, 10, 1);
	st_rl_quota_init(&q, &rp);
	ok = st_rl_quota_migrate(&q, &rp, t, t + 50) == ST_RL_STAMPED &&
	     q.tat == t + 50 + 2 * MS;
	ok &= st_rl_quota_migrate(&q, &rp, t + MS, t + MS - 30) == ST_RL_STAMPED &&
	      q.tat == t + 20 + 2 * MS && q.used == 2;
	ok &= st_rl_quota_migrate(&q, &rp, t + 20 + 2 * MS - 1, t + 3 * MS) == ST_RL_STAMPED &&
	      q.used == 3;
	ktap_check(ok,
		   "adaptive, unstable clock: a window opens at the new CPU's clock, the old CPU's decides if it is over, a migration in it moves its end by the difference");
}

/*
 * record_wakee() and wake_wide() as in Debian's kernel/sched/fair.c
 * (6.1.192, 6.12.95, 7.3.4 alike), over a model task: what the module's
 * st_flips_after_record() and st_wake_wide() must reproduce.
 */
struct model_task {
	unsigned int wakee_flips;
	unsigned long wakee_flip_decay_ts;
	const struct model_task *last_wakee;
};

static void model_record_wakee(struct model_task *cur, const struct model_task *p,
			       unsigned long jiffies)
{
	if (jiffies > cur->wakee_flip_decay_ts + 250) {
		cur->wakee_flips >>= 1;
		cur->wakee_flip_decay_ts = jiffies;
	}
	if (cur->last_wakee != p) {
		cur->last_wakee = p;
		cur->wakee_flips++;
	}
}

static int model_wake_wide(const struct model_task *cur, const struct model_task *p,
			   int factor)
{
	unsigned int master = cur->wakee_flips;
	unsigned int slave = p->wakee_flips;

	if (master < slave) {
		unsigned int tmp = master;

		master = slave;
		slave = tmp;
	}
	if (slave < factor || master < slave * factor)
		return 0;
	return 1;
}

static void test_record_wakee(void)
{
	struct model_task tasks[12] = { 0 }, *cur = &tasks[0];
	unsigned long jiffies = 1000;
	int i, same = 1, wide = 0;

	/* a waker that wakes eleven wakees in turn, a second apart at times */
	for (i = 0; i < 4000; i++) {
		struct model_task *p = &tasks[1 + (i * 7) % 11];
		struct st_wakee_flips w = {
			.flips = cur->wakee_flips,
			.decay = jiffies > cur->wakee_flip_decay_ts + 250,
			.new_wakee = cur->last_wakee != p,
		};
		unsigned int flips = st_flips_after_record(&w);

		model_record_wakee(cur, p, jiffies);
		same &= flips == cur->wakee_flips;
		p->wakee_flips = (unsigned int)i % 40;
		same &= st_wake_wide(cur->wakee_flips, p->wakee_flips, 4) ==
			model_wake_wide(cur, p, 4);
		wide += model_wake_wide(cur, p, 4);
		jiffies += i % 97 ? 1 : 300;
	}
	ktap_check(same && wide > 0 && wide < 4000,
		   "record_wakee: st_flips_after_record() and st_wake_wide() follow fair.c's record_wakee() and wake_wide() over 4000 wakeups (%d wide)",
		   wide);
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

static int eas_calls;
static bool eas_off(void) { eas_calls++; return false; }
static bool eas_on(void) { eas_calls++; return true; }

/* Which wakeups reach the rate limit's test (WF_* of 6.12 and 7.3). */
static void test_rl_judged(void)
{
	const unsigned int ttwu = 0x08, sync = 0x10, fork = 0x04, cur = 0x40;

	ktap_check(st_rl_wakeup_judged(ttwu, ttwu, cur, eas_off) &&
		   st_rl_wakeup_judged(ttwu | sync, ttwu, cur, eas_off),
		   "judged: a wakeup, sync or not, reaches the rate limit's test");
	eas_calls = 0;
	ktap_check(!st_rl_wakeup_judged(fork, ttwu, cur, eas_off) && !eas_calls,
		   "judged: a fork or exec placement never (want_affine is set for wakeups only), EAS not even read");
	ktap_check(!st_rl_wakeup_judged(ttwu | cur, ttwu, cur, eas_off),
		   "judged: a WF_CURRENT_CPU wakeup is left to stock");
	ktap_check(!st_rl_wakeup_judged(ttwu, ttwu, cur, eas_on),
		   "judged: with energy-aware scheduling on, every wakeup is left to stock");
	ktap_check(st_rl_wakeup_judged(ttwu | 0x40, ttwu, 0, eas_off),
		   "judged: 6.1 (no WF_CURRENT_CPU) tests every wakeup");
}

int main(void)
{
	ktap_header(ARRAY_SIZE(cases) + 1 + ST_NR_KNOBS + 1 + 4 + 9 + 20 + 6 + 1 + 5);
	test_parse();
	test_parse_len();
	test_defaults();
	test_format();
	test_ratelimit();
	test_ratelimit_adaptive();
	test_wake_wide();
	test_record_wakee();
	test_rl_judged();
	return ktap_finish();
}
