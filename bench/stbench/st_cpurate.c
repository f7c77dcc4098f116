// SPDX-License-Identifier: GPL-2.0
/*
 * st_cpurate: CPU-bound, cache-hungry copies, as SPECrate runs them (seed
 * 001: EEVDF lost 3.8 % on SPECrate2017 int with two copies per CPU, and
 * preempted at the tick three times as often as CFS).  Each copy is a
 * process of its own that chases pointers through a random cycle of cache
 * lines in a private buffer larger than a core's L2, so a copy that loses
 * the CPU finds its lines evicted when it comes back: more preemptions,
 * less work done.  No sleep, no I/O, no communication while measured.
 *
 *   st_cpurate [-c COPIES] [-t SECONDS] [-k KB_PER_COPY]
 *	prints "copies N seconds S units U units_per_s R copy_min_per_s A
 *	copy_max_per_s B copy_hmean_per_s H copy_cv_pct V starved Z"
 *	(copy_cv_pct: the copies' units' coefficient of variation, how
 *	evenly the CPUs were shared; starved: copies that finished no unit,
 *	whose hmean is then 0)
 *
 * A unit is STEPS dependent loads; a copy counts the units it finished.
 * The copies build their buffers first and start together when the
 * parent closes a pipe; the parent stops them after SECONDS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef unsigned long long u64;

#define LINE	64
#define STEPS	4096	/* dependent loads per unit */

struct slot {
	atomic_ullong units;
	char pad[LINE - sizeof(atomic_ullong)];
};

struct shared {
	atomic_int stop;
	char pad[LINE - sizeof(atomic_int)];
	struct slot slot[];
};

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static u64 rnd(u64 *s)
{
	/* xorshift64: a copy's own stream, no shared state */
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A random cycle through every line of buf: line i holds the next's index. */
static size_t *build(size_t lines, u64 seed)
{
	size_t *order, *buf, i, j, t;

	buf = aligned_alloc(LINE, lines * LINE);
	order = malloc(lines * sizeof(*order));
	if (!buf || !order)
		return NULL;
	for (i = 0; i < lines; i++)
		order[i] = i;
	for (i = lines - 1; i > 0; i--) {
		j = rnd(&seed) % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < lines; i++)
		buf[order[i] * (LINE / sizeof(size_t))] =
			order[(i + 1) % lines] * (LINE / sizeof(size_t));
	free(order);
	return buf;
}

static int copy_main(struct shared *sh, int id, size_t lines, int gate, int ready)
{
	size_t *buf, p = 0;
	char c = 0;
	int i;

	buf = build(lines, 0x9e3779b97f4a7c15ull * (id + 1));
	if (!buf)
		return 2;
	/* ready; then wait for every copy: the parent closes the gate */
	if (write(ready, &c, 1) != 1 || read(gate, &c, 1) < 0)
		return 2;
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		for (i = 0; i < STEPS; i++)
			p = buf[p];
		atomic_fetch_add_explicit(&sh->slot[id].units, 1, memory_order_relaxed);
	}
	/* p used: the loads cannot be optimized away */
	return p == (size_t)-1 ? 3 : 0;
}

/* square root by Newton's method: the helpers are built without libm */
static double root(double x)
{
	double r = x > 1 ? x : 1;
	int i;

	for (i = 0; i < 100; i++)
		r = (r + x / r) / 2;
	return r;
}

static long arg_long(const char *s, long min, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min) {
		fprintf(stderr, "st_cpurate: bad %s '%s'\n", what, s);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	long copies = 2 * sysconf(_SC_NPROCESSORS_ONLN), seconds = 5, kb = 2048;
	double secs, rate, min = 0, max = 0, inv = 0, sq = 0, mean, sd;
	long starved = 0;
	int opt, i, st, gate[2], ready[2], bad = 0;
	char c;
	struct shared *sh;
	u64 t0, t1, total = 0;
	pid_t *pids;

	while ((opt = getopt(argc, argv, "c:t:k:")) != -1) {
		switch (opt) {
		case 'c':
			copies = arg_long(optarg, 1, "copies");
			break;
		case 't':
			seconds = arg_long(optarg, 1, "seconds");
			break;
		case 'k':
			kb = arg_long(optarg, 4, "KB per copy");
			break;
		default:
			fprintf(stderr, "usage: %s [-c COPIES] [-t SECONDS] [-k KB_PER_COPY]\n",
				argv[0]);
			return 1;
		}
	}
	sh = mmap(NULL, sizeof(*sh) + copies * sizeof(struct slot),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(copies, sizeof(*pids));
	if (sh == MAP_FAILED || !pids || pipe(gate) || pipe(ready))
		return 2;
	for (i = 0; i < copies; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("fork");
			atomic_store(&sh->stop, 1);
			close(gate[1]);
			return 2;
		}
		if (!pids[i]) {
			close(gate[1]);
			close(ready[0]);
			_exit(copy_main(sh, i, (size_t)kb * 1024 / LINE, gate[0], ready[1]));
		}
	}
	close(gate[0]);
	close(ready[1]);
	/* every buffer built before the clock starts (EOF: a copy died) */
	for (i = 0; i < copies; i++)
		if (read(ready[0], &c, 1) != 1)
			break;
	if (i < copies) {
		atomic_store(&sh->stop, 1);
		close(gate[1]);
		fprintf(stderr, "st_cpurate: only %d of %ld copies got ready\n", i, copies);
		return 4;
	}
	t0 = now_ns();
	close(gate[1]);
	sleep(seconds);
	atomic_store(&sh->stop, 1);
	t1 = now_ns();
	for (i = 0; i < copies; i++) {
		if (waitpid(pids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	}
	if (bad) {
		fprintf(stderr, "st_cpurate: %d of %ld copies failed\n", bad, copies);
		return 4;
	}
	secs = (t1 - t0) / 1e9;
	for (i = 0; i < copies; i++) {
		u64 u = atomic_load(&sh->slot[i].units);

		total += u;
		rate = u / secs;
		if (!i || rate < min)
			min = rate;
		if (!i || rate > max)
			max = rate;
		inv += rate > 0 ? 1 / rate : 0;
		starved += !u;
		sq += rate * rate;
	}
	if (!total) {
		fprintf(stderr, "st_cpurate: no copy finished a unit in %.2f s\n", secs);
		return 4;
	}
	mean = total / secs / copies;
	sd = copies > 1 ? sq / copies - mean * mean : 0;
	sd = sd > 0 ? root(sd * copies / (copies - 1)) : 0;
	printf("copies %ld seconds %.6f units %llu units_per_s %.2f ",
	       copies, secs, total, total / secs);
	printf("copy_min_per_s %.2f copy_max_per_s %.2f copy_hmean_per_s %.2f ",
	       min, max, starved ? 0 : copies / inv);
	printf("copy_cv_pct %.2f starved %ld\n", 100 * sd / mean, starved);
	return 0;
}
