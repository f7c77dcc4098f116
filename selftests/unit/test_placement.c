// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of prev_bias's and sync_short's decisions (module/policy/):
 * wake_affine() as fair.c computes it, and each feature judged against
 * its patch in simulated wakeups.  A world of 8 CPUs (two LLCs of two
 * SMT cores) gives each CPU its state; stock's select_idle_sibling() and
 * the patched one are written out here from the kernel's and the
 * patch's code, and the module's verdict, given stock's result and the
 * facts it asks for, must place the task where the patch does.
 */
#include <stdlib.h>
#include <string.h>

#include "policy/knob.c"
#include "policy/wake.c"
#include "policy/prev_bias.c"
#include "policy/sync_short.h"
#include "ktap.h"

static int parse(int id, const char *s, u64 *v)
{
	return st_knob_parse(&st_knobs[id], s, strlen(s), v);
}

#define NR 8

/* the CPUs' state in one wakeup */
struct world {
	bool idle[NR];		/* available_idle_cpu() || sched_idle_cpu() */
	bool room[NR];		/* the task fits what is left there */
	bool allowed[NR];	/* p->cpus_ptr */
	int cpu, prev, target, recent;
	bool kthread;		/* a per-CPU kthread alone on prev wakes p */
	bool overloaded;	/* SIS_UTIL: select_idle_cpu() scans nothing */
	/* sync_short */
	bool sync, waker_short, wakee_short, mutual, waker_alone;
};

static bool llc(int a, int b)
{
	return a / 4 == b / 4;
}

static int sibling(int cpu)
{
	return cpu ^ 1;
}

static bool has_idle_core(const struct world *w, int t)
{
	int c;

	for (c = t / 4 * 4; c < t / 4 * 4 + 4; c += 2)
		if (w->idle[c] && w->idle[c + 1])
			return true;
	return false;
}

/* select_idle_cpu(): the first idle allowed CPU (core) after t, or -1 */
static int scan(const struct world *w, int t, bool idle_core)
{
	int i, c;

	if (w->overloaded)
		return -1;
	for (i = 1; i <= 4; i++) {
		c = t / 4 * 4 + (t % 4 + i) % 4;
		if (!w->allowed[c] || !w->idle[c])
			continue;
		if (!idle_core || w->idle[sibling(c)])
			return c;
	}
	return -1;
}

/*
 * select_idle_sibling(p, prev, target) of 6.1/6.12/7.3 without clusters
 * or asymmetric capacity; @patch: with SELECT_BIAS_PREV and
 * UTIL_FITS_CAPACITY; @sis_sync: with SIS_SYNC.
 */
static int sis(const struct world *w, bool patch, bool sis_sync)
{
	int p = w->prev, t = w->target, r = w->recent, i;
	bool idle_core;

	if (patch && (p == t || llc(p, t)) && (w->idle[p] || w->room[p]))
		return p;
	if (w->idle[t] || (patch && w->room[t]))
		return t;
	if (!patch && p != t && llc(p, t) && w->idle[p])
		return p;
	if (w->kthread && p == w->cpu)
		return p;
	if (r != p && r != t && llc(r, t) &&
	    (w->idle[r] || (patch && w->room[r])) && w->allowed[r])
		return r;
	idle_core = has_idle_core(w, t);
	if (!idle_core && llc(p, t) &&
	    w->allowed[sibling(p)] && w->idle[sibling(p)])
		return sibling(p);
	if (sis_sync && !w->overloaded && t == w->cpu && !idle_core &&
	    w->sync && w->waker_alone && w->waker_short && w->wakee_short &&
	    w->mutual)
		return t;
	i = scan(w, t, idle_core);
	if (i >= 0)
		return i;
	if (patch && p != t && llc(p, t))
		return p;
	return t;
}

static unsigned int rnd(unsigned int *s)
{
	*s = *s * 1103515245 + 12345;
	return *s >> 16;
}

static void world_make(struct world *w, unsigned int *seed)
{
	int c;

	for (c = 0; c < NR; c++) {
		w->idle[c] = rnd(seed) % 3 == 0;
		w->room[c] = w->idle[c] || rnd(seed) % 3 == 0;
		w->allowed[c] = rnd(seed) % 8 != 0;
	}
	w->cpu = rnd(seed) % NR;
	/* the waker runs: its CPU is idle only for a wakeup from an interrupt */
	w->idle[w->cpu] = rnd(seed) % 8 == 0;
	w->prev = rnd(seed) % 3 ? rnd(seed) % NR : w->cpu;
	w->target = rnd(seed) % 2 ? w->cpu : w->prev;
	w->allowed[w->cpu] |= w->target == w->cpu;
	w->recent = rnd(seed) % 3 ? rnd(seed) % NR : w->prev;
	w->kthread = !w->idle[w->cpu] && rnd(seed) % 8 == 0;
	w->overloaded = rnd(seed) % 8 == 0;
	w->sync = rnd(seed) % 4;
	w->waker_short = rnd(seed) % 4;
	w->wakee_short = rnd(seed) % 4;
	w->mutual = rnd(seed) % 4;
	w->waker_alone = rnd(seed) % 4;
}

/* T as prev_bias.c and sync_short.h find it; the world's when asked */
static int module_target(const struct world *w, int new)
{
	int t = st_target_from_llc(w->cpu, w->prev, llc(w->cpu, new),
				   llc(w->prev, new));

	return t < 0 ? w->target : t;
}

/* prev_bias.c's st_prev_bias_select(), on the world's facts */
static int module_prev_bias(const struct world *w, int new, int *asked)
{
	struct st_prev_bias_in in = {
		.new_is_prev = new == w->prev,
		.share_prev = llc(w->prev, new),
		.kthread_stack = w->kthread && w->prev == w->cpu,
		.recent_ok = w->recent != w->prev && llc(w->recent, new) &&
			     w->allowed[w->recent],
		.recent_is_new = w->recent == new,
	};
	int v, f, t = -1;

	if (st_prev_bias_stock_kept(w->prev, new, w->recent, llc(w->recent, new)))
		return new;
	while ((v = st_prev_bias_decide(&in)) < 0) {
		f = -1 - v;
		if (in.known & (1U << f))
			return -2;	/* asked twice: would loop */
		(*asked)++;
		switch (f) {
		case ST_PB_F_PREV_ROOM:
			in.prev_room = w->idle[w->prev] || w->room[w->prev];
			break;
		case ST_PB_F_TARGET:
			t = module_target(w, new);
			in.target_apart = t != w->prev;
			in.new_is_target = t == new;
			in.recent_is_target = t == w->recent;
			break;
		case ST_PB_F_TARGET_ROOM:
			in.target_room = w->idle[t] || w->room[t];
			break;
		case ST_PB_F_RECENT_ROOM:
			in.recent_room = w->idle[w->recent] || w->room[w->recent];
			break;
		case ST_PB_F_NEW_IDLE:
			in.new_idle = w->idle[new];
			break;
		}
		in.known |= 1U << f;
	}
	switch (v) {
	case ST_PB_STOCK:
		return new;
	case ST_PB_TARGET_ROOM:
		return t;
	case ST_PB_RECENT_ROOM:
		return w->recent;
	default:
		return w->prev;
	}
}

/* sync_short.h's st_sync_short_pre() and st_sync_short_select() */
static int module_sync_short(const struct world *w, int new)
{
	struct st_sync_short_in in = {
		.sync = w->sync, .waker_short = w->waker_short,
		.wakee_short = w->wakee_short, .mutual = w->mutual,
		.waker_alone = w->waker_alone,
		.idle_core = has_idle_core(w, w->cpu), .target_is_waker = true,
	};
	int t;

	if (!st_sync_short_decide(&in) || new == w->cpu)
		return new;
	t = module_target(w, new);
	in.target_is_waker = t == w->cpu;
	in.new_is_target = new == t;
	in.new_early = new == w->prev ||
		       (new == w->recent && w->recent != w->cpu) ||
		       (llc(w->prev, w->cpu) && new == sibling(w->prev));
	return st_sync_short_decide(&in) ? w->cpu : new;
}

#define WORLDS 400000

static void test_prev_bias_worlds(void)
{
	unsigned int seed = 1, bad = 0, moved = 0, asked = 0, n;
	unsigned int by[ST_PB_NR_VERDICTS] = { 0 };
	struct world w;
	int stock, want, got;

	for (n = 0; n < WORLDS; n++) {
		world_make(&w, &seed);
		stock = sis(&w, false, false);
		want = sis(&w, true, false);
		got = module_prev_bias(&w, stock, (int *)&asked);
		if (got != want && bad++ < 5)
			ktap_diag("cpu %d prev %d target %d recent %d: stock %d, patch %d, module %d",
				  w.cpu, w.prev, w.target, w.recent, stock, want, got);
		moved += want != stock;
		if (want == w.prev && stock != w.prev)
			by[llc(w.prev, stock) && w.idle[stock] ?
			   ST_PB_KEEP_ROOM : ST_PB_KEEP_BUSY]++;
		else if (want != stock && want == w.target)
			by[ST_PB_TARGET_ROOM]++;
		else if (want != stock)
			by[ST_PB_RECENT_ROOM]++;
	}
	ktap_diag("%u worlds: the patch moves %u from stock's choice (prev over an idle CPU %u, prev over a busy target %u, target %u, recent %u); %u facts asked",
		  WORLDS, moved, by[ST_PB_KEEP_ROOM], by[ST_PB_KEEP_BUSY],
		  by[ST_PB_TARGET_ROOM], by[ST_PB_RECENT_ROOM], asked);
	ktap_check(!bad,
		   "prev_bias: in %u simulated wakeups the module places the task where SELECT_BIAS_PREV with UTIL_FITS_CAPACITY does (%u differ)",
		   WORLDS, bad);
	ktap_check(by[ST_PB_KEEP_ROOM] && by[ST_PB_KEEP_BUSY] &&
		   by[ST_PB_TARGET_ROOM] && by[ST_PB_RECENT_ROOM],
		   "prev_bias: the worlds exercise each half: prev with room, prev when all busy, the target with room, recent_used_cpu with room");
}

static void test_sync_short_worlds(void)
{
	unsigned int seed = 7, bad = 0, moved = 0, n;
	struct world w;
	int stock, want, got;

	for (n = 0; n < WORLDS; n++) {
		world_make(&w, &seed);
		stock = sis(&w, false, false);
		want = sis(&w, false, true);
		got = module_sync_short(&w, stock);
		if (got != want && bad++ < 5)
			ktap_diag("cpu %d prev %d target %d recent %d: stock %d, SIS_SYNC %d, module %d",
				  w.cpu, w.prev, w.target, w.recent, stock, want, got);
		moved += want != stock;
	}
	ktap_diag("%u worlds: SIS_SYNC moves %u from stock's choice", WORLDS, moved);
	ktap_check(!bad && moved,
		   "sync_short: in %u simulated wakeups the module places the task where SIS_SYNC does (%u differ, %u moved)",
		   WORLDS, bad, moved);
}

static void test_wake_affine(void)
{
	struct st_affine_idle_in i = { .this_idle = true, .share_cache = true };
	struct st_affine_weight_in w = {
		.this_load = 1024, .prev_load = 2048, .task_load = 100,
		.this_cap = 1024, .prev_cap = 1024, .imbalance_pct = 117,
		.bias = true,
	};

	ktap_check(st_wake_affine_idle(&i) == ST_AFFINE_THIS,
		   "wake_affine_idle: this idle, cache shared, prev busy: this");
	i.prev_idle = true;
	ktap_check(st_wake_affine_idle(&i) == ST_AFFINE_PREV,
		   "wake_affine_idle: both idle, cache shared: prev");
	i = (struct st_affine_idle_in){ .sync = true, .this_nr = 1 };
	ktap_check(st_wake_affine_idle(&i) == ST_AFFINE_THIS,
		   "wake_affine_idle: sync with the waker alone: this");
	i.this_nr = 2;
	ktap_check(st_wake_affine_idle(&i) == ST_AFFINE_NONE,
		   "wake_affine_idle: sync with two runnable, prev busy: undecided");
	i.prev_idle = true;
	ktap_check(st_wake_affine_idle(&i) == ST_AFFINE_PREV,
		   "wake_affine_idle: prev idle: prev");
	i = (struct st_affine_idle_in){ .this_idle = true, .prev_idle = true };
	ktap_check(st_wake_affine_idle(&i) == ST_AFFINE_PREV,
		   "wake_affine_idle: this idle in another LLC: prev idle decides");

	/* (1024 + 100) * 100 * 1024 < (2048 - 100) * 108 * 1024 */
	ktap_check(st_wake_affine_weight(&w),
		   "wake_affine_weight: the lighter waker's CPU wins");
	w.prev_load = 1100;
	/* 112400 against (1000) * 108 = 108000: prev */
	ktap_check(!st_wake_affine_weight(&w),
		   "wake_affine_weight: within the imbalance bias, prev keeps it");
	w.bias = false;
	/* 1124 against 1000 without the bias: still prev */
	ktap_check(!st_wake_affine_weight(&w),
		   "wake_affine_weight: WA_BIAS off, 1124 against 1000: prev");
	w.sync = true;
	w.current_load = 2000;
	ktap_check(st_wake_affine_weight(&w),
		   "wake_affine_weight: sync, the waker heavier than its CPU's load: this");
	w.current_load = 200;
	/* (1024 - 200 + 100) = 924 against 1000 + 1: this */
	ktap_check(st_wake_affine_weight(&w),
		   "wake_affine_weight: sync, the waker's load taken off its CPU: this");
	w = (struct st_affine_weight_in){ .this_load = 100, .prev_load = 100,
					  .this_cap = 1024, .prev_cap = 1024,
					  .imbalance_pct = 117, .sync = true };
	ktap_check(st_wake_affine_weight(&w),
		   "wake_affine_weight: sync, equal loads: the +1 stacks on the waker");
}

static void test_sync_short(void)
{
	struct st_sync_short_in yes = {
		.sync = true, .waker_short = true, .wakee_short = true,
		.mutual = true, .waker_alone = true, .target_is_waker = true,
	}, in;
	u64 avg = 0, v;
	int i;

	ktap_check(st_dur_avg_update(0, 800) == 100,
		   "dur_avg: a first sample of 800 ns from 0 gives 100 (1/8)");
	ktap_check(st_dur_avg_update(1000, 200) == 900,
		   "dur_avg: a shorter sample pulls it down (1000, 200: 900)");
	for (i = 0; i < 100; i++)
		avg = st_dur_avg_update(avg, 40000);
	ktap_check(avg > 39900 && avg <= 40000,
		   "dur_avg: 100 samples of 40 us settle at 40 us (got %llu)",
		   (unsigned long long)avg);
	/* the patch's table at the default 500 us */
	ktap_check(st_sis_sync_short(487, 500000, 8) &&
		   !st_sis_sync_short(489, 500000, 8),
		   "short_task: 0.5 us at 8 CPUs per LLC (487 ns short, 489 not)");
	ktap_check(st_sis_sync_short(31249, 500000, 64) &&
		   !st_sis_sync_short(31250, 500000, 64),
		   "short_task: 31 us at 64 CPUs per LLC");
	ktap_check(st_sis_sync_short(499999, 500000, 256) &&
		   !st_sis_sync_short(500000, 500000, 256),
		   "short_task: 500 us at 256 CPUs per LLC");
	ktap_check(st_sis_sync_short(7, 500000, 1) && !st_sis_sync_short(8, 500000, 1) &&
		   st_sis_sync_short(122, 500000, 4) && !st_sis_sync_short(123, 500000, 4),
		   "short_task: under 8 ns at 1 CPU per LLC, under 123 ns at 4");
	ktap_check(!st_sis_sync_short(0, 500000, 256),
		   "short_task: a task with no recorded duration is not short");

	ktap_check(st_sync_short_decide(&yes),
		   "sync_short: a mutual sync wakeup of two short tasks, the waker alone on the target, no idle core: the target");
	for (i = 0; i < 9; i++) {
		static const char *const what[] = {
			"not a sync wakeup", "a long waker", "a long wakee",
			"no mutual wakeup", "the waker not alone on its CPU",
			"an idle core", "a target other than the waker's CPU",
			"stock returned the target", "an earlier return of stock",
		};

		in = yes;
		switch (i) {
		case 0:
			in.sync = false;
			break;
		case 1:
			in.waker_short = false;
			break;
		case 2:
			in.wakee_short = false;
			break;
		case 3:
			in.mutual = false;
			break;
		case 4:
			in.waker_alone = false;
			break;
		case 5:
			in.idle_core = true;
			break;
		case 6:
			in.target_is_waker = false;
			break;
		case 7:
			in.new_is_target = true;
			break;
		default:
			in.new_early = true;
			break;
		}
		ktap_check(!st_sync_short_decide(&in),
			   "sync_short: stock stands for %s", what[i]);
	}

	ktap_check(st_knobs[ST_KNOB_SYNC_SHORT].def == 0 &&
		   st_knobs[ST_KNOB_SYNC_SHORT].has_stock &&
		   st_knobs[ST_KNOB_SYNC_SHORT].stock == 0,
		   "sync_short: default 0, which is stock");
	ktap_check(!parse(ST_KNOB_SYNC_SHORT, "1\n", &v) && v == 1,
		   "sync_short: 1 accepted");
	ktap_check(parse(ST_KNOB_SYNC_SHORT, "2", &v) == -ERANGE,
		   "sync_short: 2 is out of range");
	ktap_check(parse(ST_KNOB_SYNC_SHORT, "yes", &v) == -EINVAL,
		   "sync_short: a word is no value");
	ktap_check(st_knob_lookup("sync_short") == ST_KNOB_SYNC_SHORT,
		   "sync_short: found by name");
	ktap_check(st_knobs[ST_KNOB_SYNC_SHORT].feature == ST_FEAT_SYNC_SHORT,
		   "sync_short: its knob belongs to its feature");
}

int main(void)
{
	u64 v;

	ktap_header(49);

	/* fits_capacity(): 80% of the capacity, strictly below */
	ktap_check(st_util_fits_capacity(400, 418, 1024),
		   "fits: 818 of 1024 is under 80%%");
	ktap_check(!st_util_fits_capacity(400, 420, 1024),
		   "fits: 820 of 1024 is not (819.2 is the line)");
	ktap_check(!st_util_fits_capacity(0, 0, 0),
		   "fits: nothing fits a CPU of no capacity");
	ktap_check(st_util_fits_capacity(0, 0, 1),
		   "fits: an idle-util task fits any capacity");

	ktap_check(st_target_from_llc(3, 3, true, true) == 3 &&
		   st_target_from_llc(1, 5, false, true) == 5 &&
		   st_target_from_llc(1, 5, true, false) == 1 &&
		   st_target_from_llc(1, 2, true, true) == -1,
		   "target: prev when it is the waker's CPU or the waker's LLC lacks stock's choice, the waker's CPU when prev's does, else unknown");
	test_wake_affine();
	test_prev_bias_worlds();
	test_sync_short_worlds();

	/* the knob: 0|1, stock 0, off by default */
	ktap_check(st_knobs[ST_KNOB_PREV_BIAS].def == 0 &&
		   st_knobs[ST_KNOB_PREV_BIAS].has_stock &&
		   st_knobs[ST_KNOB_PREV_BIAS].stock == 0,
		   "prev_bias: default 0, which is stock");
	ktap_check(!parse(ST_KNOB_PREV_BIAS, "1\n", &v) && v == 1,
		   "prev_bias: 1 accepted");
	ktap_check(parse(ST_KNOB_PREV_BIAS, "2", &v) == -ERANGE,
		   "prev_bias: 2 is out of range");
	ktap_check(parse(ST_KNOB_PREV_BIAS, "on", &v) == -EINVAL,
		   "prev_bias: a word is no value");
	ktap_check(st_knob_lookup("prev_bias") == ST_KNOB_PREV_BIAS,
		   "prev_bias: found by name");
	test_sync_short();
	return ktap_finish();
}
