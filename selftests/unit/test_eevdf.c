// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the EEVDF slice policy (module/policy/eevdf.c): the
 * slice each mode gives for a runnable count and its bounds, the deadline of the
 * new request, and the knobs that set them.
 */
#include <string.h>

#include "policy/knob.c"
#include "policy/eevdf.c"
#include "ktap.h"

#define MS 1000000ULL
#define BASE (3 * MS)	/* 6.12's base_slice_ns on a machine of 8+ CPUs */

static int parse(int id, const char *s, u64 *v)
{
	return st_knob_parse(&st_knobs[id], s, strlen(s), v);
}

#define NICE0 BIT_ULL(ST_NICE_0_LOAD_SHIFT)

/* calc_delta_fair(): @ns of run time in the virtual time of weight @w */
static u64 vt(u64 ns, u64 w)
{
	return (u64)((__uint128_t)ns * NICE0 / w);
}

/* an entity at vruntime @v with @left ns of its request left, weight @w */
static struct st_ev_request req(u64 v, s64 left, u64 w, u64 sum)
{
	struct st_ev_request r = { .vruntime = v, .weight = w, .sum_exec = sum };

	r.deadline = left >= 0 ? v + vt(left, w) : v - vt(-left, w);
	return r;
}

/*
 * What the tick does to @r: runs it @ran ns (update_curr()), renews it
 * with @slice if used up (update_deadline()) when @renew, then reweights
 * it to @w1 around @avg (reweight_eevdf(): d' - v' = (d - v) * w / w').
 */
static struct st_ev_request tick(struct st_ev_request r, u64 ran, u64 slice,
				 u64 w1, u64 avg)
{
	r.vruntime += vt(ran, r.weight);
	r.sum_exec += ran;
	if ((s64)(r.vruntime - r.deadline) >= 0)
		r.deadline = r.vruntime + vt(slice, r.weight);
	if (w1 != r.weight) {
		s64 lag = (s64)(avg - r.vruntime), dl = (s64)(r.deadline - avg);

		lag = (s64)((__int128)lag * (s64)r.weight / (s64)w1);
		dl = (s64)((__int128)dl * (s64)r.weight / (s64)w1);
		r.vruntime = avg - lag;
		r.deadline = avg + dl;
		r.weight = w1;
	}
	return r;
}

/* st_eevdf_renewed() across one tick() */
static bool renewed(struct st_ev_request r, u64 ran, u64 slice, u64 w1, u64 avg)
{
	struct st_ev_request after = tick(r, ran, slice, w1, avg);

	return st_eevdf_renewed(&r, &after, slice);
}

int main(void)
{
	unsigned int nr, bad = 0;
	struct st_ev_request r;
	u64 v, vr, dl;

	ktap_header(42);

	/* stock and fixed do not look at the competition */
	ktap_check(st_eevdf_slice(ST_SLICE_STOCK, BASE, 12 * MS, 24 * MS, 2) == BASE,
		   "stock: the kernel's base slice");
	ktap_check(st_eevdf_slice(ST_SLICE_STOCK, BASE, 12 * MS, 24 * MS, 50) == BASE,
		   "stock: whatever the runnable count");
	ktap_check(st_eevdf_slice(ST_SLICE_FIXED, BASE, 12 * MS, 24 * MS, 2) == 12 * MS,
		   "fixed: the seed's 12 ms");
	ktap_check(st_eevdf_slice(ST_SLICE_FIXED, BASE, 12 * MS, 24 * MS, 1000) == 12 * MS,
		   "fixed: 12 ms with 1000 runnable");
	ktap_check(st_eevdf_slice(ST_SLICE_FIXED, BASE, ST_EEVDF_SLICE_MIN_NS, 24 * MS, 2) ==
		   ST_EEVDF_SLICE_MIN_NS, "fixed: below the base slice if asked");

	/* scaled: latency / nr, CFS's two tasks at 24 ms get 12 ms each */
	ktap_check(st_eevdf_slice(ST_SLICE_SCALED, BASE, 0, 24 * MS, 2) == 12 * MS,
		   "scaled: two runnable, 24 ms latency -> 12 ms (the seed's CFS figure)");
	ktap_check(st_eevdf_slice(ST_SLICE_SCALED, BASE, 0, 24 * MS, 3) == 8 * MS,
		   "scaled: three runnable -> 8 ms");
	ktap_check(st_eevdf_slice(ST_SLICE_SCALED, BASE, 0, 24 * MS, 8) == BASE,
		   "scaled: eight runnable -> 3 ms, the base slice");
	ktap_check(st_eevdf_slice(ST_SLICE_SCALED, BASE, 0, 24 * MS, 100) == BASE,
		   "scaled: never below the base slice (100 runnable)");
	ktap_check(st_eevdf_slice(ST_SLICE_SCALED, BASE, 0, 24 * MS, 1) == 24 * MS,
		   "scaled: alone, the whole latency");
	ktap_check(st_eevdf_slice(ST_SLICE_SCALED, BASE, 0, 24 * MS, 0) == 24 * MS,
		   "scaled: a count of 0 (racy read) counts as 1, no division by 0");
	ktap_check(st_eevdf_slice(ST_SLICE_SCALED, BASE, 0, 1000 * MS, 2) ==
		   ST_EEVDF_SLICE_MAX_NS, "scaled: capped at 100 ms");
	ktap_check(st_eevdf_slice(ST_SLICE_SCALED, 150 * MS, 0, 1000 * MS, 2) == 150 * MS,
		   "scaled: a base slice over the cap wins (never below stock)");
	ktap_check(st_eevdf_slice(ST_SLICE_SCALED, 150 * MS, 0, 24 * MS, 2) == 150 * MS,
		   "scaled: a large base slice is the floor");
	for (nr = 1; nr < 5000; nr++) {
		u64 s = st_eevdf_slice(ST_SLICE_SCALED, BASE, 0, 24 * MS, nr);
		u64 p = st_eevdf_slice(ST_SLICE_SCALED, BASE, 0, 24 * MS, nr - 1 ? nr - 1 : 1);

		if (s < BASE || s > ST_EEVDF_SLICE_MAX_NS || s > p)
			bad++;
	}
	ktap_check(!bad,
		   "scaled: within [base, 100 ms] and never growing with the count (1..4999)");

	/* the deadline: vd = ve + r/w, the virtual length scales with r */
	vr = 1000 * MS;
	dl = vr + BASE;			/* nice 0: virtual = real */
	ktap_check(st_eevdf_deadline(vr, dl, BASE, 12 * MS) == vr + 12 * MS,
		   "deadline: nice 0, 3 ms -> 12 ms request");
	dl = vr + BASE * 1024 / 3121;	/* nice -5's weight */
	v = st_eevdf_deadline(vr, dl, BASE, 12 * MS);
	ktap_check(v - vr == (BASE * 1024 / 3121) * 4,
		   "deadline: nice -5 keeps its weight: 4x the virtual length");
	ktap_check(st_eevdf_deadline(vr, vr + 12 * MS, 12 * MS, BASE) == vr + BASE,
		   "deadline: shrinking back to the base slice");
	ktap_check(st_eevdf_deadline(vr, vr - 5, BASE, 12 * MS) == vr - 5,
		   "deadline: a deadline behind vruntime is left alone");
	ktap_check(st_eevdf_deadline(vr, vr, BASE, 12 * MS) == vr,
		   "deadline: a deadline at vruntime is left alone");
	ktap_check(st_eevdf_deadline(vr, vr + BASE, 0, 12 * MS) == vr + BASE,
		   "deadline: an old slice of 0 is left alone");
	vr = ~0ULL - MS;		/* vruntime wraps: u64 arithmetic as the kernel's */
	ktap_check(st_eevdf_deadline(vr, vr + BASE, BASE, 12 * MS) == vr + 12 * MS,
		   "deadline: across the u64 wrap of vruntime");
	ktap_check(st_eevdf_deadline(0, 90000ULL * MS, 90000ULL * MS, 100 * MS) ==
		   100 * MS, "deadline: no overflow on a long virtual request");

	/* a renewal against a reweight (7.3's reweight_eevdf after the tick) */
	vr = 1000 * MS;
	r = (struct st_ev_request){ vr + vt(3 * MS, NICE0 / 3), vr, NICE0 / 3, 0 };
	v = st_eevdf_request_left(&r);
	ktap_check(v + 1 >= 3 * MS && v <= 3 * MS,
		   "request left: 3 ms at a third of nice 0's weight (to the ns)");
	r = (struct st_ev_request){ vr - vt(MS, NICE0), vr, NICE0, 0 };
	ktap_check(st_eevdf_request_left(&r) == -(s64)MS,
		   "request left: negative once overrun");
	ktap_check(renewed(req(vr, 3 * MS, NICE0, 0), 4 * MS, BASE, NICE0, vr),
		   "renewal: a 4 ms tick uses up a whole 3 ms request and renews it (what is left stays 3 ms)");
	ktap_check(renewed(req(vr, MS, NICE0, 0), 4 * MS, BASE, NICE0, vr),
		   "renewal: 1 ms left, a 4 ms tick");
	ktap_check(!renewed(req(vr, 10 * MS, NICE0, 0), 4 * MS, 12 * MS, NICE0, vr),
		   "no renewal: 10 ms of 12 left, a 4 ms tick");
	ktap_check(!renewed(req(vr, 10 * MS, NICE0, 0), 4 * MS, 12 * MS, NICE0 / 2, vr + 5 * MS),
		   "reweight: the weight halves, the deadline moves, no renewal");
	ktap_check(!renewed(req(vr, 10 * MS, NICE0, 0), 4 * MS, 12 * MS, NICE0 * 3, vr - 7 * MS),
		   "reweight: the weight triples, the deadline moves, no renewal");
	ktap_check(!renewed(req(vr, 3 * MS, 2, 0), 1 * MS, 12 * MS, 5, vr),
		   "reweight: MIN_SHARES (2) to 5, no renewal");
	ktap_check(renewed(req(vr, MS, NICE0, 0), 4 * MS, 12 * MS, NICE0 / 2, vr + 5 * MS),
		   "renewal then reweight in one tick: a renewal");
	ktap_check(renewed(req(vr, MS, 2, 0), 4 * MS, 12 * MS, 7, vr),
		   "renewal then reweight at MIN_SHARES' weight: a renewal");
	ktap_check(renewed(req(vr, MS, 88761ULL << 10, 0), 4 * MS, BASE, 88761ULL << 10, vr),
		   "renewal at nice -20's weight");
	ktap_check(!renewed(req(vr, 3 * MS, NICE0, 0), 0, BASE, NICE0 / 2, vr + MS),
		   "no time run: a reweight alone, never a renewal");
	ktap_check(!renewed(req(vr, 3 * MS, NICE0, 0), 100000, BASE, NICE0 / 2, vr + MS),
		   "0.1 ms run, a whole request left and a reweight: no renewal");
	v = 0;
	for (nr = 0; nr < 2000; nr++) {
		/* weights 2..~88M, runs 0.1..8 ms, reweights by up to 4x either way */
		u64 w = 2 + (u64)nr * nr * 23;
		u64 w1 = nr % 3 ? w * (1 + nr % 4) : w / (1 + nr % 4) + 2;
		u64 ran = 100000 + (u64)(nr % 80) * 100000;
		s64 left = (s64)(nr % 13) * (s64)MS - 2 * (s64)MS;
		bool used = left - (s64)ran <= 0;

		if (renewed(req(vr, left, w, 0), ran, BASE, w1, vr + (nr % 7) * MS) != used)
			v++;
	}
	ktap_check(!v,
		   "renewed exactly when the request was used up, over 2000 weights, runs and reweights");
	vr = ~0ULL - MS;
	ktap_check(renewed(req(vr, MS, NICE0, 0), 4 * MS, BASE, NICE0 / 2, vr),
		   "renewal across the u64 wrap of vruntime");

	/* the knobs */
	ktap_check(parse(ST_KNOB_EEVDF_SLICE, "scaled\n", &v) == 0 && v == ST_SLICE_SCALED &&
		   parse(ST_KNOB_EEVDF_SLICE, "fixed", &v) == 0 && v == ST_SLICE_FIXED &&
		   parse(ST_KNOB_EEVDF_SLICE, "stock", &v) == 0 && v == ST_SLICE_STOCK,
		   "eevdf_slice takes stock, fixed, scaled");
	ktap_check(parse(ST_KNOB_EEVDF_SLICE, "1", &v) == -EINVAL &&
		   parse(ST_KNOB_EEVDF_SLICE, "Scaled", &v) == -EINVAL,
		   "eevdf_slice refuses numbers and other spellings");
	ktap_check(parse(ST_KNOB_EEVDF_SLICE_NS, "99999", &v) == -ERANGE &&
		   parse(ST_KNOB_EEVDF_SLICE_NS, "100000", &v) == 0 &&
		   parse(ST_KNOB_EEVDF_SLICE_NS, "100000000", &v) == 0 &&
		   parse(ST_KNOB_EEVDF_SLICE_NS, "100000001", &v) == -ERANGE,
		   "eevdf_slice_ns within sched_setattr's 0.1..100 ms");
	ktap_check(st_knobs[ST_KNOB_EEVDF_SLICE_NS].def == 12 * MS &&
		   st_knobs[ST_KNOB_EEVDF_LATENCY_NS].def == 24 * MS &&
		   st_knobs[ST_KNOB_EEVDF_SLICE].def == ST_SLICE_STOCK &&
		   st_knobs[ST_KNOB_EEVDF_COUNTERS].def == 0,
		   "defaults: stock slice, counters off, 12 ms fixed, 24 ms latency");
	return ktap_finish();
}
