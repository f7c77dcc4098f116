// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of prev_bias's decision (module/policy.c): SELECT_BIAS_PREV
 * and UTIL_FITS_CAPACITY judged on what stock chose, every input alone
 * and the whole truth table, and its knob.
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

int main(void)
{
	struct st_prev_bias_in in = {
		.share_cache = true, .prev_allowed = true, .new_idle = true,
	};
	unsigned int bits, bad = 0;
	u64 v;

	ktap_header(17);

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
	return ktap_finish();
}
