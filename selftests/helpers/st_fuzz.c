// SPDX-License-Identifier: GPL-2.0
/*
 * st_fuzz [-s SEED] [-n COUNT] [-c] [-r] [-v VALUE]... SPEC...
 *
 * Seeded knob fuzzer for /sys/kernel/sched_tune.  For every SPEC it
 * generates COUNT inputs (default 200): random bytes, long strings,
 * signs, blanks, huge numbers, boundaries, mutations of valid values,
 * the other files' contents and the -v values.  Each input is written
 * with one write(2) on a fresh open, and the outcome is compared with the
 * grammar of sysfs-kernel-sched_tune:
 *
 *   one value, optionally followed by a single newline; empty or not a
 *   plain decimal (or not one of the names) -> EINVAL; outside the range
 *   or beyond u64 -> ERANGE; a valid value that differs from the current
 *   one on an unsupported feature -> EOPNOTSUPP; anything else is
 *   accepted and reads back as written.  Failures keep the old value.
 *
 * Writes beyond PAGE_SIZE: sysfs hands the store the first PAGE_SIZE
 * bytes and write(2) returns that count, so the oracle judges that prefix.
 *
 * SPEC:  PATH=num:MIN:MAX[:uns][:wo]
 *        PATH=choice:NAME/NAME/...[:uns][:wo]
 *        PATH=cgroup:MOUNT:VALID,VALID,...[:uns][:wo]
 *   cgroup: a scope file, a cgroup v2 path; MOUNT is where the hierarchy
 *        is mounted and the VALID paths are cgroups there.  Not from
 *        '/', or holding a NUL byte -> EINVAL; walked as the kernel
 *        walks it (empty components skipped, no "." or "..", at most
 *        PATH_MAX - 1 bytes): no such node -> ENOENT, a file -> ENOTDIR;
 *        a cgroup other than the root on an unsupported feature ->
 *        EOPNOTSUPP; else accepted, and it reads back as that walk.
 *   uns: the file's feature is unsupported on this kernel
 *   wo:  write-only (no read-back)
 *
 * -r: only read every SPEC file once and check that it parses; no write.
 *
 * -c: other writers run at once, so a read-back may show their value:
 *     it then only has to parse and be in range (unsupported files must
 *     still read their unchanged value; results are exact either way).
 *
 * Prints one summary line per SPEC and every mismatch (at most 20 per
 * SPEC).  Exit status: 0 when everything matched, 1 otherwise, 2 on
 * usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define MAX_SPECS	32
#define MAX_CHOICES	16
#define MAX_VALUES	64
#define INPUT_MAX	9000
#define SYSFS_MAX	4096
#define REPORT_MAX	20
#define fallthrough	__attribute__((__fallthrough__))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum result {
	RES_OK, RES_EINVAL, RES_ERANGE, RES_EOPNOTSUPP, RES_ENOENT, RES_ENOTDIR,
	RES_OTHER, RES_NR
};

static const char *const result_names[RES_NR] = {
	"OK", "EINVAL", "ERANGE", "EOPNOTSUPP", "ENOENT", "ENOTDIR", "other",
};

struct spec {
	char *path;
	bool choice, cgroup, uns, wo;
	char *mount;
	uint64_t min, max;
	char *names[MAX_CHOICES];
	int nr_names;
	/* statistics */
	unsigned long count[RES_NR];
	unsigned long truncated, bad, bad_reads;
};

static struct spec specs[MAX_SPECS];
static int nr_specs;
static char *values[MAX_VALUES];
static int nr_values;
static bool concurrent, read_only;

/* splitmix64: small, seedable, good enough for input generation */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* --- the oracle: what the module must answer to these bytes ------------ */

/*
 * Parses @buf[0..len) as sysfs-kernel-sched_tune says.  Returns RES_OK with
 * *val set, or RES_EINVAL / RES_ERANGE.
 */
static enum result parse(const struct spec *s, const char *buf, size_t len,
			 uint64_t *val)
{
	uint64_t v = 0;
	bool over = false;
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len)
		return RES_EINVAL;
	if (s->choice) {
		for (i = 0; i < (size_t)s->nr_names; i++) {
			if (strlen(s->names[i]) == len &&
			    !memcmp(s->names[i], buf, len)) {
				*val = i;
				return RES_OK;
			}
		}
		return RES_EINVAL;
	}
	for (i = 0; i < len; i++) {
		unsigned int d;

		if (buf[i] < '0' || buf[i] > '9')
			return RES_EINVAL;
		d = buf[i] - '0';
		if (v > (UINT64_MAX - d) / 10)
			over = true;
		else
			v = v * 10 + d;
	}
	if (over || v < s->min || v > s->max)
		return RES_ERANGE;
	*val = v;
	return RES_OK;
}

/* Reads the file and parses what a read must show; -1 when it does not. */
static int read_value(const struct spec *s, uint64_t *val, char *text,
		      size_t size)
{
	ssize_t n;
	int fd, i, found = -1;
	char *p, *end;

	text[0] = '\0';
	fd = open(s->path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, text, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	if (text[n - 1] != '\n' || memchr(text, '\n', n - 1))
		return -1;
	if (!s->choice) {
		if (text[0] < '0' || text[0] > '9')
			return -1;
		errno = 0;
		*val = strtoull(text, &end, 10);
		if (errno || *end != '\n' || *val < s->min || *val > s->max)
			return -1;
		return 0;
	}
	/* "a [b] c d\n": every name in order, exactly one in brackets */
	p = text;
	for (i = 0; i < s->nr_names; i++) {
		size_t l = strlen(s->names[i]);
		bool br = *p == '[';

		if (br)
			p++;
		if (strncmp(p, s->names[i], l))
			return -1;
		p += l;
		if (br) {
			if (*p++ != ']' || found >= 0)
				return -1;
			found = i;
		}
		if (*p != (i + 1 < s->nr_names ? ' ' : '\n'))
			return -1;
		p++;
	}
	if (found < 0 || *p)
		return -1;
	*val = found;
	return 0;
}

static void escape(const char *buf, size_t len, char *out, size_t size)
{
	size_t i, n = 0;

	for (i = 0; i < len && n + 40 < size; i++) {
		unsigned char c = buf[i];

		if (c == '\n')
			n += sprintf(out + n, "\\n");
		else if (c == '\\')
			n += sprintf(out + n, "\\\\");
		else if (c < 0x20 || c >= 0x7f)
			n += sprintf(out + n, "\\x%02x", c);
		else
			out[n++] = c;
	}
	if (i < len)
		n += snprintf(out + n, size - n, "...(%zu bytes)", len);
	out[n] = '\0';
}

/* --- input generation ----------------------------------------------------- */

static size_t put_u64(char *buf, uint64_t v)
{
	return sprintf(buf, "%" PRIu64, v);
}

static size_t add_nl(char *buf, size_t len)
{
	if (rnd_below(2))
		buf[len++] = '\n';
	return len;
}

/* A value this file accepts, as text. */
static size_t gen_valid(const struct spec *s, char *buf)
{
	if (s->choice || s->cgroup) {
		const char *n = s->names[rnd_below(s->nr_names)];
		size_t l = strlen(n);

		memcpy(buf, n, l);
		return l;
	}
	return put_u64(buf, s->min + rnd_below(s->max - s->min + 1));
}

static size_t gen(const struct spec *s, char *buf)
{
#define S(x) { x, sizeof(x) - 1 }
	/* some hold NUL bytes: each keeps its own length */
	static const struct { const char *s; size_t len; } odd[] = {
		S("0x10"), S("0X1"), S("010"), S("0o7"), S("1e3"), S("1E3"),
		S("1.0"), S("1.5"), S(".5"), S("1_000"), S("1,000"), S("1'000"),
		S("0b1"), S("inf"), S("nan"), S("true"), S("false"), S("yes"),
		S("on"), S("off"), S("y"), S("n"), S("null"), S("\xd9\xa3"),
		S("\xef\xbc\x91"), S("\xc2\xbd"), S("1\xc2\xa0"), S("\x00"),
		S("1\x00"), S("\x00\x31"), S("0\n\x00"), S("\x7f"), S("\xff"),
		S("-"), S("+"), S("\n\n"), S("\r\n"), S("1\r\n"), S("1\r"),
		S("llc"), S("l2"), S("smt"), S("auto"), S("LLC"), S("L2"),
		S("Auto"), S("[l2]"), S("llc [l2] smt auto"),
		S("llc [l2] smt auto\n"), S("none"), S("None"), S("none "),
		S("[none]"), S("llc l2 smt auto [none]"),
		S("l2 "), S(" l2"), S("l2\t"), S("l3"),
		S("l1"), S("llc2"), S("ll"), S("l"), S("smt\n\n"),
		S("auto\nauto"), S("active"), S("idle"), S("inactive"),
		S("unsupported"), S("18446744073709551615"),
		S("18446744073709551616"), S("99999999999999999999"),
		S("99999999999999999999x"),
		S("340282366920938463463374607431768211456"),
		S("-9223372036854775808"), S("9223372036854775807"),
		S("4294967295"), S("4294967296"), S("2147483648"),
	};
#undef S
	static const char *const ws[] = { " ", "\t", "\n", "\r", "\v", "\f" };
	size_t len = 0, i, n;
	uint64_t v;

	switch (rnd_below(14)) {
	case 0:	/* random bytes */
		n = 1 + rnd_below(32);
		for (i = 0; i < n; i++)
			buf[len++] = (char)rnd();
		break;
	case 1:	/* random printable */
		n = 1 + rnd_below(16);
		for (i = 0; i < n; i++)
			buf[len++] = (char)(0x20 + rnd_below(0x5f));
		break;
	case 2:	/* valid */
	case 3:
		len = add_nl(buf, gen_valid(s, buf));
		break;
	case 4:	/* boundaries */
		{
			/* min - 1 and max + 1 wrap at the ends: still out of range */
			const uint64_t edge[] = {
				s->min, s->max, s->min - 1, s->max + 1, 0, UINT64_MAX,
				(uint64_t)1 << rnd_below(64),
			};

			v = edge[rnd_below(ARRAY_SIZE(edge))];
		}
		len = add_nl(buf, put_u64(buf, v));
		break;
	case 5:	/* signs */
		buf[len++] = "+-"[rnd_below(2)];
		len += gen_valid(s, buf + len);
		len = add_nl(buf, len);
		break;
	case 6:	/* blanks around or inside a valid value */
		n = gen_valid(s, buf + 1);
		switch (rnd_below(4)) {
		case 0: /* leading */
			buf[0] = ws[rnd_below(6)][0];
			len = n + 1;
			break;
		case 1: /* trailing, maybe before the newline */
			memmove(buf, buf + 1, n);
			buf[n] = ws[rnd_below(6)][0];
			len = add_nl(buf, n + 1);
			break;
		case 2: /* two newlines */
			memmove(buf, buf + 1, n);
			buf[n] = '\n';
			buf[n + 1] = '\n';
			len = n + 2;
			break;
		default: /* in the middle */
			memmove(buf, buf + 1, n);
			i = rnd_below(n + 1);
			memmove(buf + i + 1, buf + i, n - i);
			buf[i] = ws[rnd_below(6)][0];
			len = n + 1;
			break;
		}
		break;
	case 7:	/* long strings, beyond a page too */
		n = 64 + rnd_below(8192);
		switch (rnd_below(4)) {
		case 0: /* leading zeros, then a valid value */
			memset(buf, '0', n);
			len = n + gen_valid(s, buf + n);
			break;
		case 1:
			memset(buf, '9', n);
			len = n;
			break;
		case 2:
			memset(buf, '0', n);
			len = add_nl(buf, n);
			break;
		default:
			for (i = 0; i < n; i++)
				buf[len++] = (char)('a' + rnd_below(26));
			break;
		}
		break;
	case 8:	/* huge numbers */
		n = 19 + rnd_below(30);
		buf[len++] = '1' + rnd_below(9);
		for (i = 1; i < n; i++)
			buf[len++] = '0' + rnd_below(10);
		len = add_nl(buf, len);
		break;
	case 9:	/* other files' contents and the -v values */
		if (nr_values) {
			const char *p = values[rnd_below(nr_values)];

			len = strlen(p);
			memcpy(buf, p, len);
			if (rnd_below(2) && len && buf[len - 1] == '\n')
				len--;
			break;
		}
		fallthrough;
	case 10: /* odd spellings */
		i = rnd_below(ARRAY_SIZE(odd));
		len = odd[i].len;
		memcpy(buf, odd[i].s, len);
		break;
	case 11: /* a valid value with one byte changed, inserted or dropped */
		len = gen_valid(s, buf);
		i = rnd_below(len + 1);
		switch (rnd_below(3)) {
		case 0:
			if (i < len) {
				buf[i] = (char)rnd();
				break;
			}
			fallthrough;
		case 1:
			memmove(buf + i + 1, buf + i, len - i);
			buf[i] = (char)rnd();
			len++;
			break;
		default:
			if (len > 1 && i < len) {
				memmove(buf + i, buf + i + 1, len - i - 1);
				len--;
			}
			break;
		}
		break;
	case 12: /* a valid value written twice, or with a second line */
		len = gen_valid(s, buf);
		buf[len++] = rnd_below(2) ? '\n' : ' ';
		len += gen_valid(s, buf + len);
		len = add_nl(buf, len);
		break;
	default: /* the empty write and lone bytes */
		len = rnd_below(2);
		if (len)
			buf[0] = (char)rnd();
		break;
	}
	return len;
}

/* --- one write and its judgement ------------------------------------------ */

static enum result do_write(const char *path, const char *buf, size_t len,
			    ssize_t *written, int *err)
{
	int fd = open(path, O_WRONLY);

	*written = -1;
	*err = 0;
	if (fd < 0) {
		*err = errno;
		return RES_OTHER;
	}
	*written = write(fd, buf, len);
	if (*written < 0)
		*err = errno;
	close(fd);
	if (*written >= 0)
		return RES_OK;
	switch (*err) {
	case EINVAL: return RES_EINVAL;
	case ERANGE: return RES_ERANGE;
	case EOPNOTSUPP: return RES_EOPNOTSUPP;
	case ENOENT: return RES_ENOENT;
	case ENOTDIR: return RES_ENOTDIR;
	default: return RES_OTHER;
	}
}

/*
 * write_judged() - @buf written with one write(2), counted, and judged
 * against @want; *why says what differed ("" when nothing did).
 */
static void write_judged(struct spec *s, const char *buf, size_t len,
			 size_t eff, enum result want, char *why, size_t size)
{
	enum result got;
	ssize_t written;
	int err;

	got = do_write(s->path, buf, len, &written, &err);
	s->count[got]++;
	if (len > SYSFS_MAX)
		s->truncated++;
	why[0] = '\0';
	if (got != want)
		snprintf(why, size, "want %s, got %s (errno %d)",
			 result_names[want], result_names[got], err);
	else if (got == RES_OK && (size_t)written != eff)
		snprintf(why, size, "write returned %zd, want %zu",
			 written, eff);
}

/* One mismatch of @s, printed while fewer than REPORT_MAX were. */
static void mismatch(struct spec *s, const char *buf, size_t len,
		     const char *why)
{
	char in[200];

	if (s->bad++ < REPORT_MAX) {
		escape(buf, len, in, sizeof(in));
		printf("# MISMATCH %s: input '%s': %s\n", s->path, in, why);
	}
}

/*
 * A scope's bytes as the module judges them; *norm the path the kernel's
 * walk arrives at ("/" for the root), as the file then reads.
 */
static enum result cg_parse(const struct spec *s, const char *buf, size_t len,
			    char *norm, size_t size)
{
	char full[PATH_MAX + 256];
	const char *p = buf, *end, *slash;
	struct stat st;
	size_t n = 0, l;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || memchr(buf, '\0', len) || buf[0] != '/')
		return RES_EINVAL;
	/* kernfs_walk_ns() copies the path into a PATH_MAX buffer first */
	if (len >= PATH_MAX)
		return RES_ENOENT;
	end = buf + len;
	norm[0] = '\0';
	while (p < end) {
		slash = memchr(p, '/', end - p);
		l = (slash ? slash : end) - p;
		if (l) {
			if ((l == 1 && p[0] == '.') ||
			    (l == 2 && p[0] == '.' && p[1] == '.') ||
			    l > NAME_MAX || n + l + 2 > size)
				return RES_ENOENT;
			norm[n++] = '/';
			memcpy(norm + n, p, l);
			n += l;
			norm[n] = '\0';
		}
		p += l + 1;
	}
	if (!n) {
		snprintf(norm, size, "/");
		return RES_OK;
	}
	snprintf(full, sizeof(full), "%s%s", s->mount, norm);
	if (stat(full, &st))
		return RES_ENOENT;
	if (!S_ISDIR(st.st_mode))
		return RES_ENOTDIR;
	return s->uns ? RES_EOPNOTSUPP : RES_OK;
}

/* A scope file's text, "PATH\n" from '/'; -1 when it is not that. */
static int cg_read(const struct spec *s, char *text, size_t size)
{
	ssize_t n;
	int fd;

	text[0] = '\0';
	fd = open(s->path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, text, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	if (text[0] != '/' || text[n - 1] != '\n' || memchr(text, '\n', n - 1))
		return -1;
	text[n - 1] = '\0';
	return 0;
}

static void fuzz_cgroup(struct spec *s, const char *buf, size_t len)
{
	char before[SYSFS_MAX + 1], after[SYSFS_MAX + 1], norm[SYSFS_MAX + 2];
	char why[160];
	size_t eff = len < SYSFS_MAX ? len : SYSFS_MAX;
	bool have_before = !s->wo && !cg_read(s, before, sizeof(before));
	enum result want;

	/* an empty write(2) never reaches the store */
	want = eff ? cg_parse(s, buf, eff, norm, sizeof(norm)) : RES_OK;
	write_judged(s, buf, len, eff, want, why, sizeof(why));
	if (!why[0] && !s->wo) {
		if (cg_read(s, after, sizeof(after))) {
			s->bad_reads++;
			snprintf(why, sizeof(why), "read-back does not parse");
		} else if (!concurrent && have_before &&
			   strcmp(after, want == RES_OK && eff ? norm : before)) {
			snprintf(why, sizeof(why), "read-back '%.60s', want '%.60s'",
				 after, want == RES_OK && eff ? norm : before);
		}
	}
	if (why[0])
		mismatch(s, buf, len, why);
}

static void fuzz_one(struct spec *s, const char *buf, size_t len)
{
	char text[SYSFS_MAX + 1], in[200], why[160];
	uint64_t before = 0, after = 0, val = 0;
	size_t eff = len < SYSFS_MAX ? len : SYSFS_MAX;
	enum result want;
	bool have_before = false;

	if (s->cgroup) {
		fuzz_cgroup(s, buf, len);
		return;
	}
	if (!s->wo) {
		if (read_value(s, &before, text, sizeof(text))) {
			s->bad_reads++;
			if (s->bad++ < REPORT_MAX) {
				escape(text, strlen(text), in, sizeof(in));
				printf("# MISMATCH %s: read before a write does not parse: '%s'\n",
				       s->path, in);
			}
		} else {
			have_before = true;
		}
	}

	/* an empty write(2) never reaches the store */
	want = eff ? parse(s, buf, eff, &val) : RES_OK;
	if (want == RES_OK && eff && s->uns && (!have_before || val != before))
		want = RES_EOPNOTSUPP;

	write_judged(s, buf, len, eff, want, why, sizeof(why));
	if (!why[0] && !s->wo) {
		uint64_t expect = (want == RES_OK && eff) ? val : before;

		if (read_value(s, &after, text, sizeof(text))) {
			s->bad_reads++;
			snprintf(why, sizeof(why), "read-back does not parse");
		} else if ((!concurrent || s->uns) && have_before &&
			   after != expect) {
			snprintf(why, sizeof(why),
				 "read-back %" PRIu64 ", want %" PRIu64 " (was %" PRIu64 ")",
				 after, expect, before);
		}
	}
	if (why[0])
		mismatch(s, buf, len, why);
}

/* --- command line ------------------------------------------------------------ */

static int parse_spec(char *arg, struct spec *s)
{
	char *eq = strchr(arg, '='), *tok, *save = NULL, *end;

	if (!eq)
		return -1;
	*eq = '\0';
	s->path = arg;
	tok = strtok_r(eq + 1, ":", &save);
	if (!tok)
		return -1;
	if (!strcmp(tok, "num")) {
		tok = strtok_r(NULL, ":", &save);
		if (!tok)
			return -1;
		s->min = strtoull(tok, &end, 10);
		if (*end)
			return -1;
		tok = strtok_r(NULL, ":", &save);
		if (!tok)
			return -1;
		s->max = strtoull(tok, &end, 10);
		if (*end || s->max < s->min)
			return -1;
	} else if (!strcmp(tok, "choice")) {
		char *n, *nsave = NULL;

		s->choice = true;
		tok = strtok_r(NULL, ":", &save);
		if (!tok)
			return -1;
		for (n = strtok_r(tok, "/", &nsave); n; n = strtok_r(NULL, "/", &nsave)) {
			if (s->nr_names == MAX_CHOICES)
				return -1;
			s->names[s->nr_names++] = n;
		}
		if (!s->nr_names)
			return -1;
		s->max = s->nr_names - 1;
	} else if (!strcmp(tok, "cgroup")) {
		char *n, *nsave = NULL;

		s->cgroup = true;
		s->mount = strtok_r(NULL, ":", &save);
		tok = strtok_r(NULL, ":", &save);
		if (!s->mount || !tok)
			return -1;
		for (n = strtok_r(tok, ",", &nsave); n; n = strtok_r(NULL, ",", &nsave)) {
			if (s->nr_names == MAX_CHOICES)
				return -1;
			s->names[s->nr_names++] = n;
		}
		if (!s->nr_names)
			return -1;
	} else {
		return -1;
	}
	while ((tok = strtok_r(NULL, ":", &save))) {
		if (!strcmp(tok, "uns"))
			s->uns = true;
		else if (!strcmp(tok, "wo"))
			s->wo = true;
		else
			return -1;
	}
	return 0;
}

static void add_value(const char *v)
{
	if (nr_values < MAX_VALUES)
		values[nr_values++] = strdup(v);
}

static void exit_usage(void)
{
	fprintf(stderr,
		"usage: st_fuzz [-s SEED] [-n COUNT] [-c] [-r] [-v VALUE]... PATH=num:MIN:MAX[:uns][:wo] | PATH=choice:A/B/..[:uns][:wo] | PATH=cgroup:MOUNT:P,P,..[:uns][:wo] ...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static char buf[INPUT_MAX + 64];
	uint64_t seed = 1;
	unsigned long n = 200, i, bad = 0;
	int opt, k;

	while ((opt = getopt(argc, argv, "s:n:crv:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			concurrent = true;
			break;
		case 'r':
			read_only = true;
			break;
		case 'v':
			add_value(optarg);
			break;
		default:
			exit_usage();
		}
	}
	if (optind >= argc)
		exit_usage();
	for (; optind < argc; optind++) {
		if (nr_specs == MAX_SPECS || parse_spec(argv[optind], &specs[nr_specs]))
			exit_usage();
		nr_specs++;
	}
	if (read_only) {
		for (k = 0; k < nr_specs; k++) {
			char text[SYSFS_MAX + 1] = "", in[200];
			uint64_t v;

			if (specs[k].wo ||
			    !(specs[k].cgroup ? cg_read(&specs[k], text, sizeof(text)) :
			      read_value(&specs[k], &v, text, sizeof(text))))
				continue;
			escape(text, strlen(text), in, sizeof(in));
			printf("# BAD READ %s: '%s'\n", specs[k].path, in);
			bad++;
		}
		return bad ? 1 : 0;
	}
	/* the other files' contents are inputs too */
	for (k = 0; k < nr_specs; k++) {
		char text[SYSFS_MAX + 1];
		int fd = specs[k].wo ? -1 : open(specs[k].path, O_RDONLY);
		ssize_t r;

		if (fd < 0)
			continue;
		r = read(fd, text, SYSFS_MAX);
		close(fd);
		if (r > 0) {
			text[r] = '\0';
			add_value(text);
		}
	}

	/*
	 * Each file's inputs depend only on the seed and its path; the files
	 * take turns so that concurrent writers interleave on every file.
	 */
	for (i = 0; i < n; i++) {
		for (k = 0; k < nr_specs; k++) {
			struct spec *s = &specs[k];
			size_t len;

			rng_state = seed * 0x100000001b3ULL ^ hash_str(s->path) ^ (i << 32);
			len = gen(s, buf);
			fuzz_one(s, buf, len);
		}
	}

	for (k = 0; k < nr_specs; k++) {
		struct spec *s = &specs[k];

		fprintf(stdout,
			"# %s: %lu writes: OK %lu, EINVAL %lu, ERANGE %lu, EOPNOTSUPP %lu, ENOENT %lu, ENOTDIR %lu, other %lu; beyond a page %lu; bad reads %lu; mismatches %lu\n",
			s->path, n, s->count[RES_OK], s->count[RES_EINVAL],
			s->count[RES_ERANGE], s->count[RES_EOPNOTSUPP],
			s->count[RES_ENOENT], s->count[RES_ENOTDIR],
			s->count[RES_OTHER], s->truncated, s->bad_reads, s->bad);
		bad += s->bad;
	}
	return bad ? 1 : 0;
}
