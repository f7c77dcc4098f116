// SPDX-License-Identifier: GPL-2.0
/*
 * st_crowd THREADS HOPS: many tasks that each migrate a few times, so
 * that some of them share a slot of the rate limit's table (32768 slots,
 * indexed by task pointer: about THREADS^2 / 65536 pairs share one).
 *
 * THREADS threads start together; thread i hops by affinity between
 * CPUs i and i + 1 (modulo the CPUs it may use) HOPS times, one
 * migration each, with 10 ms of sleep after each hop so that the hops
 * of all threads interleave.  Prints "threads T hops H migrations M"
 * (M from each thread's se.nr_migrations).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int hops, ncpus, cpus[CPU_SETSIZE];
static pthread_barrier_t start;
static long total;
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

/* se.nr_migrations of the calling thread */
static long thread_migrations(void)
{
	FILE *f = fopen("/proc/thread-self/sched", "r");
	char line[256];
	long n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "se.nr_migrations : %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *run(void *arg)
{
	long i = (long)arg, m0, m;
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	int a = cpus[i % ncpus], b = cpus[(i + 1) % ncpus], j;

	if (pin(a))
		return (void *)1;
	pthread_barrier_wait(&start);
	m0 = thread_migrations();
	for (j = 0; j < hops; j++) {
		if (pin(j & 1 ? a : b))
			return (void *)1;
		nanosleep(&pause, NULL);
	}
	m = thread_migrations();
	pthread_mutex_lock(&total_lock);
	total += m >= 0 && m0 >= 0 ? m - m0 : 0;
	pthread_mutex_unlock(&total_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t *th;
	cpu_set_t all;
	int n, i, failed = 0;
	void *ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s THREADS HOPS\n", argv[0]);
		return 1;
	}
	n = atoi(argv[1]);
	hops = atoi(argv[2]);
	if (sched_getaffinity(0, sizeof(all), &all))
		return 2;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &all))
			cpus[ncpus++] = i;
	if (n < 1 || hops < 1 || ncpus < 2) {
		fprintf(stderr, "st_crowd: need THREADS >= 1, HOPS >= 1, 2 CPUs\n");
		return 1;
	}
	th = calloc(n, sizeof(*th));
	if (!th || pthread_barrier_init(&start, NULL, n + 1))
		return 2;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		if (pthread_create(&th[i], &attr, run, (void *)(long)i)) {
			perror("pthread_create");
			return 2;
		}
	}
	pthread_barrier_wait(&start);
	for (i = 0; i < n; i++) {
		pthread_join(th[i], &ret);
		if (ret)
			failed++;
	}
	printf("threads %d hops %d migrations %ld failed %d\n", n, hops, total,
	       failed);
	return failed ? 2 : 0;
}
