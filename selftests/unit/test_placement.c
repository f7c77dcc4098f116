// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of prev_bias's decision (module/policy.c): SELECT_BIAS_PREV
 * and UTIL_FITS_CAPACITY judged on what stock chose, every input alone
 * and the whole truth table, and its knob; and of sync_short's (SIS_SYNC):
 * the average duration, is_short_task(), the decision and its knob.
 */
#include <string.h>

#include "../../module/policy.c"
#include "ktap.h"

static int parse(int id, const char *s, u64 *v)
{
	return st_knob_parse(&st_knobs[id], s, strlen(s), v);
}

/* The verdict written out from the patch's two tests, for the table. */
static enum st_prev_bias_verdict expect(unsigned int bits)
{
	bool new_is_prev = bits & 1, share = bits & 2, allowed = bits & 4;
	bool prev_idle = bits & 8, prev_fits = bits & 16, new_idle = bits & 32;

	if (new_is_prev || !share || !allowed)
		return ST_PB_STOCK;
	if (prev_idle || prev_fits)
		return ST_PB_KEEP_ROOM;
	return new_idle ? ST_PB_STOCK : ST_PB_KEEP_BUSY;
}

/* SIS_SYNC's conditions, written out, for the table */
static bool ss_expect(unsigned int bits)
{
	bool sync = bits & 1, waker = bits & 2, wakee = bits & 4;
	bool idle_core = bits & 8, new_is_waker = bits & 16;
	bool allowed = bits & 32, share = bits & 64, idle_prev = bits & 128;

	if (!sync || !waker || !wakee || idle_core)
		return false;
	return !new_is_waker && allowed && share && !idle_prev;
}

static struct st_sync_short_in ss_in(unsigned int bits)
{
	struct st_sync_short_in in = {
		.sync = bits & 1, .waker_short = bits & 2,
		.wakee_short = bits & 4, .idle_core = bits & 8,
		.new_is_waker = bits & 16, .waker_allowed = bits & 32,
		.share_cache = bits & 64, .new_is_idle_prev = bits & 128,
	};
	return in;
}

static void test_sync_short(void)
{
	/* sync, both short, no idle core, allowed, shared cache */
	const unsigned int yes = 1 | 2 | 4 | 32 | 64;
	struct st_sync_short_in in;
	unsigned int bits, bad = 0;
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
	ktap_check(!st_task_short(0, 500000),
		   "is_short_task: no duration recorded is not short");
	ktap_check(st_task_short(62499, 500000) && !st_task_short(62500, 500000),
		   "is_short_task: under 1/8 of the migration cost (62499 ns short, 62500 not, at 500 us)");
	ktap_check(!st_task_short(1, 0),
		   "is_short_task: nothing is short under a migration cost of 0");

	in = ss_in(yes);
	ktap_check(st_sync_short_decide(&in),
		   "sync_short: a sync wakeup of two short tasks, no idle core, goes to the waker's CPU");
	for (i = 0; i < 8; i++) {
		static const char *const what[] = {
			"not a sync wakeup", "a long waker", "a long wakee",
			"an idle core", "stock chose the waker's CPU already",
			"the waker's CPU not allowed", "a choice outside the waker's LLC",
			"stock chose the idle previous CPU",
		};
		unsigned int b = 1U << i;

		in = ss_in(b & (8 | 16 | 128) ? yes | b : yes & ~b);
		ktap_check(!st_sync_short_decide(&in),
			   "sync_short: stock stands for %s", what[i]);
	}
	for (bits = 0; bits < 256; bits++) {
		in = ss_in(bits);
		if (st_sync_short_decide(&in) != ss_expect(bits))
			bad++;
	}
	ktap_check(!bad, "sync_short: all 256 inputs as SIS_SYNC has them (%u differ)", bad);

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
	struct st_prev_bias_in in = {
		.share_cache = true, .prev_allowed = true, .new_idle = true,
	};
	unsigned int bits, bad = 0;
	u64 v;

	ktap_header(39);

	/* fits_capacity(): 80% of the capacity, strictly below */
	ktap_check(st_util_fits_capacity(400, 418, 1024),
		   "fits: 818 of 1024 is under 80%%");
	ktap_check(!st_util_fits_capacity(400, 420, 1024),
		   "fits: 820 of 1024 is not (819.2 is the line)");
	ktap_check(!st_util_fits_capacity(0, 0, 0),
		   "fits: nothing fits a CPU of no capacity");
	ktap_check(st_util_fits_capacity(0, 0, 1),
		   "fits: an idle-util task fits any capacity");

	/* each input alone, from "stock moved the task to an idle CPU" */
	ktap_check(st_prev_bias_decide(&in) == ST_PB_STOCK,
		   "prev busy and full, stock found an idle CPU: stock");
	in.prev_idle = true;
	ktap_check(st_prev_bias_decide(&in) == ST_PB_KEEP_ROOM,
		   "prev idle: keep prev over the idle CPU stock found");
	in.prev_idle = false;
	in.prev_fits = true;
	ktap_check(st_prev_bias_decide(&in) == ST_PB_KEEP_ROOM,
		   "prev busy but the task fits: keep prev");
	in.prev_fits = false;
	in.new_idle = false;
	ktap_check(st_prev_bias_decide(&in) == ST_PB_KEEP_BUSY,
		   "every CPU busy (stock settled for a busy target): keep prev");
	in.share_cache = false;
	ktap_check(st_prev_bias_decide(&in) == ST_PB_STOCK,
		   "prev in another LLC: stock");
	in.share_cache = true;
	in.prev_allowed = false;
	ktap_check(st_prev_bias_decide(&in) == ST_PB_STOCK,
		   "prev not allowed by the task's affinity: stock");
	in.prev_allowed = true;
	in.new_is_prev = true;
	ktap_check(st_prev_bias_decide(&in) == ST_PB_STOCK,
		   "stock chose prev: nothing to decide");

	for (bits = 0; bits < 64; bits++) {
		struct st_prev_bias_in t = {
			.new_is_prev = bits & 1, .share_cache = bits & 2,
			.prev_allowed = bits & 4, .prev_idle = bits & 8,
			.prev_fits = bits & 16, .new_idle = bits & 32,
		};

		if (st_prev_bias_decide(&t) != expect(bits))
			bad++;
	}
	ktap_check(!bad, "all 64 combinations as the patch's tests say (%u differ)", bad);

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
