// SPDX-License-Identifier: GPL-2.0
/*
 * st_bpf_count [-t] FUNC
 *
 * Attaches a BPF fentry and a BPF fexit program to the kernel function
 * FUNC and counts its calls, with raw bpf(2) calls: the guest has no
 * libbpf and no clang.  The BPF trampoline is an ftrace direct call, so
 * the guest tests use this to check that sched_tune's hooks and BPF
 * coexist on one function in either order, and that a refusal (EBUSY
 * when another direct call already owns the function) is reported.
 *
 * Prints "attached fentry+fexit FUNC" once both are attached, then waits
 * for SIGTERM or SIGINT and prints "fentry N fexit M".  -t only tries:
 * it prints the same line and detaches at once.  A load or attach the
 * kernel refuses prints "refused: STAGE ERRNO (strerror)", STAGE one of
 * "load fentry", "load fexit", "attach fentry", "attach fexit".
 * Exit status: 0 on success, 2 when refused, 1 on other errors (no BTF,
 * FUNC not found, no BPF map) and usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/btf.h>

#define BTF_PATH	"/sys/kernel/btf/vmlinux"
#define LOG_SIZE	(64 * 1024)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* kernel-internal, not in the uapi headers, yet bpf(2) returns it */
#ifndef ENOTSUPP
#define ENOTSUPP	524
#endif

static const struct { int err; const char *name; } names[] = {
	{ EBUSY, "EBUSY" }, { EINVAL, "EINVAL" }, { ENOENT, "ENOENT" },
	{ EPERM, "EPERM" }, { EACCES, "EACCES" }, { ENOTSUPP, "ENOTSUPP" },
	{ EOPNOTSUPP, "EOPNOTSUPP" }, { E2BIG, "E2BIG" }, { ENOMEM, "ENOMEM" },
	{ EFAULT, "EFAULT" }, { EEXIST, "EEXIST" }, { ENOSPC, "ENOSPC" },
	{ ESRCH, "ESRCH" }, { EAGAIN, "EAGAIN" }, { ENODEV, "ENODEV" },
};

static void report_refusal(const char *stage, int err)
{
	size_t i;

	printf("refused: %s ", stage);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].err == err)
			break;
	if (i < ARRAY_SIZE(names))
		printf("%s", names[i].name);
	else
		printf("%d", err);
	printf(" (%s)\n", strerror(err));
	fflush(stdout);
}

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* --- BTF: the type id of FUNC ------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
	size_t size = 8 << 20, n = 0;
	char *buf, *p;
	ssize_t r;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	buf = malloc(size);
	/* sysfs gives bin files no useful size: read until EOF */
	while (buf) {
		if (n == size) {
			size *= 2;
			p = realloc(buf, size);
			if (!p)
				break;
			buf = p;
		}
		r = read(fd, buf + n, size - n);
		if (r < 0)
			break;
		if (!r) {
			close(fd);
			*len = n;
			return buf;
		}
		n += r;
	}
	err = buf ? errno : ENOMEM;
	close(fd);
	free(buf);
	errno = err;
	return NULL;
}

/* Bytes that follow a struct btf_type of this kind; -1 for unknown kinds. */
static long btf_extra(const struct btf_type *t)
{
	unsigned long vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
		return sizeof(__u32);
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR:
		return sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG:
		return sizeof(struct btf_decl_tag);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

/* Returns the BTF id of the first FUNC named @func, 0 when none, -1 on errors. */
static long btf_find_func(const char *func)
{
	const struct btf_header *hdr;
	const char *strs, *types;
	size_t len, off, next;
	unsigned long id, found = 0, dups = 0;
	char *buf;

	buf = read_file(BTF_PATH, &len);
	if (!buf) {
		fprintf(stderr, "st_bpf_count: %s: %s\n", BTF_PATH, strerror(errno));
		return -1;
	}
	hdr = (const void *)buf;
	if (len < sizeof(*hdr) || hdr->magic != BTF_MAGIC ||
	    hdr->hdr_len < sizeof(*hdr) ||
	    (size_t)hdr->hdr_len + hdr->type_off + hdr->type_len > len ||
	    (size_t)hdr->hdr_len + hdr->str_off + hdr->str_len > len ||
	    !hdr->str_len || buf[hdr->hdr_len + hdr->str_off + hdr->str_len - 1]) {
		fprintf(stderr, "st_bpf_count: %s: not a BTF file\n", BTF_PATH);
		free(buf);
		return -1;
	}
	/* section offsets count from the end of the header, which may grow */
	types = buf + hdr->hdr_len + hdr->type_off;
	strs = buf + hdr->hdr_len + hdr->str_off;

	for (id = 1, off = 0; off < hdr->type_len; id++, off = next) {
		const struct btf_type *t = (const void *)(types + off);
		long extra;

		if (hdr->type_len - off < sizeof(*t))
			goto bad;
		extra = btf_extra(t);
		if (extra < 0) {
			/* its size is unknown: every later id would be wrong */
			fprintf(stderr, "st_bpf_count: unknown BTF kind %u at id %lu\n",
				BTF_INFO_KIND(t->info), id);
			free(buf);
			return -1;
		}
		next = off + sizeof(*t) + extra;
		if (next > hdr->type_len)
			goto bad;
		if (BTF_INFO_KIND(t->info) != BTF_KIND_FUNC)
			continue;
		if (t->name_off >= hdr->str_len)
			goto bad;
		if (strcmp(strs + t->name_off, func))
			continue;
		if (!found)
			found = id;
		else
			dups++;
	}
	free(buf);
	if (dups)
		fprintf(stderr, "st_bpf_count: %lu more FUNCs named %s, using BTF id %lu\n",
			dups, func, found);
	return found;
bad:
	fprintf(stderr, "st_bpf_count: %s: truncated type at id %lu\n",
		BTF_PATH, id);
	free(buf);
	return -1;
}

/* --- the programs ---------------------------------------------------------- */

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })

static char log_buf[LOG_SIZE];

/* Loads "map[idx] += 1; return 0" for @type; the fd, or -1 with errno. */
static int load_prog(int map_fd, __u32 idx, enum bpf_attach_type type,
		     __u32 btf_id)
{
	const struct bpf_insn insns[] = {
		/* *(u32 *)(fp - 4) = idx */
		INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, idx),
		/* r1 = map, a 16-byte load the verifier turns into the map */
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0,
		     map_fd),
		INSN(0, 0, 0, 0, 0),
		/* r2 = fp - 4 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		/* if (!r0) goto out */
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 2, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1),
		/* lock *(u64 *)(r0 + 0) += r1: both programs and all CPUs */
		INSN(BPF_STX | BPF_XADD | BPF_DW, BPF_REG_0, BPF_REG_1, 0, BPF_ADD),
		/* out: fentry/fexit must return 0 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	union bpf_attr attr;
	int fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACING;
	attr.expected_attach_type = type;
	attr.attach_btf_id = btf_id;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (uintptr_t)"GPL";
	snprintf(attr.prog_name, sizeof(attr.prog_name), "%s",
		 type == BPF_TRACE_FENTRY ? "st_fentry" : "st_fexit");
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd >= 0)
		return fd;
	err = errno;
	/* again with the log: a log that overflows would fail the first load */
	attr.log_level = 1;
	attr.log_buf = (uintptr_t)log_buf;
	attr.log_size = sizeof(log_buf);
	log_buf[0] = '\0';
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd >= 0) {
		close(fd);
		fprintf(stderr, "st_bpf_count: the load with a log passed\n");
	} else if (log_buf[0]) {
		fprintf(stderr, "st_bpf_count: verifier log:\n%s\n", log_buf);
	}
	errno = err;
	return -1;
}

static int attach(int prog_fd)
{
	union bpf_attr attr;

	/* no name: the program's own attach_btf_id says where (5.5+) */
	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = 0;
	attr.raw_tracepoint.prog_fd = prog_fd;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
}

static __u64 count(int map_fd, __u32 idx)
{
	union bpf_attr attr;
	__u64 val = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)&idx;
	attr.value = (uintptr_t)&val;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
		fprintf(stderr, "st_bpf_count: map lookup %u: %s\n", idx,
			strerror(errno));
	return val;
}

static void on_signal(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	int map_fd, fentry_fd, fexit_fd, fentry_link, fexit_link, sig;
	struct sigaction sa;
	union bpf_attr attr;
	const char *func;
	int try_only = 0;
	sigset_t set;
	long btf_id;

	if (argc == 3 && !strcmp(argv[1], "-t"))
		try_only = 1;
	else if (argc != 2 || argv[1][0] == '-')
		goto usage;
	func = argv[argc - 1];

	/*
	 * Blocked from the start, so a SIGTERM sent as soon as the attached
	 * line shows waits for sigwait(); a handler too, because a shell
	 * starts background jobs with SIGINT ignored.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);

	btf_id = btf_find_func(func);
	if (btf_id < 0)
		return 1;
	if (!btf_id) {
		fprintf(stderr, "st_bpf_count: no BTF FUNC named %s\n", func);
		return 1;
	}

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(__u32);
	attr.value_size = sizeof(__u64);
	attr.max_entries = 2;
	map_fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (map_fd < 0) {
		fprintf(stderr, "st_bpf_count: map create: %s\n", strerror(errno));
		return 1;
	}

	fentry_fd = load_prog(map_fd, 0, BPF_TRACE_FENTRY, btf_id);
	if (fentry_fd < 0) {
		report_refusal("load fentry", errno);
		return 2;
	}
	fexit_fd = load_prog(map_fd, 1, BPF_TRACE_FEXIT, btf_id);
	if (fexit_fd < 0) {
		report_refusal("load fexit", errno);
		return 2;
	}
	fentry_link = attach(fentry_fd);
	if (fentry_link < 0) {
		report_refusal("attach fentry", errno);
		return 2;
	}
	fexit_link = attach(fexit_fd);
	if (fexit_link < 0) {
		/* exit closes every fd: the fentry link goes with it */
		report_refusal("attach fexit", errno);
		return 2;
	}
	printf("attached fentry+fexit %s\n", func);
	fflush(stdout);
	if (try_only) {
		close(fentry_link);
		close(fexit_link);
		return 0;
	}

	while (sigwait(&set, &sig))
		;
	/* detach first, so the counts no longer move */
	close(fentry_link);
	close(fexit_link);
	printf("fentry %llu fexit %llu\n", (unsigned long long)count(map_fd, 0),
	       (unsigned long long)count(map_fd, 1));
	return 0;
usage:
	fprintf(stderr, "usage: st_bpf_count [-t] FUNC\n");
	return 1;
}
