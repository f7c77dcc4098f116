// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the rate limit's slot protocol
 * (module/policy/ratelimit.h), built from the module's own source: a
 * reader must never return one task's owner with another task's tat or
 * expiry, whatever writers of other tasks do between its loads, and two
 * writers must never fill a slot at once.
 *
 * The interleavings are stepped by hand: st_rl_read_step(), a no-op in the
 * module, runs writer steps between the reader's loads, and every schedule
 * of two writers (one store a step) around the reader's loads is tried.  A
 * pthread test then races two writers and a reader.
 */
#include <pthread.h>
#include <sched.h>
#include <string.h>

static void test_step(void);
#define st_rl_read_step()	test_step()

#include "ktap.h"
#include "policy/ratelimit.c"

/* Two tasks; every tat and expiry tells whose stamp it is. */
#define OWN_A		0x11ULL
#define OWN_B		0x23ULL
#define TAT(own, gen)	((own) << 16 | (gen))
#define TAT_OWNER(tat)	((tat) >> 16)
#define NOW		1000UL

static struct st_rl_slot slot;
/* expiry of each task's stamps: one has surely passed NOW, one not */
static unsigned long exp_a, exp_b;

static unsigned long exp_of(u64 own)
{
	return own == OWN_A ? exp_a : exp_b;
}

static void slot_reset(unsigned long ea, unsigned long eb)
{
	exp_a = ea;
	exp_b = eb;
	memset(&slot, 0, sizeof(slot));
	slot.seq = 2;
	slot.owner = OWN_A;
	slot.tat = TAT(OWN_A, 0);
	slot.expires = ea;
}

/* The slot holds one whole stamp and no writer. */
static bool slot_whole(void)
{
	return !(slot.seq & 1) && TAT_OWNER(slot.tat) == slot.owner &&
	       slot.expires == exp_of(slot.owner);
}

/* --- writers, one store a step ------------------------------------------- */

enum { W_BEGIN, W_OWNER, W_TAT, W_EXPIRES, W_END, W_STEPS };

struct writer {
	u64 owner;
	int next;		/* its next step */
	u32 seq;
	bool lost;		/* another writer had the slot */
};

static struct writer wr[2];
static unsigned int lost_claims;

static void writer_step(struct writer *w)
{
	int step = w->next++;

	if (step != W_BEGIN && w->lost)
		return;
	switch (step) {
	case W_BEGIN:
		w->lost = !st_rl_write_begin(&slot, &w->seq);
		lost_claims += w->lost;
		break;
	case W_OWNER:
		st_rl_write_owner(&slot, w->owner);
		break;
	case W_TAT:
		st_rl_write_tat(&slot, TAT(w->owner, 1));
		break;
	case W_EXPIRES:
		st_rl_write_expires(&slot, exp_of(w->owner));
		break;
	case W_END:
		st_rl_write_end(&slot, w->seq);
		break;
	}
}

/*
 * A schedule: the ten writer steps in order (which writer takes each),
 * and the gap of the read each runs in: 0 before it, 1..3 at its
 * st_rl_read_step() calls (after each load but the last), 4 after it.
 */
#define NR_OPS		(2 * W_STEPS)
#define NR_GAPS		5
/* C(10, 5) merges of the two writers times C(14, 4) spreads over gaps */
#define NR_SCHEDULES	(252 * 1001)

struct schedule {
	unsigned char who[NR_OPS];
	unsigned char gap[NR_OPS];
};

static const struct schedule *cur;
static int next_op, cur_gap;

/* Runs the writer steps scheduled up to gap @gap. */
static void run_until(int gap)
{
	while (next_op < NR_OPS && cur->gap[next_op] <= gap)
		writer_step(&wr[cur->who[next_op++]]);
}

static void test_step(void)
{
	if (cur)
		run_until(++cur_gap);
}

static void schedule_start(const struct schedule *s, unsigned long ea,
			   unsigned long eb)
{
	slot_reset(ea, eb);
	memset(wr, 0, sizeof(wr));
	wr[0].owner = OWN_A;
	wr[1].owner = OWN_B;
	cur = s;
	next_op = 0;
	cur_gap = 0;
	run_until(0);
}

/* Runs the rest of the schedule; true if the slot ends whole. */
static bool schedule_finish(void)
{
	run_until(NR_GAPS - 1);
	cur = NULL;
	return slot_whole();
}

/* The read the protocol replaced: owner then tat, nothing checked. */
static u64 naive_tat(u64 owner)
{
	u64 own = st_rl_read_owner(&slot), tat;

	test_step();
	tat = st_rl_read_tat(&slot);
	return own == owner ? tat : 0;
}

static struct schedule *schedules;
static int nr_schedules;

static void gen_gaps(struct schedule *s, int i, int from)
{
	int g;

	if (i == NR_OPS) {
		schedules[nr_schedules++] = *s;
		return;
	}
	for (g = from; g < NR_GAPS; g++) {
		s->gap[i] = g;
		gen_gaps(s, i + 1, g);
	}
}

static void gen_schedules(void)
{
	struct schedule s;
	int mask, i;

	schedules = malloc(NR_SCHEDULES * sizeof(*schedules));
	if (!schedules)
		abort();
	for (mask = 0; mask < 1 << NR_OPS; mask++) {
		if (__builtin_popcount(mask) != W_STEPS)
			continue;
		for (i = 0; i < NR_OPS; i++)
			s.who[i] = !!(mask & 1 << i);
		gen_gaps(&s, 0, 0);
	}
}

/* --- tests ---------------------------------------------------------------- */

/*
 * A stamp at jiffies NOW with the clocks @now and @now_new, what it did
 * without ST_RL_EVICTED.
 */
static unsigned int stamp2(const struct st_rl_params *rp, u64 owner, u64 now,
			   u64 now_new, unsigned long expires)
{
	return st_rl_slot_stamp(&slot, rp, owner, now, now_new, NOW, expires) &
	       ST_RL_STAMP_MASK;
}

/* the same, both clocks at @now */
static unsigned int stamp(const struct st_rl_params *rp, u64 owner, u64 now,
			  unsigned long expires)
{
	return stamp2(rp, owner, now, now, expires);
}

static void test_sequential(void)
{
	struct st_rl_params rp;
	struct writer w = { .owner = OWN_A };
	u64 t = 5000, tat;
	bool ok;

	st_rl_params_init(&rp, 300, 3);
	ktap_check(sizeof(struct st_rl_slot) == 32,
		   "slot: 32 bytes, never across a cache line (got %zu)",
		   sizeof(struct st_rl_slot));

	memset(&slot, 0, sizeof(slot));
	ktap_check(!st_rl_slot_tat(&slot, OWN_A) &&
		   !st_rl_slot_may_limit(&slot, OWN_A, 0),
		   "slot: an empty slot has no stamp");

	ok = stamp(&rp, OWN_A, t, NOW);
	tat = st_rl_slot_tat(&slot, OWN_A);
	ktap_check(ok && tat == st_rl_stamp(&rp, 0, t) && !(slot.seq & 1) &&
		   st_rl_slot_may_limit(&slot, OWN_A, NOW) &&
		   !st_rl_slot_may_limit(&slot, OWN_A, NOW + 1) &&
		   !st_rl_slot_tat(&slot, OWN_B) &&
		   !st_rl_slot_may_limit(&slot, OWN_B, 0),
		   "slot: a stamp reads back for its owner only, live until its expiry");

	ok = stamp(&rp, OWN_A, t, NOW) &&
	     stamp(&rp, OWN_A, t, NOW);
	ktap_check(ok && st_rl_slot_tat(&slot, OWN_A) == t + 300 &&
		   st_rl_limited(&rp, st_rl_slot_tat(&slot, OWN_A), t),
		   "slot: the owner's stamps build on its tat (burst 3 used up)");

	ok = stamp(&rp, OWN_B, t, NOW);
	ktap_check(ok && !st_rl_slot_tat(&slot, OWN_A) &&
		   st_rl_slot_tat(&slot, OWN_B) == t + 100,
		   "slot: another task's stamp replaces it and starts from 0");

	/* a writer between its claim and its end */
	slot_reset(NOW, NOW);
	ok = st_rl_write_begin(&slot, &w.seq);
	ktap_check(ok && !stamp(&rp, OWN_B, t, NOW) &&
		   slot.owner == OWN_A && slot.seq == 3 &&
		   !st_rl_slot_tat(&slot, OWN_A) &&
		   !st_rl_slot_may_limit(&slot, OWN_A, 0),
		   "slot: while a writer has it, another writer skips and readers see no stamp");
	st_rl_write_end(&slot, w.seq);
	ktap_check(slot.seq == 4 && st_rl_slot_tat(&slot, OWN_A) == TAT(OWN_A, 0),
		   "slot: released, the stamp reads again");

	slot.seq = 0xfffffffe;
	ok = stamp(&rp, OWN_B, t, NOW);
	ktap_check(ok && slot.seq == 0 && st_rl_slot_tat(&slot, OWN_B) == t + 100 &&
		   stamp(&rp, OWN_B, t, NOW) && slot.seq == 2,
		   "slot: the count wraps past u32 and stamps go on");
}

/*
 * Adaptive mode through the slot: the quota counts travel with the
 * stamp, the fast path says "may limit" only once the quota is used up,
 * a slot taken by another task starts again from a full quota, and a
 * fixed-mode stamp always reads as used up.
 */
static void test_adaptive_slot(void)
{
	struct st_rl_params rp;
	u64 t = 5000;
	bool ok = true;
	int i;

	st_rl_params_init(&rp, 300, 1);
	st_rl_params_adaptive(&rp, true, 3, 1);
	memset(&slot, 0, sizeof(slot));
	for (i = 0; i < 3; i++) {
		ok &= !st_rl_slot_may_limit(&slot, OWN_A, NOW);
		ok &= stamp(&rp, OWN_A, t, NOW) == ST_RL_STAMPED;
	}
	ktap_check(ok && slot.used == 3 && slot.quota == 3 &&
		   st_rl_slot_may_limit(&slot, OWN_A, NOW) &&
		   st_rl_limited(&rp, st_rl_slot_tat(&slot, OWN_A), t + 300) &&
		   !st_rl_limited(&rp, st_rl_slot_tat(&slot, OWN_A), t + 301),
		   "adaptive slot: free below the quota (no clock), limited once 3 of 3 are used, until the window ends");
	ok = stamp(&rp, OWN_A, t + 301, NOW + 5) == ST_RL_HALVED;
	ktap_check(ok && slot.quota == 1 && slot.used == 1 &&
		   slot.tat == t + 601 && slot.expires == NOW + 5,
		   "adaptive slot: the next window halves the quota (3 -> 1) and sets its own expiry");
	ok = stamp(&rp, OWN_A, t + 302, NOW + 9) == ST_RL_STAMPED;
	ktap_check(ok && slot.tat == t + 601 && slot.expires == NOW + 5 &&
		   slot.used == 2,
		   "adaptive slot: a migration inside the window keeps its end and expiry");
	ok = stamp2(&rp, OWN_A, t + 303, t + 310, NOW + 9) == ST_RL_STAMPED;
	ktap_check(ok && slot.tat == t + 608 && slot.expires == NOW + 9 &&
		   slot.used == 3,
		   "adaptive slot: an unstable clock moves the window's end by the two clocks' difference and takes the later expiry");
	ok = stamp(&rp, OWN_B, t + 302, NOW) == ST_RL_STAMPED;
	ktap_check(ok && slot.quota == 3 && slot.used == 1 &&
		   !st_rl_slot_may_limit(&slot, OWN_B, NOW) &&
		   !st_rl_slot_may_limit(&slot, OWN_A, NOW),
		   "adaptive slot: another task takes the slot with a full quota; the first is forgotten");
	st_rl_params_adaptive(&rp, false, 3, 1);
	ok = stamp(&rp, OWN_B, t, NOW) == ST_RL_STAMPED;
	ktap_check(ok && !slot.used && !slot.quota &&
		   st_rl_slot_may_limit(&slot, OWN_B, NOW),
		   "fixed slot: no quota counts, every stamp may limit until its expiry");
}

/*
 * ST_RL_EVICTED, what stats/ratelimit_stamps_lost counts: a stamp that
 * replaced another task's stamp still inside its window, never an empty,
 * forgotten or expired slot, nor the task's own stamp.
 */
static void test_evicted(void)
{
	struct st_rl_params rp;
	struct writer w = { .owner = OWN_A };
	u64 t = 5000;
	unsigned int r1, r2;

	st_rl_params_init(&rp, 300, 1);
	memset(&slot, 0, sizeof(slot));
	r1 = st_rl_slot_stamp(&slot, &rp, OWN_A, t, t, NOW, NOW + 2);
	r2 = st_rl_slot_stamp(&slot, &rp, OWN_A, t + 1, t + 1, NOW + 1, NOW + 3);
	ktap_check(r1 == ST_RL_STAMPED && r2 == ST_RL_STAMPED,
		   "evicted: not on an empty slot, nor over the task's own stamp");
	r1 = st_rl_slot_stamp(&slot, &rp, OWN_B, t + 2, t + 2, NOW + 3, NOW + 5);
	ktap_check(r1 == (ST_RL_STAMPED | ST_RL_EVICTED) &&
		   slot.owner == OWN_B && st_rl_slot_tat(&slot, OWN_B) &&
		   !st_rl_slot_tat(&slot, OWN_A),
		   "evicted: another task's stamp replaced at its last live jiffy");
	r1 = st_rl_slot_stamp(&slot, &rp, OWN_A, t + 3, t + 3, NOW + 6, NOW + 8);
	ktap_check(r1 == ST_RL_STAMPED && slot.owner == OWN_A,
		   "evicted: not over another task's expired stamp");
	/* what st_rl_forget_live() leaves: owner 0, the expiry kept */
	slot.owner = 0;
	r1 = st_rl_slot_stamp(&slot, &rp, OWN_B, t + 4, t + 4, NOW + 6, NOW + 8);
	ktap_check(r1 == ST_RL_STAMPED, "evicted: not over a forgotten slot");
	/* across the jiffies wrap: expiry 5 jiffies past it */
	slot.expires = 4;
	r1 = st_rl_slot_stamp(&slot, &rp, OWN_A, t + 5, t + 5, (unsigned long)-2, 8);
	st_rl_params_adaptive(&rp, true, 3, 1);
	r2 = st_rl_slot_stamp(&slot, &rp, OWN_B, t + 6, t + 6, 7, 9);
	ktap_check(r1 == (ST_RL_STAMPED | ST_RL_EVICTED) &&
		   r2 == (ST_RL_STAMPED | ST_RL_EVICTED) && slot.quota == 3,
		   "evicted: across the jiffies wrap, and in adaptive mode (the slot restarts at a full quota)");
	st_rl_write_begin(&slot, &w.seq);
	r1 = st_rl_slot_stamp(&slot, &rp, OWN_A, t + 7, t + 7, 7, 9);
	st_rl_write_end(&slot, w.seq);
	ktap_check(r1 == ST_RL_BUSY && slot.owner == OWN_B,
		   "evicted: a busy slot is ST_RL_BUSY alone, nothing written");
}

/*
 * The race of issue 14: a reader of A reads A's owner, then B's stamp
 * lands whole in the slot, then the reader reads the tat.
 */
static void test_scenario(void)
{
	struct schedule s;
	u64 naive, tat;
	int i;

	/* B's whole stamp after the owner load (gap 2); A's never */
	for (i = 0; i < NR_OPS; i++) {
		s.who[i] = i < W_STEPS;
		s.gap[i] = i < W_STEPS ? 2 : NR_GAPS - 1;
	}
	schedule_start(&s, NOW, NOW);
	cur_gap = 1;		/* naive_tat() has no begin: its step is gap 2 */
	naive = naive_tat(OWN_A);
	schedule_finish();
	schedule_start(&s, NOW, NOW);
	tat = st_rl_slot_tat(&slot, OWN_A);
	schedule_finish();
	ktap_check(naive == TAT(OWN_B, 1) && !tat,
		   "scenario: B stamps between the owner and tat loads of A's read: the unchecked read gives A B's tat %#llx, st_rl_slot_tat() %#llx",
		   (unsigned long long)naive, (unsigned long long)tat);
}

static void test_interleavings(void)
{
	unsigned int bad_tat = 0, bad_limit = 0, bad_final = 0, tat_found = 0,
		     live = 0, mixed = 0;
	int i, r;

	gen_schedules();
	lost_claims = 0;
	for (i = 0; i < nr_schedules; i++) {
		const struct schedule *s = &schedules[i];
		u64 own, tat;

		/* the tat of either task: its own, or none */
		for (r = 0; r < 2; r++) {
			own = r ? OWN_B : OWN_A;
			schedule_start(s, NOW - 1, NOW + 1);
			tat = st_rl_slot_tat(&slot, own);
			bad_final += !schedule_finish();
			bad_tat += tat && TAT_OWNER(tat) != own;
			tat_found += !!tat;
		}
		/*
		 * One task's stamps have expired, the other's not: the first
		 * may be limited only by a read that paired its owner with the
		 * other's expiry.
		 */
		schedule_start(s, NOW - 1, NOW + 1);
		bad_limit += st_rl_slot_may_limit(&slot, OWN_A, NOW);
		bad_final += !schedule_finish();
		schedule_start(s, NOW + 1, NOW - 1);
		bad_limit += st_rl_slot_may_limit(&slot, OWN_B, NOW);
		bad_final += !schedule_finish();
		schedule_start(s, NOW - 1, NOW + 1);
		live += st_rl_slot_may_limit(&slot, OWN_B, NOW);
		bad_final += !schedule_finish();
		/* the same schedule against the unchecked read */
		schedule_start(s, NOW - 1, NOW + 1);
		cur_gap = 1;
		tat = naive_tat(OWN_A);
		schedule_finish();
		mixed += tat && TAT_OWNER(tat) != OWN_A;
	}
	ktap_check(nr_schedules == NR_SCHEDULES && mixed > 0,
		   "interleavings: %d schedules of two writers around a read; in %u the unchecked read gives A B's tat",
		   nr_schedules, mixed);
	ktap_check(!bad_tat && tat_found > 0,
		   "interleavings: st_rl_slot_tat() never returns another task's tat (%u bad, %u reads found a stamp)",
		   bad_tat, tat_found);
	ktap_check(!bad_limit && live > 0,
		   "interleavings: st_rl_slot_may_limit() never pairs an owner with another task's expiry (%u bad, %u live)",
		   bad_limit, live);
	ktap_check(!bad_final && lost_claims > 0,
		   "interleavings: two writers never fill the slot together, it ends whole (%u bad, %u claims lost)",
		   bad_final, lost_claims);
	free(schedules);
}

/* --- two writers and a reader on threads --------------------------------- */

/*
 * Read rounds: this many once each writer has stamped STRESS_STAMPS
 * times (on a loaded machine a thread may wait long to run), and until
 * one found a stamp.
 */
#define STRESS_ROUNDS		300000
#define STRESS_ROUNDS_MAX	10000000
#define STRESS_STAMPS		1000

struct stress_writer {
	u64 owner;
	unsigned long stamped, lost;
};

static int stress_go, stress_stop;
static struct st_rl_params stress_rp;

static void *stress_write(void *arg)
{
	struct stress_writer *w = arg;
	int i;

	/* all three start together, or the writers may never meet */
	while (!__atomic_load_n(&stress_go, __ATOMIC_ACQUIRE))
		;
	while (!__atomic_load_n(&stress_stop, __ATOMIC_RELAXED)) {
		/* window 1: the tat is now + 1, which still tells the owner */
		if (st_rl_slot_stamp(&slot, &stress_rp, w->owner,
				     TAT(w->owner, w->stamped & 0x7fff),
				     TAT(w->owner, w->stamped & 0x7fff), NOW,
				     exp_of(w->owner))) {
			/* read by the reader thread while we run */
			__atomic_store_n(&w->stamped, w->stamped + 1,
					 __ATOMIC_RELAXED);
		} else {
			/*
			 * Unlike the kernel's, a writer here can be preempted
			 * holding the slot: let it finish.
			 */
			w->lost++;
			sched_yield();
		}
		/*
		 * Stable spells longer than a read that misses the cache,
		 * as between real migrations.
		 */
		for (i = 0; i < 256; i++)
			__atomic_load_n(&stress_stop, __ATOMIC_RELAXED);
	}
	return NULL;
}

static unsigned long stress_stamped(const struct stress_writer *w)
{
	return __atomic_load_n(&w->stamped, __ATOMIC_RELAXED);
}

static void test_stress(void)
{
	struct stress_writer w[2] = { { .owner = OWN_A }, { .owner = OWN_B } };
	unsigned long rounds = 0, busy = 0, found[2] = { 0 }, live = 0,
		      bad = 0;
	pthread_t th[2];
	u64 tat;
	int i, started = 0;

	slot_reset(NOW - 1, NOW + 1);
	slot.owner = 0;
	slot.tat = 0;
	st_rl_params_init(&stress_rp, 1, 1);
	for (i = 0; i < 2; i++)
		started += !pthread_create(&th[started], NULL, stress_write,
					   &w[i]);
	__atomic_store_n(&stress_go, 1, __ATOMIC_RELEASE);
	while (started == 2 && rounds < STRESS_ROUNDS_MAX &&
	       (busy < STRESS_ROUNDS || !(found[0] + found[1]))) {
		busy += stress_stamped(&w[0]) >= STRESS_STAMPS &&
			stress_stamped(&w[1]) >= STRESS_STAMPS;
		/* A first, then B first: neither read always follows a miss */
		for (i = 0; i < 2; i++) {
			int r = (rounds + i) & 1;
			u64 own = r ? OWN_B : OWN_A;

			tat = st_rl_slot_tat(&slot, own);
			bad += tat && TAT_OWNER(tat) != own;
			found[r] += !!tat;
		}
		rounds++;
		/* A's stamps have expired: only a torn read says otherwise */
		bad += st_rl_slot_may_limit(&slot, OWN_A, NOW);
		live += st_rl_slot_may_limit(&slot, OWN_B, NOW);
	}
	__atomic_store_n(&stress_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	/* how often each task was seen is up to the scheduler: told only */
	ktap_diag("stress: A and B stamped %lu and %lu times (%lu and %lu skipped: slot busy); %lu read rounds found A's tat %lu times, B's %lu, B live %lu; %lu reads torn",
		  w[0].stamped, w[1].stamped, w[0].lost, w[1].lost, rounds,
		  found[0], found[1], live, bad);
	ktap_check(started == 2 && busy >= STRESS_ROUNDS && !bad &&
		   found[0] + found[1] && slot_whole(),
		   "stress: two writer threads and a reader: every read whole");
}

int main(void)
{
	ktap_header(8 + 6 + 6 + 1 + 4 + 1);
	test_sequential();
	test_adaptive_slot();
	test_evicted();
	test_scenario();
	test_interleavings();
	test_stress();
	return ktap_finish();
}
