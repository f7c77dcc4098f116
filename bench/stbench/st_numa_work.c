// SPDX-License-Identifier: GPL-2.0
/*
 * A workload in the spirit of autonuma-benchmark's numa01_THREAD_ALLOC:
 * threads spread over every CPU given, each touching only its own VMAs
 * (disjoint sets), for a fixed time.  NUMA balancing then has to scan
 * VMAs that the scanning thread never faulted in.
 *
 * usage: st_numa_work SECONDS THREADS MB_PER_THREAD [VMAS_PER_THREAD]
 * prints the passes made over the memory.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double seconds;
static size_t bytes_per_vma;
static int vmas;
static int ncpus;

struct worker {
	pthread_t tid;
	int index;
	unsigned long passes;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	char **mem = calloc(vmas, sizeof(*mem));
	double end = now() + seconds;
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	CPU_SET(w->index % ncpus, &set);
	sched_setaffinity(0, sizeof(set), &set);

	/* separate mmaps, so that each thread owns whole VMAs */
	for (i = 0; i < vmas; i++) {
		mem[i] = mmap(NULL, bytes_per_vma, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem[i] == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		/* a guard gap keeps the kernel from merging neighbours */
		mmap(mem[i] + bytes_per_vma, 4096, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	}
	while (now() < end) {
		for (i = 0; i < vmas; i++)
			memset(mem[i], w->passes & 0xff, bytes_per_vma);
		w->passes++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker *w;
	unsigned long total = 0;
	int i, threads;

	if (argc < 4) {
		fprintf(stderr, "usage: %s SECONDS THREADS MB_PER_THREAD [VMAS]\n",
			argv[0]);
		return 2;
	}
	seconds = atof(argv[1]);
	threads = atoi(argv[2]);
	vmas = argc > 4 ? atoi(argv[4]) : 1;
	bytes_per_vma = (size_t)atoi(argv[3]) * 1024 * 1024 / vmas;
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (threads < 1 || vmas < 1 || !bytes_per_vma)
		return 2;

	w = calloc(threads, sizeof(*w));
	for (i = 0; i < threads; i++) {
		w[i].index = i;
		pthread_create(&w[i].tid, NULL, work, &w[i]);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].tid, NULL);
		total += w[i].passes;
	}
	printf("passes %lu\n", total);
	return 0;
}
