// SPDX-License-Identifier: GPL-2.0
/*
 * st_wakelat: wakeup latency in the spirit of schbench (which Debian does
 * not package).  Message threads each own a set of worker threads; in
 * every round a message thread stamps the time and wakes each of its
 * workers through a futex, then sleeps until the last one is done.  A
 * worker measures how long it took from the stamp to running again (the
 * wakeup latency), spins for the request's work time and reports back.
 * Between rounds the CPUs go idle, which is where wakeup placement and
 * the queued-wakeup path decide the latency.
 *
 *   st_wakelat [-m MSG] [-w WORKERS] [-t SECONDS] [-r WORK_US] [-s SLEEP_US]
 *	prints "wakeups N requests_per_s R p50_us A p90_us B p99_us C
 *	p999_us E max_us D" (p999: the 99.9th percentile, as schbench shows)
 *   st_wakelat -p LOOPS
 *	pipe ping-pong between two threads, like perf bench sched pipe:
 *	prints "loops N seconds S usecs_per_op U"
 *
 * Latencies go into per-worker log-linear histograms (1/64 relative
 * resolution, exact below 128 ns), merged at the end: no allocation and
 * no lock on the measured path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* the kernel's spellings, which userspace headers lack */
typedef unsigned long long u64;
#define __aligned(x)	__attribute__((aligned(x)))	/* checkpatch: the definition */

#define SUB_BITS	6
#define SUB		(1 << SUB_BITS)	/* a count, not a bit mask */
#define LINEAR		(2 * SUB)
#define NBUCKETS	(LINEAR + 58 * SUB)

struct msg;

struct worker {
	pthread_t tid;
	struct msg *msg;
	atomic_uint go;		/* 0 sleep, 1 request, 2 exit */
	atomic_ullong stamp_ns;
	u64 hist[NBUCKETS];
	u64 requests;
} __aligned(64);

struct msg {
	pthread_t tid;
	struct worker *workers;
	int nworkers;
	atomic_uint pending;
	atomic_uint done;
} __aligned(64);

static atomic_int stop;
static long work_us, sleep_us;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void futex_wait(atomic_uint *addr, unsigned int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static int bucket(u64 v)
{
	int msb;

	if (v < LINEAR)
		return (int)v;
	msb = 63 - __builtin_clzll(v);
	return LINEAR + (msb - SUB_BITS - 1) * SUB +
	       (int)((v >> (msb - SUB_BITS)) - SUB);
}

/* middle of a bucket's range, in ns */
static double bucket_mid(int b)
{
	int k, msb;
	u64 low, width;

	if (b < LINEAR)
		return b;
	k = (b - LINEAR) / SUB;
	msb = k + SUB_BITS + 1;
	width = 1ull << (msb - SUB_BITS);
	low = (u64)((b - LINEAR) % SUB + SUB) << (msb - SUB_BITS);
	return low + (width - 1) / 2.0;
}

static void spin_us(long us)
{
	u64 end = now_ns() + (u64)us * 1000;

	while (now_ns() < end)
		;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct msg *m = w->msg;
	unsigned int go;
	u64 lat, t;
	int b;

	for (;;) {
		while ((go = atomic_load(&w->go)) == 0)
			futex_wait(&w->go, 0);
		if (go == 2)
			break;
		t = now_ns();
		lat = t - atomic_load(&w->stamp_ns);
		b = bucket(lat);
		if (b >= NBUCKETS)
			b = NBUCKETS - 1;
		w->hist[b]++;
		w->requests++;
		atomic_store(&w->go, 0);
		if (work_us)
			spin_us(work_us);
		if (atomic_fetch_sub(&m->pending, 1) == 1) {
			atomic_store(&m->done, 1);
			futex_wake(&m->done);
		}
	}
	return NULL;
}

static void *msg_main(void *arg)
{
	struct msg *m = arg;
	struct timespec nap;
	int i;

	nap.tv_sec = sleep_us / 1000000;
	nap.tv_nsec = (sleep_us % 1000000) * 1000;
	while (!atomic_load(&stop)) {
		atomic_store(&m->done, 0);
		atomic_store(&m->pending, m->nworkers);
		for (i = 0; i < m->nworkers; i++) {
			struct worker *w = &m->workers[i];

			atomic_store(&w->stamp_ns, now_ns());
			atomic_store(&w->go, 1);
			futex_wake(&w->go);
		}
		while (!atomic_load(&m->done))
			futex_wait(&m->done, 0);
		if (sleep_us)
			nanosleep(&nap, NULL);
	}
	for (i = 0; i < m->nworkers; i++) {
		atomic_store(&m->workers[i].go, 2);
		futex_wake(&m->workers[i].go);
	}
	return NULL;
}

static double percentile(const u64 *hist, u64 total, double p)
{
	u64 want = (u64)(p / 100.0 * total + 0.5), seen = 0;
	int b;

	if (want < 1)
		want = 1;
	for (b = 0; b < NBUCKETS; b++) {
		seen += hist[b];
		if (seen >= want)
			return bucket_mid(b) / 1000.0;
	}
	return 0;
}

struct pp {
	int in, out;
	long loops;
};

static void *pp_main(void *arg)
{
	struct pp *p = arg;
	char c;
	long i;

	for (i = 0; i < p->loops; i++) {
		if (read(p->in, &c, 1) != 1 || write(p->out, &c, 1) != 1) {
			perror("pipe");
			exit(3);
		}
	}
	return NULL;
}

static int pingpong(long loops)
{
	int a[2], b[2];
	struct pp p;
	pthread_t t;
	u64 t0, t1;
	char c = 0;
	long i;

	if (pipe(a) || pipe(b)) {
		perror("pipe");
		return 2;
	}
	p.in = a[0];
	p.out = b[1];
	p.loops = loops;
	if (pthread_create(&t, NULL, pp_main, &p))
		return 2;
	t0 = now_ns();
	for (i = 0; i < loops; i++) {
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1) {
			perror("pipe");
			return 3;
		}
	}
	t1 = now_ns();
	pthread_join(t, NULL);
	printf("loops %ld seconds %.6f usecs_per_op %.4f\n", loops,
	       (t1 - t0) / 1e9, (t1 - t0) / 1e3 / loops);
	return 0;
}

static long arg_long(const char *s, long min, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min) {
		fprintf(stderr, "st_wakelat: bad %s '%s'\n", what, s);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	long nmsg = 2, nworkers = 4, seconds = 5, loops = 0;
	static u64 hist[NBUCKETS];
	u64 total = 0, requests = 0, t0, t1;
	struct msg *msgs;
	int opt, i, j, b;
	double secs;

	while ((opt = getopt(argc, argv, "m:w:t:r:s:p:")) != -1) {
		switch (opt) {
		case 'm':
			nmsg = arg_long(optarg, 1, "message threads");
			break;
		case 'w':
			nworkers = arg_long(optarg, 1, "workers");
			break;
		case 't':
			seconds = arg_long(optarg, 1, "seconds");
			break;
		case 'r':
			work_us = arg_long(optarg, 0, "work time");
			break;
		case 's':
			sleep_us = arg_long(optarg, 0, "sleep time");
			break;
		case 'p':
			loops = arg_long(optarg, 1, "loops");
			break;
		default:
			fprintf(stderr,
				"usage: %s [-m MSG] [-w WORKERS] [-t SECONDS] [-r WORK_US] [-s SLEEP_US] | -p LOOPS\n",
				argv[0]);
			return 1;
		}
	}
	if (loops)
		return pingpong(loops);

	msgs = calloc(nmsg, sizeof(*msgs));
	if (!msgs)
		return 2;
	for (i = 0; i < nmsg; i++) {
		msgs[i].nworkers = nworkers;
		if (posix_memalign((void **)&msgs[i].workers, 64,
				   nworkers * sizeof(struct worker)))
			return 2;
		memset(msgs[i].workers, 0, nworkers * sizeof(struct worker));
		for (j = 0; j < nworkers; j++) {
			msgs[i].workers[j].msg = &msgs[i];
			if (pthread_create(&msgs[i].workers[j].tid, NULL,
					   worker_main, &msgs[i].workers[j])) {
				perror("pthread_create");
				return 2;
			}
		}
	}
	t0 = now_ns();
	for (i = 0; i < nmsg; i++)
		if (pthread_create(&msgs[i].tid, NULL, msg_main, &msgs[i])) {
			perror("pthread_create");
			return 2;
		}
	sleep(seconds);
	atomic_store(&stop, 1);
	for (i = 0; i < nmsg; i++)
		pthread_join(msgs[i].tid, NULL);
	t1 = now_ns();
	for (i = 0; i < nmsg; i++) {
		for (j = 0; j < nworkers; j++) {
			struct worker *w = &msgs[i].workers[j];

			pthread_join(w->tid, NULL);
			for (b = 0; b < NBUCKETS; b++) {
				hist[b] += w->hist[b];
				total += w->hist[b];
			}
			requests += w->requests;
		}
	}
	if (!total) {
		fprintf(stderr, "st_wakelat: no wakeup completed\n");
		return 4;
	}
	for (b = NBUCKETS - 1; b > 0 && !hist[b]; b--)
		;
	secs = (t1 - t0) / 1e9;
	printf("wakeups %llu requests_per_s %.1f p50_us %.2f p90_us %.2f p99_us %.2f ",
	       (unsigned long long)total, requests / secs,
	       percentile(hist, total, 50), percentile(hist, total, 90),
	       percentile(hist, total, 99));
	printf("p999_us %.2f max_us %.2f\n",
	       percentile(hist, total, 99.9), bucket_mid(b) / 1000.0);
	return 0;
}
